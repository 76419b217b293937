package io.github.qsbench.rest;

import static org.eclipse.jetty.util.thread.Invocable.InvocationType.NON_BLOCKING;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

import io.github.qsbench.core.AsyncCore;
import io.github.qsbench.http.ResumeInline;
import io.github.qsbench.http.SelectorRoute;
import io.github.qsbench.http.ServerRequestTimers;
import io.github.qsbench.http.SuspendedRequests;
import io.github.qsbench.rest.HotRoutes.Route;
import io.github.qsbench.security.RestTokens;
import io.micrometer.core.instrument.MeterRegistry;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectWriter;

import org.springframework.http.ResponseEntity;

/**
 * The hot routes ({@link HotRoutes}: push, poll, long poll, complete, the batches) as a
 * Jetty core handler in front of the servlet context, on the thread that read the
 * request: Jetty's selector parses a request, this handler answers it there and writes
 * the answer without blocking, so a request costs no hand-off to another thread and no
 * wake-up (the cost the profile in docs/request-path-profile.md put at a quarter of a
 * request on Tomcat). Where the store blocks (Redis), a push, a poll, a complete and the
 * batches of a plain or fair queue are each one call that the store answers without a
 * thread waiting ({@link HotRoutes#answersAsync}): sent from here, answered from the
 * store's thread (a long poll that finds nothing ready then waits from a request thread,
 * and the first push with a group to a queue this instance does not yet know to have
 * groups is made from one); the other hot routes there run on a request thread. Every
 * other request goes on to the servlet context (Spring MVC) on a request thread, a
 * virtual one where they are on.
 *
 * <p>
 * What it takes is what {@link MessageController} answers the same way
 * ({@link HotRequest#of}).
 *
 * <p>
 * Why it may run on the selector: the in-process core holds a strategy's lock for
 * microseconds and never waits for I/O (beanstalkd serves every request on its one thread
 * the same way); a long poll that waits returns at once and is answered later from the
 * thread that found its message ({@link HotRoutes.Waits}); a body is read without
 * blocking. It declares itself non-blocking, so Jetty runs the whole tree on the
 * selector, and hands the requests it does not take to {@link #requests}.
 */
final class HotRouteHandler extends Handler.Wrapper {

	private static final Logger logger = LoggerFactory.getLogger(HotRouteHandler.class);

	/** A push's query when it has none. */
	private static final PushQuery NO_PUSH_QUERY = new PushQuery(null, null);

	private final HotRoutes routes;

	private final HotAnswers answers;

	private final SuspendedRequests suspended;

	private final RestTokens tokens;

	/**
	 * Whether the store answers without blocking (in process), so the selector may run
	 * it.
	 */
	private final boolean inline;

	/** The other faces' routes answered on the selector, asked in order. */
	private final List<SelectorRoute> others;

	/** Per {@link Route}, by its ordinal. */
	private final ServerRequestTimers[] timers;

	/**
	 * Runs what may block: the servlet context's requests, and the hot routes on Redis.
	 */
	private Executor requests;

	HotRouteHandler(HotRoutes routes, ObjectWriter json, MeterRegistry registry, SuspendedRequests suspended,
			RestTokens tokens, boolean inline, List<SelectorRoute> others) {
		this.routes = routes;
		this.answers = new HotAnswers(json);
		this.suspended = suspended;
		this.tokens = tokens;
		this.inline = inline;
		this.others = others;
		Route[] table = Route.values();
		this.timers = new ServerRequestTimers[table.length];
		for (Route route : table) {
			this.timers[route.ordinal()] = new ServerRequestTimers(registry, route.method(), route.pattern());
		}
	}

	@Override
	protected void doStart() throws Exception {
		ThreadPool pool = getServer().getThreadPool();
		Executor virtual = VirtualThreads.getVirtualThreadsExecutor(pool);
		this.requests = (virtual != null) ? virtual : pool;
		super.doStart();
	}

	/**
	 * The selector may run this handler: what could block it is handed to
	 * {@link #requests}.
	 */
	@Override
	public InvocationType getInvocationType() {
		return NON_BLOCKING;
	}

