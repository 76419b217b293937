package io.github.qsbench.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's history: every operation every client recorded, in the load client's line
 * format ({@code scripts/faults/HistoryLoad.java} documents it), read from any number of
 * files (one per client process; their times share the machine's monotonic clock).
 *
 * @param operations every line, in file order
 */
public record History(List<Operation> operations) {

	private static final JsonMapper JSON = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	public History {
		operations = List.copyOf(operations);
	}

	/** Reads the files' lines (blank lines skipped). */
	public static History read(List<Path> files) {
		List<Operation> operations = new ArrayList<>();
		for (Path file : files) {
			try {
				operations.addAll(parse(Files.readString(file)).operations());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return new History(operations);
	}

	/** Reads JSON lines. */
	public static History parse(String lines) {
		List<Operation> operations = new ArrayList<>();
		for (String line : lines.split("\n")) {
			if (!line.isBlank()) {
				operations.add(JSON.readValue(line, Operation.class));
			}
		}
		return new History(operations);
	}

	/**
	 * One operation: who made it, on which face, what it was, when it was invoked and
	 * returned (nanoseconds of the machine's monotonic clock) and what came back. Fields
	 * that an operation does not have are {@code null}.
	 *
	 * @param client the client (process and thread) that made it
	 * @param face {@code rest} or {@code sqs}
	 * @param queue the queue it named
	 * @param op {@code push}, {@code push-batch}, {@code poll}, {@code complete},
	 * {@code complete-batch}, {@code change-lease}, {@code move} (a message move task
	 * started) or {@code move-status} (its status read)
	 * @param invoke when the request was sent
	 * @param returned when its answer (or its failure) came back
	 * @param result {@code ok}, {@code empty}, {@code stale}, {@code not-found},
	 * {@code refused}, {@code fail} or {@code indeterminate}
	 * @param values a push's unique values
	 * @param ids the ids an acknowledged push got, in the order of its values
	 * @param deliveries what a poll got
	 * @param id a completion's or lease change's message
	 * @param lease a completion's or lease change's lease token
	 * @param seconds a lease change's new lease
	 * @param entries a completion batch's entries, each with its own result
	 * @param group a FIFO push's message group
	 * @param destination a message move task's destination ({@code move}; its source is
	 * {@code queue})
	 * @param status a move task's status as read ({@code move-status}: {@code RUNNING},
	 * {@code COMPLETED}, {@code FAILED}, ...)
	 * @param moved how many messages the task had moved when its status was read
	 * @param toMove how many it was to move
	 */
	public record Operation(String client, String face, String queue, String op, long invoke,
			@JsonProperty("return") long returned, String result, List<String> values, List<Long> ids,
			List<Delivered> deliveries, Long id, String lease, Integer seconds, List<Entry> entries, String group,
			String destination, String status, Long moved, Long toMove) {

		/**
		 * Whether the service answered as it does when it serves: success, an empty poll,
		 * a stale or unknown lease, a push refused for a cap. Not: no answer, a
		 * connection refused, another refusal.
		 */
		boolean answered() {
			return switch (this.result) {
				case "ok", "empty", "stale", "not-found", "refused" -> true;
				default -> false;
			};
		}

		/**
		 * Whether a completion acknowledged on this face may have done nothing: SQS
		 * answers success to a {@code DeleteMessage} of a message deleted already.
		 */
		boolean idempotentCompletion() {
			return "sqs".equals(this.face);
		}

	}

	/**
	 * A delivery a poll got.
	 *
	 * @param id the message's id
	 * @param value the unique value its body carries
	 * @param delivery its delivery number
	 * @param lease its lease token
	 * @param leaseMs the lease the poll asked for
	 * @param leaseFrom the earliest its lease can have started: the poll's invoke time
	 */
	public record Delivered(long id, String value, long delivery, String lease, long leaseMs, long leaseFrom) {

		/** The earliest its lease can end, unless changed. */
		long leaseEnd() {
			return this.leaseFrom + this.leaseMs * 1_000_000L;
		}

	}

	/** A completion batch's entry: the message and lease it named, and its result. */
	public record Entry(long id, String lease, String result) {

	}

}
