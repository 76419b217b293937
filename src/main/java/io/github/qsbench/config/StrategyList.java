package io.github.qsbench.config;

import java.util.Arrays;

import io.github.qsbench.core.strategy.Strategy;

/**
 * Prints every strategy's profile name, one a line, so that scripts take the list from
 * the {@link Strategy} enum instead of copying it ({@code scripts/lib/service.sh}'s
 * {@code strategies}):
 * {@code java -cp target/classes io.github.qsbench.config.StrategyList}. With
 * {@code --thesis-names} it prints the names the thesis's tables use instead. The core
 * needs nothing beyond the JDK, so the compiled classes are enough; from the packaged jar
 * alone: {@code java -cp queue-service.jar
 * -Dloader.main=io.github.qsbench.config.StrategyList
 * org.springframework.boot.loader.launch.PropertiesLauncher}.
 */
public final class StrategyList {

	private StrategyList() {
	}

	public static void main(String[] args) {
		boolean thesisNames = Arrays.equals(args, new String[] { "--thesis-names" });
		if (args.length > 0 && !thesisNames) {
			System.err.println("usage: StrategyList [--thesis-names]");
			System.exit(2);
		}
		for (Strategy strategy : Strategy.values()) {
			System.out.println(thesisNames ? strategy.thesisName() : strategy.profile());
		}
	}

}
