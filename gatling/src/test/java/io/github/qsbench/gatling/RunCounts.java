package io.github.qsbench.gatling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * What the virtual users saw, counted on the client side: Gatling's reports give
 * latencies and failures, these give the queue semantics (messages completed, duplicates,
 * empty polls, back pressure) and the requests and messages inside the load window, which
 * the study divides by the window's length. Every message count counts the messages of a
 * batch one by one.
 */
final class RunCounts {

	/** Messages accepted (201), by a single push or in a batch. */
	final LongAdder pushed = new LongAdder();

	/** Messages delivered to a consumer (each message of a batch counts). */
	final LongAdder delivered = new LongAdder();

	final LongAdder emptyPolls = new LongAdder();

	/** Completions answered 204 (each message of a batch counts). */
	final LongAdder completed = new LongAdder();

	/**
	 * Deliveries with {@code deliveries > 1}, or of an id this run had already received.
	 */
	final LongAdder duplicates = new LongAdder();

	/**
	 * Completions answered 404 or 412: another delivery of the message was completed
	 * first, or the message was delivered again since this lease. Allowed only for a
	 * message this run saw delivered more than once.
	 */
	final LongAdder completesRefused = new LongAdder();

	/** Completions answered anything else than 204, 404 or 412 (409: never delivered). */
	final LongAdder completesUnexpected = new LongAdder();

	/** Pushes (single or batch) answered 429, when 429 is back pressure. */
	final LongAdder backPressured = new LongAdder();

	/**
	 * Long polls answered 204 well before their wait: the service ignored {@code wait}.
	 */
	final LongAdder earlyEmptyLongPolls = new LongAdder();

	final LongAdder abandoned = new LongAdder();

	final LongAdder redeliveredAfterAbandon = new LongAdder();

	/**
	 * Held messages (with inFlight) completed early because half their lease had passed:
	 * the in-flight depth was then less than asked for.
	 */
	final LongAdder releasedBeforeLease = new LongAdder();

	/**
	 * Requests answered before the load window closed (the drain and checks excluded).
	 */
	final LongAdder requestsInWindow = new LongAdder();

	/** Messages delivered before the window closed. */
	final LongAdder deliveredInWindow = new LongAdder();

	/** Messages whose completion answered 204 before the window closed. */
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
		map.put("completesRefused", this.completesRefused.sum());
		map.put("completesUnexpected", this.completesUnexpected.sum());
		map.put("backPressured", this.backPressured.sum());
		map.put("earlyEmptyLongPolls", this.earlyEmptyLongPolls.sum());
		map.put("abandoned", this.abandoned.sum());
		map.put("redeliveredAfterAbandon", this.redeliveredAfterAbandon.sum());
		map.put("releasedBeforeLease", this.releasedBeforeLease.sum());
		map.put("requestsInWindow", this.requestsInWindow.sum());
		map.put("deliveredInWindow", this.deliveredInWindow.sum());
		map.put("completedInWindow", this.completedInWindow.sum());
		return map;
	}

	/**
	 * The counts of several services loaded at once, added up: numbers are summed (the
	 * window's length and the run's elapsed time are the same for all and kept once),
	 * strategies and other words joined with " + ".
	 */
	static Map<String, Object> total(List<Map<String, Object>> instances) {
		Set<String> shared = Set.of("windowSeconds", "serverSeconds");
		Map<String, Object> total = new LinkedHashMap<>();
		for (Map<String, Object> instance : instances) {
			instance.forEach((key, value) -> total.merge(key, value, (a, b) -> {
				if (shared.contains(key)) {
					return a;
				}
				if (a instanceof Number x && b instanceof Number y) {
					double sum = x.doubleValue() + y.doubleValue();
					return (x instanceof Double || y instanceof Double) ? (Object) sum : (Object) Math.round(sum);
				}
				return a + " + " + b;
			}));
		}
		return total;
	}

	static void write(String file, Map<String, Object> counts) {
		try {
			Path path = Path.of(file);
			if (path.getParent() != null) {
				Files.createDirectories(path.getParent());
			}
			new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(path.toFile(), counts);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
