package io.github.qsbench.compare;

import java.util.Arrays;
import java.util.Optional;

/**
 * The loads a comparison offers: closed-loop connections, each repeating a cycle of push,
 * poll and complete (100-byte bodies) on its queue, connections spread round robin over
 * the queues. At most {@link ComparisonRequest#MAX_CONNECTIONS} connections.
 */
enum Workload {

	ONE("1-conn", 1, 1, "1 connection, 1 queue: the request path alone, no contention"),

	FOUR("4-conn", 4, 2, "4 connections over 2 queues"),

	SIXTEEN("16-conn", 16, 4, "16 connections over 4 queues: more threads than 2 cores"),

	HOT("16-conn-1-queue", 16, 1, "16 connections on 1 queue: one queue's guard under a crowd");

	private final String id;

	private final int connections;

	private final int queues;

	private final String description;

	Workload(String id, int connections, int queues, String description) {
		this.id = id;
		this.connections = connections;
		this.queues = queues;
		this.description = description;
	}

	String id() {
		return this.id;
	}

	int connections() {
		return this.connections;
	}

	int queues() {
		return this.queues;
	}

	String description() {
		return this.description;
	}

	static Optional<Workload> ofId(String id) {
		return Arrays.stream(values()).filter((w) -> w.id.equals(id)).findFirst();
	}

}
