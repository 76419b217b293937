package io.github.qsbench.core.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.github.qsbench.core.thesis.AbstractQS;
import io.github.qsbench.core.shared.IdIndex;
import io.github.qsbench.core.thesis.Lockable;
import io.github.qsbench.core.thesis.PojoMessage;
import io.github.qsbench.core.thesis.QSConfiguration;
import io.github.qsbench.core.QueueOptions;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * Why the read-then-write push needs a map whose read access excludes its write access
 * (as {@code ReadWriteLockedQSWithReadPush}'s does, and as {@code AbstractQS} checks): on
 * a map whose accesses exclude nothing, with each queue still under its own monitor,
 * Lincheck's model checker must find a push that appends to a queue that a completion has
 * just emptied and removed, so that its message is never delivered. The same scenarios
 * pass for {@code read-write-lock-read-push} in {@link QueueServiceLincheckTests}.
 */
public class ReadThenWritePushLincheckTests {

	@Test
	void modelChecking_mapReadNotExcludingRemoval_losesAPush() {
		LincheckAssertionError error = QueueServiceLincheckTests.check(QueueServiceLincheckTests.modelCheckingOptions(),
				ReadPushOnUnexcludingMap::new);

		assertThat(error).as("model checking finds the lost push").isNotNull();
		System.out.println("read-then-write push on a map that excludes nothing, model checking found (expected):\n"
				+ error.getMessage());
		assertThat(QueueServiceLincheckTests.doubleDeliveries(error.getMessage())).as("not a double delivery")
			.isEmpty();
	}

	/**
	 * A ConcurrentHashMap whose read and write accesses take no lock (a {@code noLock} in
	 * all but its class, which {@code AbstractQS} would refuse), queues under their own
	 * monitor, and the read-then-write push.
	 */
	static final class ReadPushOnUnexcludingMap extends AbstractQS<PojoMessage> {

		ReadPushOnUnexcludingMap(QueueOptions options) {
			super(QSConfiguration.messages(PojoMessage::new)
				.map(new Unexcluding<>(new ConcurrentHashMap<>()))
				.queues(ArrayDeque::new, Lockable::mutex)
				.index(IdIndex::plain)
				.readThenWritePush(true), options);
		}

	}

	private record Unexcluding<T>(T target) implements Lockable<T> {

		@Override
		public <R> R read(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

		@Override
		public <R> R write(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

		@Override
		public <R> R unsafe(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

	}

}
