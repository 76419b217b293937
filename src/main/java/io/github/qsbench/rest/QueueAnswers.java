package io.github.qsbench.rest;

import java.io.IOException;
import java.util.List;

import io.github.qsbench.application.Received;
import io.github.qsbench.application.Sent;
import io.github.qsbench.core.ByIdOutcome;
import io.github.qsbench.core.Completion;
import io.github.qsbench.rest.MessageResponses.Delivered;
import io.github.qsbench.rest.MessageResponses.DeliveredBatch;
import io.github.qsbench.rest.MessageResponses.Pushed;
import io.github.qsbench.rest.MessageResponses.PushedBatch;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.ObjectWriter;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The REST API's answers to what the queue operations returned, for both of its adapters
 * ({@link MessageController} through Spring MVC, {@link HotRouteHandler} ahead of it), so
 * that they answer alike.
 */
final class QueueAnswers {

	private QueueAnswers() {
	}

	static ResponseEntity<Pushed> pushed(String queue, Sent message) {
		// a plain header: a valid name and an id need no escaping, and parsing a URI per
		// push costs more than the push
		return ResponseEntity.status(HttpStatus.CREATED)
			.header(HttpHeaders.LOCATION, Routes.message(queue, message.id()))
			.body(Pushed.of(queue, message));
	}

	static ResponseEntity<PushedBatch> pushed(String queue, List<Sent> messages) {
		return ResponseEntity.status(HttpStatus.CREATED).body(PushedBatch.of(queue, messages));
	}

	/**
	 * The answer to a poll: 204 if nothing was leased, else the messages (or, for a poll
	 * without {@code max}, the one message with its lease as ETag). Never stored by a
	 * cache: a poll changes what the next one answers, and a cache revalidating a stored
	 * poll (If-None-Match) could be answered 304 for another message whose lease token
	 * happens to be the same.
	 */
	static ResponseEntity<?> polled(String queue, List<Received> leases, boolean batch) {
		if (leases.isEmpty()) {
			return ResponseEntity.noContent().cacheControl(CacheControl.noStore()).build();
		}
		if (batch) {
			return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(DeliveredBatch.of(queue, leases));
		}
		Received lease = leases.get(0);
		return ResponseEntity.ok()
			.cacheControl(CacheControl.noStore())
			.eTag(LeaseETags.etag(lease.lease()))
			.body(Delivered.of(queue, lease));
	}

	/**
	 * The answer to a {@code DELETE} of one message: 204, or the problem that says why
	 * not.
	 * @throws ApiProblem 404, 409 or 412
	 */
	static ResponseEntity<Void> completed(String queue, long id, Completion completion) {
		return switch (completion) {
			case COMPLETED -> ResponseEntity.noContent().build();
			case NOT_FOUND -> throw noSuchMessage(queue, id);
			case NOT_DELIVERED -> throw notDelivered(id, "completed");
			case STALE_LEASE -> throw staleLease(id, "completes");
		};
	}

	/**
	 * The answer to a {@code PATCH} of one message's lease: 204, or the problem that says
	 * why not, as for a completion.
	 * @throws ApiProblem 404, 409 or 412
	 */
	static ResponseEntity<Void> leaseChanged(String queue, long id, ByIdOutcome change) {
		return switch (change) {
			case DONE -> ResponseEntity.noContent().build();
			case NOT_FOUND -> throw noSuchMessage(queue, id);
			case NOT_DELIVERED -> throw notDelivered(id, "given a lease");
			case STALE_LEASE -> throw staleLease(id, "holds its lease");
		};
	}

	private static ApiProblem noSuchMessage(String queue, long id) {
		return ApiProblem.notFound("No such message",
				"Queue '" + queue + "' holds no message " + id + ": it never existed there or was completed already.");
	}

	private static ApiProblem notDelivered(long id, String what) {
		return ApiProblem.conflict("Message not delivered",
				"Message " + id + " has not been polled yet; only a delivered message can be " + what + ".");
	}

	private static ApiProblem staleLease(long id, String what) {
		return ApiProblem.preconditionFailed("Lease no longer current", "Message " + id
				+ " was delivered again after the lease named in If-Match lapsed (or is being delivered again now); "
				+ "its new holder " + what + ".");
	}

	/**
	 * Writes an answer as Spring MVC would (status, headers, the body as JSON), for a
	 * long poll's answer written on its async dispatch.
	 */
	static void write(ResponseEntity<?> answer, HttpServletResponse response, ObjectWriter json) throws IOException {
		response.setStatus(answer.getStatusCode().value());
		answer.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
		Object body = answer.getBody();
		if (body != null) {
			response.setContentType(MediaType.APPLICATION_JSON_VALUE);
			json.writeValue(response.getOutputStream(), body);
		}
	}

}
