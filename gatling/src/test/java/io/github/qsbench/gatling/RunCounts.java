package io.github.qsbench.gatling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * What the virtual users saw, counted on the client side: Gatling's reports give
 * latencies and failures, these give the queue semantics (cycles completed, duplicates,
 * empty polls) and the requests answered inside the load window, which the study divides
 * by the window's length.
 */
final class RunCounts {

	final LongAdder pushed = new LongAdder();

	final LongAdder delivered = new LongAdder();

	final LongAdder emptyPolls = new LongAdder();

	final LongAdder completed = new LongAdder();

	/**
	 * Deliveries with {@code deliveries > 1}, or of an id this run had already received.
	 */
	final LongAdder duplicates = new LongAdder();

	/** Completes that answered 404 because a duplicate delivery was completed first. */
	final LongAdder duplicateCompletesNotFound = new LongAdder();

	/**
	 * Requests answered before the load window closed (the drain and checks excluded).
	 */
	final LongAdder abandoned = new LongAdder();

	final LongAdder redeliveredAfterAbandon = new LongAdder();

	final LongAdder requestsInWindow = new LongAdder();

	/**
	 * Cycles (push, poll, complete) whose complete answered 204 before the window closed.
	 */
	final LongAdder completedInWindow = new LongAdder();

	private final Map<String, Object> extra = new LinkedHashMap<>();

	void put(String key, Object value) {
		synchronized (this.extra) {
			this.extra.put(key, value);
		}
	}

	Map<String, Object> toMap() {
		Map<String, Object> map = new LinkedHashMap<>();
		synchronized (this.extra) {
			map.putAll(this.extra);
		}
		map.put("pushed", this.pushed.sum());
		map.put("delivered", this.delivered.sum());
		map.put("emptyPolls", this.emptyPolls.sum());
		map.put("completed", this.completed.sum());
		map.put("duplicates", this.duplicates.sum());
		map.put("duplicateCompletesNotFound", this.duplicateCompletesNotFound.sum());
		map.put("abandoned", this.abandoned.sum());
		map.put("redeliveredAfterAbandon", this.redeliveredAfterAbandon.sum());
		map.put("requestsInWindow", this.requestsInWindow.sum());
		map.put("completedInWindow", this.completedInWindow.sum());
		return map;
	}

	void write(String file) {
		try {
			Path path = Path.of(file);
			if (path.getParent() != null) {
				Files.createDirectories(path.getParent());
			}
			new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(path.toFile(), toMap());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
