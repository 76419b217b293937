package io.github.qsbench.application;

/**
 * Told of each message the application removed from a queue, by a completion, a move to
 * another queue, a purge or a retention sweep: what keeps state per message above the
 * core ({@link FifoQueues}) follows it.
 */
@FunctionalInterface
public interface Departures {

	/** Nobody follows departures. */
	Departures NONE = (queue, id) -> {
	};

	/** Message {@code id} left {@code queue}. */
	void left(String queue, long id);

}
