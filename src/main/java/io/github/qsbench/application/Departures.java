package io.github.qsbench.application;

/**
 * Told of each message the application removed from a queue, by a completion, a move to
 * another queue, a purge or a retention sweep: what keeps state per message above the
 * core (a FIFO queue's groups, a fair queue's) follows it.
 */
@FunctionalInterface
public interface Departures {

	/** Nobody follows departures. */
	Departures NONE = (queue, id) -> {
	};

	/** Message {@code id} left {@code queue}. */
	void left(String queue, long id);

	/**
	 * Tells {@code fifo} of what leaves a FIFO queue and {@code fair} of what leaves a
	 * standard one: where each kind of queue keeps its groups.
	 */
	static Departures byKind(Departures fifo, Departures fair) {
		return (queue, id) -> {
			if (QueueNames.isFifo(queue)) {
				fifo.left(queue, id);
			}
			else {
				fair.left(queue, id);
			}
		};
	}

}
