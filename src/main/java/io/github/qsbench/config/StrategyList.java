package io.github.qsbench.config;

import java.util.Arrays;

import io.github.qsbench.core.strategy.Strategy;

/**
 * Prints every strategy's profile name, one a line, so that scripts take the list from
 * the {@link Strategy} enum instead of copying it ({@code scripts/lib/service.sh}'s
 * {@code strategies}):
 * {@code java -cp target/classes io.github.qsbench.config.StrategyList}. With
 * {@code --table-names} it prints the names the JMH report's tables use instead. Listing
 * the enum builds no strategy, so the core's libraries (Agrona, JCTools) are not needed
 * and the compiled classes are enough; from the packaged jar alone: {@code java -cp
 * queue-service.jar -Dloader.main=io.github.qsbench.config.StrategyList
 * org.springframework.boot.loader.launch.PropertiesLauncher}.
 */
public final class StrategyList {

	private StrategyList() {
	}

	public static void main(String[] args) {
		boolean tableNames = Arrays.equals(args, new String[] { "--table-names" });
		if (args.length > 0 && !tableNames) {
			System.err.println("usage: StrategyList [--table-names]");
			System.exit(2);
		}
		for (Strategy strategy : Strategy.values()) {
			System.out.println(tableNames ? strategy.tableName() : strategy.profile());
		}
	}

}
