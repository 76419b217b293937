package io.github.qsbench.config;

import io.github.qsbench.config.StrategyProfiles.InvalidStrategyProfileException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad strategy profile into a short start-up report instead of a stack trace. */
class InvalidStrategyProfileFailureAnalyzer extends AbstractFailureAnalyzer<InvalidStrategyProfileException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidStrategyProfileException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Start with one of the strategy profiles, for example --spring.profiles.active=synchronized, "
						+ "or list other profiles you need in qs.other-profiles.",
				cause);
	}

}