	@Override
	public boolean handle(Request request, Response response, Callback callback) {
		long start = System.nanoTime();
		HotRequest hot = HotRequest.of(request, this.tokens);
		if (hot == null && this.inline) {
			for (SelectorRoute other : this.others) {
				if (other.handle(request, response, callback, start)) {
					return true;
				}
			}
		}
		if (hot == null) {
			onRequestThread(done -> servlets(request, response, done), request, response, callback);
		}
		else if (this.inline) {
			serve(hot, request, response, callback, start);
		}
		else if (servesAsync(hot, request)) {
			serveAsync(hot, request, response, callback, start);
		}
		else {
			onRequestThread(done -> serve(hot, request, response, done, start), request, response, callback);
		}
		return true;
	}

	/**
	 * Runs the task on a request thread (this one if it is one), with a callback that
	 * lets the request thread read the connection's next request itself
	 * ({@link ResumeInline}).
	 */
	private void onRequestThread(Consumer<Callback> task, Request request, Response response, Callback callback) {
		Callback resumeHere = new Callback() {

			@Override
			public void succeeded() {
				ResumeInline.completing(callback::succeeded);
			}

			@Override
			public void failed(Throwable failure) {
				callback.failed(failure);
			}

			@Override
			public InvocationType getInvocationType() {
				return callback.getInvocationType();
			}

		};
		if (ResumeInline.onRequestThread()) {
			task.accept(resumeHere);
			return;
		}
		try {
			this.requests.execute(() -> ResumeInline.onRequestThread(() -> task.accept(resumeHere)));
		}
		catch (RejectedExecutionException ex) {
			Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503);
		}
	}

	private void servlets(Request request, Response response, Callback callback) {
		try {
			if (!super.handle(request, response, callback)) {
				Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
			}
		}
		catch (Throwable failure) {
			Response.writeError(request, response, callback, failure);
		}
	}

	private void serve(HotRequest hot, Request request, Response response, Callback callback, long start) {
		ServerRequestTimers timers = this.timers[hot.route().ordinal()];
		try {
			switch (hot.route()) {
				case PUSH, PUSH_BATCH, COMPLETE_BATCH -> withBody(hot, request, response, callback, start, false);
				case POLL -> {
					PollQuery poll = hot.poll();
					ResponseEntity<?> answer = (poll != null)
							? this.routes.poll(hot.queue(), poll.max(), poll.waitSeconds(), poll.leaseSeconds(),
									(timeout, end) -> suspend(request, response, callback, start, timeout, end))
							: this.routes.poll(hot.queue(), null, null, null, null);
					if (answer != null) {
						this.answers.write(answer, response, callback, timers, start);
					}
				}
				case COMPLETE -> this.answers.write(
						this.routes.complete(hot.queue(), hot.id(), request.getHeaders().get(HttpHeader.IF_MATCH)),
						response, callback, timers, start);
			}
		}
		catch (RuntimeException ex) {
			this.answers.refuse(ex, request, response, callback, timers, start);
		}
	}

	/**
	 * Whether a request for a store that blocks (Redis) is served on this thread all the
	 * same: a push of a plain body without a delay (with a group or without), a poll (a
	 * long poll's first look), a complete or a batch of pushes or completions, each one
	 * call the store answers without a thread waiting (a fair queue's poll: a lease, then
	 * a release), on a queue that needs no more ({@link HotRoutes#answersAsync}).
	 */
	private boolean servesAsync(HotRequest hot, Request request) {
		boolean oneCall = switch (hot.route()) {
			case PUSH -> (hot.push() == null || hot.push().delaySeconds() == null)
					&& !HotRequest.isJson(request.getHeaders().get(HttpHeader.CONTENT_TYPE));
			case POLL, COMPLETE, PUSH_BATCH, COMPLETE_BATCH -> true;
		};
		return oneCall && this.routes.answersAsync(hot.queue());
	}

	/**
	 * Serves a request {@link #servesAsync} took: sends its call to the store and
	 * returns; the store's thread writes the answer.
	 */
	private void serveAsync(HotRequest hot, Request request, Response response, Callback callback, long start) {
		ServerRequestTimers timers = this.timers[hot.route().ordinal()];
		try {
			switch (hot.route()) {
				case PUSH, PUSH_BATCH, COMPLETE_BATCH -> withBody(hot, request, response, callback, start, true);
				case POLL -> pollAsync(hot, request, response, callback, timers, start);
				case COMPLETE -> whenAnswered(
						this.routes.completeAsync(hot.queue(), hot.id(), request.getHeaders().get(HttpHeader.IF_MATCH)),
						request, response, callback, timers, start);
			}
		}
		catch (RuntimeException ex) {
			this.answers.refuse(ex, request, response, callback, timers, start);
		}
	}

	/**
	 * Sends a poll and answers it as {@link #whenAnswered} does; a long poll that found
	 * nothing ready (no answer) waits as on the blocking path (which looks again first),
	 * from a request thread, since that path may call the store and wait.
	 */
	private void pollAsync(HotRequest hot, Request request, Response response, Callback callback,
			ServerRequestTimers timers, long start) {
		PollQuery poll = hot.poll();
		CompletableFuture<ResponseEntity<?>> answer = (poll != null)
				? this.routes.pollAsync(hot.queue(), poll.max(), poll.waitSeconds(), poll.leaseSeconds())
				: this.routes.pollAsync(hot.queue(), null, null, null);
		answer.whenComplete((entity, failure) -> {
			if (failure == null && entity == null) {
				onRequestThread(done -> serve(hot, request, response, done, start), request, response, callback);
			}
			else {
				answered(entity, failure, request, response, callback, timers, start);
			}
		});
	}

	/**
	 * Writes the answer, or the refusal, when the store completes the stage, on the
	 * thread that completes it, which then reads the connection's next request itself
	 * ({@link ResumeInline#answering}).
	 */
	private void whenAnswered(CompletableFuture<? extends ResponseEntity<?>> answer, Request request, Response response,
			Callback callback, ServerRequestTimers timers, long start) {
		answer.whenComplete((entity, failure) -> answered(entity, failure, request, response, callback, timers, start));
	}

	/** What {@link #whenAnswered} does with a stage's outcome. */
	private void answered(ResponseEntity<?> entity, Throwable failure, Request request, Response response,
			Callback callback, ServerRequestTimers timers, long start) {
		ResumeInline.answering(() -> {
			RuntimeException refusal = null;
			if (failure == null) {
				try {
					this.answers.write(entity, response, callback, timers, start);
				}
				catch (RuntimeException ex) {
					refusal = ex;
				}
			}
			else {
				Throwable cause = AsyncCore.cause(failure);
				refusal = (cause instanceof RuntimeException ex) ? ex : new CompletionException(cause);
			}
			if (refusal != null) {
				this.answers.refuse(refusal, request, response, callback, timers, start);
			}
		});
	}

	/**
	 * Reads the body without blocking (at once when it came with the headers, else when
	 * the rest arrives, on the selector again) and answers with what {@code route} makes
	 * of it. A body declared longer than a message of the queue may be goes to the
	 * controller on a request thread: it refuses a push so large (a JSON push or a batch
	 * may be larger, and is parsed there, off the selector).
	 */
	private void withBody(HotRequest hot, Request request, Response response, Callback callback, long start,
			boolean async) {
		int max = this.routes.maxMessageBytes(hot.queue());
		ServerRequestTimers timers = this.timers[hot.route().ordinal()];
		if (request.getLength() > max) {
			// refused by the controller, whose filters read and drop the body so the
			// connection serves the client's next request (RefusedBodyDrain)
			onRequestThread(done -> servlets(request, response, done), request, response, callback);
			return;
		}
		// where the store blocks (Redis), a body that arrives after the headers is
		// answered on a request thread, not on the selector that reads it, unless its
		// answer waits for nothing
		InvocationType answering = (this.inline || async) ? NON_BLOCKING : InvocationType.BLOCKING;
		Content.Source.asByteArrayAsync(request, max, Promise.Invocable.from(answering, (bytes, failure) -> {
			if (failure != null) {
				logger.debug("Failed to read a request's body", failure);
				timers.recordFailure(failure, start);
				Response.writeError(request, response, callback, failure);
				return;
			}
			String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
			if (!async) {
				answerNow(hot, contentType, bytes, max, request, response, callback, timers, start);
				return;
			}
			CompletableFuture<? extends ResponseEntity<?>> answer;
			try {
				answer = answerAsync(hot, contentType, bytes, max);
			}
			catch (RuntimeException ex) {
				this.answers.refuse(ex, request, response, callback, timers, start);
				return;
			}
			if (answer != null) {
				whenAnswered(answer, request, response, callback, timers, start);
			}
			else {
				onRequestThread(done -> answerNow(hot, contentType, bytes, max, request, response, done, timers, start),
						request, response, callback);
			}
		}));
	}

	/**
	 * The answer of a route that carries a body, read whole, sent to the store without a
	 * thread waiting; {@code null} when the route needs the blocking path after all (a
	 * push with a group to a queue not yet known to have groups).
	 */
	private CompletableFuture<? extends ResponseEntity<?>> answerAsync(HotRequest hot, String contentType, byte[] body,
			int max) {
		try {
			return switch (hot.route()) {
				case PUSH -> this.routes.pushAsync(hot.queue(),
						(hot.push() != null) ? RequestValidation.group(hot.push().group()) : null,
						RequestValidation.body(body, max, contentType));
				case PUSH_BATCH -> this.routes.pushBatchAsync(hot.queue(), body);
				case COMPLETE_BATCH -> this.routes.completeBatchAsync(hot.queue(), body);
				case POLL, COMPLETE -> throw new IllegalStateException(hot.route() + " carries no body");
			};
		}
		catch (IOException ex) {
			// the body is in memory: a parse error's IOException
			throw new UncheckedIOException(ex);
		}
	}

	/** Writes {@link #answer}, or the refusal, on a thread that may wait. */
	private void answerNow(HotRequest hot, String contentType, byte[] body, int max, Request request, Response response,
			Callback callback, ServerRequestTimers timers, long start) {
		try {
			this.answers.write(answer(hot, contentType, body, max), response, callback, timers, start);
		}
		catch (IOException ex) {
			this.answers.refuse(new UncheckedIOException(ex), request, response, callback, timers, start);
		}
		catch (RuntimeException ex) {
			this.answers.refuse(ex, request, response, callback, timers, start);
		}
	}

	/**
	 * The answer of a route that carries a body, read whole.
	 * @param max the most bytes a message of the queue may have
	 * @throws IOException never: the body is in memory
	 */
	private ResponseEntity<?> answer(HotRequest hot, String contentType, byte[] body, int max) throws IOException {
		PushQuery push = (hot.push() != null) ? hot.push() : NO_PUSH_QUERY;
		return switch (hot.route()) {
			case PUSH -> HotRequest.isJson(contentType)
					? this.routes.pushJson(hot.queue(), push.delaySeconds(), push.group(),
							new ByteArrayInputStream(body), body.length)
					: this.routes.push(hot.queue(), push.delaySeconds(), RequestValidation.group(push.group()),
							RequestValidation.body(body, max, contentType));
			case PUSH_BATCH -> this.routes.pushBatch(hot.queue(), null, new ByteArrayInputStream(body), body.length);
			case COMPLETE_BATCH -> this.routes.completeBatch(hot.queue(), new ByteArrayInputStream(body), body.length);
			case POLL, COMPLETE -> throw new IllegalStateException(hot.route() + " carries no body");
		};
	}

	/**
	 * Suspends a long poll: the handler has returned, Jetty holds the request until the
	 * callback completes, and the answer is written from the thread that finds it (a
	 * push's, the wait's timer), as {@link SuspendedRequests#suspend} sets out.
	 */
	private Consumer<ResponseEntity<?>> suspend(Request request, Response response, Callback callback, long start,
			Duration timeout, Runnable end) {
		ServerRequestTimers timers = this.timers[Route.POLL.ordinal()];
		return this.suspended.suspend(request, callback, timeout, end,
				(answer, done) -> this.answers.write(answer, response, done, timers, start));
	}

}
