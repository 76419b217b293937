package io.github.qsbench.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.github.qsbench.core.strategy.Strategy;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.Environment;

/**
 * Checks the active profiles: at most one strategy profile, no profile that is neither a
 * strategy nor declared in {@code qs.other-profiles}, and no {@code qs.strategy} that
 * disagrees with the strategy profile.
 */
final class StrategyProfiles {

	private static final ConfigurationPropertyName STRATEGY = ConfigurationPropertyName.of("qs.strategy");

	private StrategyProfiles() {
	}

	static void check(Environment environment, QueueServiceProperties properties) {
		check(environment.getActiveProfiles(), properties.otherProfiles(), properties.strategy(),
				strategyOrigin(environment));
	}

	/**
	 * @param boundStrategy the strategy {@code qs.strategy} bound to
	 * @param strategyOrigin where that value came from, for the message
	 */
	static void check(String[] activeProfiles, Collection<String> otherProfiles, Strategy boundStrategy,
			String strategyOrigin) {
		List<String> strategies = new ArrayList<>();
		List<String> unknown = new ArrayList<>();
		for (String profile : activeProfiles) {
			if (Strategy.ofProfile(profile).isPresent()) {
				strategies.add(profile);
			}
			else if (!otherProfiles.contains(profile)) {
				unknown.add(profile);
			}
		}
		if (!unknown.isEmpty()) {
			throw new InvalidStrategyProfileException("Unknown profile " + String.join(", ", unknown) + ".");
		}
		if (strategies.size() > 1) {
			throw new InvalidStrategyProfileException(
					"More than one strategy profile is active: " + String.join(", ", strategies) + ".");
		}
		// Each profile's file sets qs.strategy, but an environment variable
		// (QS_STRATEGY),
		// a system property or a command-line argument outranks it: the two must agree.
		if (strategies.size() == 1 && !strategies.get(0).equals(boundStrategy.profile())) {
			throw new InvalidStrategyProfileException("The strategy profile " + strategies.get(0)
					+ " is active but qs.strategy is " + boundStrategy.profile() + " (" + strategyOrigin
					+ "): two settings choose different strategies.", true);
		}
	}

	/**
	 * Where the winning value of {@code qs.strategy} comes from, such as
	 * {@code System Environment Property "QS_STRATEGY"}.
	 */
	private static String strategyOrigin(Environment environment) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(STRATEGY);
			if (property != null) {
				return (property.getOrigin() != null) ? property.getOrigin().toString() : "qs.strategy";
			}
		}
		return "the default";
	}

	/**
	 * Start-up fails with this; {@link InvalidStrategyProfileFailureAnalyzer} explains
	 * it.
	 */
	static final class InvalidStrategyProfileException extends RuntimeException {

		private final boolean conflict;

		InvalidStrategyProfileException(String problem) {
			this(problem, false);
		}

		InvalidStrategyProfileException(String problem, boolean conflict) {
			super(problem + " Valid strategy profiles: " + String.join(", ", Strategy.profiles())
					+ " (at most one; none means concurrent-atomic).");
			this.conflict = conflict;
		}

		/** The profile and {@code qs.strategy} disagree. */
		boolean conflict() {
			return this.conflict;
		}

	}

}
