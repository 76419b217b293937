package io.github.qsbench.sqs;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * SQS's batches: their entries, and the answer of an entry that failed. Each entry is
 * answered on its own in {@code Successful} or {@code Failed}; a queue that does not
 * exist fails the whole request.
 */
final class Batches {

	/** Entries a batch may carry, and messages a receive may deliver, as in SQS. */
	static final int MAX_ENTRIES = 10;

	/** What SQS allows as a batch entry's id. */
	private static final Pattern ENTRY_ID = Pattern.compile("[A-Za-z0-9_-]{1,80}");

	private Batches() {
	}

	/**
	 * A batch's {@code Entries}: 1 to {@value #MAX_ENTRIES}, each with its own valid
	 * {@code Id}.
	 * @throws SqsException for anything else, failing the whole request
	 */
	static List<SqsRequest> entries(SqsRequest request) {
		List<SqsRequest> entries = request.entries("Entries");
		if (entries.isEmpty()) {
			throw SqsError.EMPTY_BATCH_REQUEST.exception("There should be at least one entry in the request.");
		}
		if (entries.size() > MAX_ENTRIES) {
			throw SqsError.TOO_MANY_ENTRIES_IN_BATCH_REQUEST.exception("Maximum number of entries per request are "
					+ MAX_ENTRIES + ". You have sent " + entries.size() + ".");
		}
		Set<String> ids = new HashSet<>();
		for (SqsRequest entry : entries) {
			String id = entry.required("Id");
			if (!ENTRY_ID.matcher(id).matches()) {
				throw SqsError.INVALID_BATCH_ENTRY_ID.exception("A batch entry id can only contain alphanumeric "
						+ "characters, hyphens and underscores. It can be at most 80 letters long.");
			}
			if (!ids.add(id)) {
				throw SqsError.BATCH_ENTRY_IDS_NOT_DISTINCT.exception("Id " + id + " repeated.");
			}
		}
		return entries;
	}

	/** A batch's answer: each entry in {@code Successful} or in {@code Failed}. */
	static final class Answer {

		private final ObjectNode answer = JsonNodeFactory.instance.objectNode();

		private final ArrayNode successful = this.answer.putArray("Successful");

		private final ArrayNode failed = this.answer.putArray("Failed");

		/** Answers the entry {@code id} in {@code Successful}, for more members. */
		ObjectNode succeeded(String id) {
			return this.successful.addObject().put("Id", id);
		}

		/** Answers the entry {@code id} in {@code Failed}, as {@code ex} says. */
		void failed(String id, SqsException ex) {
			this.failed.addObject()
				.put("Id", id)
				.put("SenderFault", true)
				.put("Code", ex.error().code())
				.put("Message", ex.getMessage());
		}

		/**
		 * As {@link #failed}, unless the queue does not exist: that fails the whole
		 * request, as in SQS.
		 * @throws SqsException {@code ex}, if the queue does not exist
		 */
		void failedUnlessQueueGone(String id, SqsException ex) {
			if (ex.error() == SqsError.QUEUE_DOES_NOT_EXIST) {
				throw ex;
			}
			failed(id, ex);
		}

		ObjectNode json() {
			return this.answer;
		}

	}

}
