package io.github.qsbench.sqs;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The registry the face dispatches through: each name served by one handler. */
class SqsActionsTests {

	@Test
	void action_servedByItsHandler() {
		SqsAction ping = call -> null;
		SqsActions actions = new SqsActions(List.of(() -> Map.of("Ping", ping), () -> Map.of("Pong", call -> null)));
		assertThat(actions.action("Ping")).isSameAs(ping);
	}

	@Test
	void action_unknown_invalidAction() {
		assertThatExceptionOfType(SqsException.class)
			.isThrownBy(() -> new SqsActions(List.of(() -> Map.of("Ping", call -> null))).action("Nonsense"))
			.satisfies(ex -> assertThat(ex.error()).isEqualTo(SqsError.INVALID_ACTION));
	}

	@Test
	void handlers_namingOneActionTwice_refused() {
		SqsHandler ping = () -> Map.of("Ping", call -> null);
		assertThatIllegalArgumentException().isThrownBy(() -> new SqsActions(List.of(ping, ping)))
			.withMessageContaining("Ping");
	}

}
