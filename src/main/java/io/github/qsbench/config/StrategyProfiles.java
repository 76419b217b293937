package io.github.qsbench.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.github.qsbench.core.strategy.Strategy;

/**
 * Checks the active profiles: at most one strategy profile, and no profile that is
 * neither a strategy nor declared in {@code qs.other-profiles}.
 */
final class StrategyProfiles {

	private StrategyProfiles() {
	}

	static void check(String[] activeProfiles, Collection<String> otherProfiles) {
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
	}

	/**
	 * Start-up fails with this; {@link InvalidStrategyProfileFailureAnalyzer} explains
	 * it.
	 */
	static final class InvalidStrategyProfileException extends RuntimeException {

		InvalidStrategyProfileException(String problem) {
			super(problem + " Valid strategy profiles: " + String.join(", ", Strategy.profiles())
					+ " (at most one; none means concurrent-atomic).");
		}

	}

}
