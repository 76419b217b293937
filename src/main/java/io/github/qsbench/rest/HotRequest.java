package io.github.qsbench.rest;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.rest.HotRoutes.Route;
import io.github.qsbench.security.RestToken;
import io.github.qsbench.security.RestTokens;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

import org.springframework.http.MediaType;

/**
 * A request {@link HotRouteHandler} takes: its route and what its path and query name,
 * matched by hand. It takes what {@link MessageController} answers the same way: a push,
 * plain or in JSON form, with at most a plain {@code group} and {@code delay}
 * ({@link PushQuery}), and a batch of pushes or of completions in JSON with no query,
 * each with a {@code Content-Length} (the handler sends a body longer than the queue's
 * largest message to a request thread); a poll with at most {@code max}, {@code wait} and
 * {@code lease} as plain digits ({@link PollQuery}); a complete; with valid names and ids
 * as raw path segments, from a client that takes JSON without negotiation and, where the
 * REST API asks for bearer tokens, presents a read-write one (any other is refused by the
 * servlet path's filter).
 */
record HotRequest(Route route, String queue, long id, PollQuery poll, PushQuery push) {

	private static final String QUEUES = Routes.QUEUES + "/";

	private static final String MESSAGES = Routes.MESSAGES_SEGMENT;

	/**
	 * The request as a hot route, with what it names, or {@code null} for one the handler
	 * leaves to Spring MVC.
	 * @param tokens the REST API's bearer tokens, if it asks for them
	 */
	static HotRequest of(Request request, RestTokens tokens) {
		String path = request.getHttpURI().getPath();
		if (path == null || !path.startsWith(QUEUES) || !plainAccept(request.getHeaders())) {
			return null;
		}
		int nameStart = QUEUES.length();
		int nameEnd = path.indexOf('/', nameStart);
		if (nameEnd < 0 || !path.startsWith(MESSAGES, nameEnd)) {
			return null;
		}
		int tailStart = nameEnd + MESSAGES.length();
		Route route = (tailStart == path.length() || path.charAt(tailStart) == '/')
				? Route.match(request.getMethod(), path, tailStart) : null;
		if (route == null) {
			return null;
		}
		HttpFields headers = request.getHeaders();
		String query = request.getHttpURI().getQuery();
		PollQuery poll = (query != null && route == Route.POLL) ? PollQuery.parse(query) : null;
		PushQuery push = (query != null && route == Route.PUSH) ? PushQuery.parse(query) : null;
		if ((query != null && poll == null && push == null) || headers.contains(HttpHeader.IF_NONE_MATCH)
				|| headers.contains(HttpHeader.IF_MODIFIED_SINCE) || !mayChange(headers, tokens)) {
			return null;
		}
		if (route.carriesBody() && (request.getLength() <= 0 || headers.contains(HttpHeader.TRANSFER_ENCODING)
				|| !takenAs(route, headers.get(HttpHeader.CONTENT_TYPE)))) {
			// an empty body, one of unknown length, a batch that is not JSON (415) or a
			// content type Spring MVC would not parse: the controller's
			return null;
		}
		String queue = path.substring(nameStart, nameEnd);
		long id = route.namesMessage() ? RequestValidation.parseMessageId(path.substring(tailStart + 1)) : 0;
		if (!QueueNames.isQueueName(queue) || id < 0) {
			return null;
		}
		return new HotRequest(route, queue, id, poll, push);
	}

	/**
	 * Whether the request may change a queue (every hot route does: a poll leases):
	 * always, unless the REST API asks for bearer tokens and the request presents no
	 * read-write one, which the servlet path's filter then refuses.
	 */
	private static boolean mayChange(HttpFields headers, RestTokens tokens) {
		return !tokens.required() || tokens.scope(headers.get(HttpHeader.AUTHORIZATION)) == RestToken.Scope.READ_WRITE;
	}

	/**
	 * Whether the client takes what the API produces without negotiation: JSON for an
	 * answer, problem+json for an error.
	 */
	private static boolean plainAccept(HttpFields headers) {
		String accept = headers.get(HttpHeader.ACCEPT);
		return accept == null || accept.equals("*/*") || accept.equals("application/json");
	}

	/**
	 * Whether the body is a push's JSON form: {@code application/json}, with parameters
	 * or none, as the controller's {@code consumes} matches it.
	 */
	static boolean isJson(String contentType) {
		int length = MediaType.APPLICATION_JSON_VALUE.length();
		if (contentType == null || !contentType.regionMatches(true, 0, MediaType.APPLICATION_JSON_VALUE, 0, length)) {
			return false;
		}
		if (contentType.length() == length) {
			return true;
		}
		char next = contentType.charAt(length);
		return next == ';' || next == ' ' || next == '\t';
	}

	/**
	 * Whether a body of this content type is taken on {@code route}: a push of any (its
	 * charset checked as it is read), a JSON form or a batch only as
	 * {@code application/json} whose parameters parse, since Spring MVC's
	 * {@code consumes} does not match a malformed one (a JSON push then goes to the plain
	 * push, which refuses its charset; a batch is refused 415).
	 */
	private static boolean takenAs(Route route, String contentType) {
		if (!isJson(contentType)) {
			return route == Route.PUSH;
		}
		if (contentType.length() == MediaType.APPLICATION_JSON_VALUE.length()) {
			return true; // no parameters: nothing to parse
		}
		try {
			RequestValidation.charset(contentType);
			return true;
		}
		catch (ApiProblem ex) { // 415: malformed, or an unknown charset
			return false;
		}
	}

}
