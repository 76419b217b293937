package io.github.qsbench.config;

import io.github.qsbench.config.StrategyProfiles.InvalidStrategyProfileException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad strategy profile into a short start-up report instead of a stack trace. */
class InvalidStrategyProfileFailureAnalyzer extends AbstractFailureAnalyzer<InvalidStrategyProfileException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidStrategyProfileException cause) {
		String action = cause.conflict()
				? "Choose the strategy in one place: either the profile (--spring.profiles.active) or qs.strategy "
						+ "(QS_STRATEGY, -Dqs.strategy, --qs.strategy), not both with different values."
				: "Start with one of the strategy profiles, for example --spring.profiles.active=synchronized, "
						+ "or list other profiles you need in qs.other-profiles.";
		return new FailureAnalysis(cause.getMessage(), action, cause);
	}

}
