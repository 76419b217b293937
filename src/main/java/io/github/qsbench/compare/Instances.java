package io.github.qsbench.compare;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Starts the services a comparison measures, one per strategy: child JVMs in the service
 * ({@link JarInstances}), fakes in tests.
 */
interface Instances {

	/** Why no instance can be started here, or empty when they can. */
	Optional<String> unavailable();

	/**
	 * Starts a service with that strategy profile; it may not be ready yet.
	 */
	Instance start(String profile) throws IOException;

	/** One started service. */
	interface Instance extends AutoCloseable {

		String profile();

		/** Waits until it answers, or throws saying why it never will. */
		void awaitReady(Instant deadline) throws IOException, InterruptedException;

		/** Its port on 127.0.0.1. */
		int port();

		/** The CPU time its process has used so far, in nanoseconds, if known. */
		OptionalLong cpuNanos();

		/** Stops it, and waits (bounded) until it is gone. */
		@Override
		void close();

	}

}
