package io.github.qsbench.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueServiceCore;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What each {@link Strategy} constant records is true, and where a reader looks for it:
 * its framework is the class it extends, and the strategy tables of
 * {@code docs/strategies.md} (everything above its first {@code ## } section) have a row
 * for it with its class and its delivery guarantee, so a strategy added without its row
 * fails here.
 */
class StrategyTableTests {

	private static final List<String> TABLE_ROWS = strategyTableRows();

	@ParameterizedTest
	@EnumSource(Strategy.class)
	void framework_isTheClassItExtends(Strategy strategy) {
		try (QueueServiceCore service = TestCores.create(strategy,
				new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, InstantSource.system(), true))) {
			assertThat(service).isInstanceOf(strategy.framework().type());
		}
	}

	@ParameterizedTest
	@EnumSource(Strategy.class)
	void strategyTables_haveARowWithItsClassAndDelivery(Strategy strategy) {
		String className;
		try (QueueServiceCore service = TestCores.create(strategy,
				new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, InstantSource.system(), false))) {
			className = service.getClass().getSimpleName();
		}
		String delivery = (strategy.delivery(Eviction.LAZY) == Delivery.EXACTLY_ONCE) ? "exactly-once"
				: "at-least-once";
		assertThat(TABLE_ROWS).as("docs/strategies.md's strategy tables")
			.filteredOn(row -> row.startsWith("| `" + strategy.profile() + "`"))
			.singleElement()
			.asString()
			.contains("`" + className + "`")
			.contains("| " + delivery + " |");
	}

	private static List<String> strategyTableRows() {
		try {
			String page = Files.readString(Path.of("docs", "strategies.md"), StandardCharsets.UTF_8);
			int firstSection = page.indexOf("\n## ");
			return page.substring(0, firstSection).lines().filter(line -> line.startsWith("| `")).toList();
		}
		catch (IOException ex) {
			throw new IllegalStateException("tests run in the project's directory, above docs/strategies.md", ex);
		}
	}

}
