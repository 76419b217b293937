package io.github.qsbench.core;

/**
 * A message as a browse ({@link QueueServiceCore#peek}) saw it, leasing nothing: its
 * state and delivery count read at one moment, which may have changed by the time the
 * caller looks.
 */
public record Peeked(Message message, State state, int deliveries) {

	/** Where a browsed message stood. */
	public enum State {

		/** A poll would take it: never delivered, or its lease lapsed. */
		READY,

		/** Held by a consumer under an unexpired lease. */
		IN_FLIGHT,

		/** Pushed with a delay that has not passed. */
		DELAYED

	}

}
