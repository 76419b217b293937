package io.github.qsbench.rest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import io.github.qsbench.security.RestToken;
import io.github.qsbench.security.RestTokens;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;

/**
 * Asks every HTTP request but the SQS face's for a bearer token
 * ({@code qs.security.rest.tokens}), ahead of every other filter: the REST API, the live
 * page's data ({@code /live/events}), the OpenAPI description and the actuator endpoints.
 * Open: health ({@code /actuator/health}, for probes), the live page's shell (its HTML,
 * script and style, which hold no data) and CORS preflights; the SQS face's requests
 * ({@code /} and the queue URLs' paths) are its own to check, by signature
 * ({@code qs.security.sigv4}).
 *
 * <p>
 * A read-only token reads: {@code GET} and {@code HEAD}, except a poll ({@code GET} of a
 * queue's messages without {@code peek}), which leases a message and so changes the
 * queue. No token, or an unknown one: 401; a read-only token asking for a change: 403;
 * both problem+json with a {@code WWW-Authenticate: Bearer} challenge. The event stream
 * may carry its token as {@code ?access_token=}, since a browser's {@code EventSource}
 * sends no header. Registered only when tokens are configured, so an unconfigured
 * service's requests never pass it.
 */
final class BearerTokenFilter extends HttpFilter {

	private static final String REALM = "Bearer realm=\"queue-service\"";

	private static final String EVENTS = "/live/events";

	/** A queue URL's path: the SQS face's, which the face checks itself. */
	private static final Pattern QUEUE_URL_PATH = Pattern.compile("/[0-9]{12}/.*");

	private static final Pattern POLL = Pattern.compile(Routes.QUEUES + "/[^/]+" + Routes.MESSAGES_SEGMENT);

	private final RestTokens tokens;

	BearerTokenFilter(RestTokens tokens) {
		this.tokens = tokens;
	}

	@Override
	protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (isOpen(request)) {
			chain.doFilter(request, response);
			return;
		}
		String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
		RestToken.Scope scope = this.tokens.scope(authorization);
		if (scope == null && authorization == null && EVENTS.equals(request.getRequestURI())) {
			scope = this.tokens.scopeOfToken(request.getParameter("access_token"));
		}
		if (scope == null) {
			boolean presented = authorization != null;
			refuse(response, 401, presented ? REALM + ", error=\"invalid_token\"" : REALM,
					presented ? "The bearer token is not one this service accepts."
							: "This service asks for a bearer token: Authorization: Bearer <token>.");
			return;
		}
		if (scope == RestToken.Scope.READ_ONLY && !isRead(request)) {
			refuse(response, 403, REALM + ", error=\"insufficient_scope\"",
					"The token is read-only: it may list, browse and read metrics, not change or lease.");
			return;
		}
		chain.doFilter(request, response);
	}

	private static boolean isOpen(HttpServletRequest request) {
		String method = request.getMethod();
		String path = request.getRequestURI();
		if ("OPTIONS".equals(method) || path.equals("/actuator/health") || path.startsWith("/actuator/health/")) {
			return true;
		}
		if ("/".equals(path) || QUEUE_URL_PATH.matcher(path).matches()) {
			// the SQS face's, or the live page's shell
			return true;
		}
		return isRead(method) && (path.equals("/index.html") || path.equals("/live/live.js")
				|| path.equals("/live/queues.js") || path.equals("/live/compare.js") || path.equals("/live/live.css")
				|| path.equals("/live/compare.css") || path.equals("/favicon.ico") || path.startsWith("/webjars/"));
	}

	private static boolean isRead(HttpServletRequest request) {
		if (!isRead(request.getMethod())) {
			return false;
		}
		return !("GET".equals(request.getMethod()) && POLL.matcher(request.getRequestURI()).matches()
				&& request.getParameter("peek") == null);
	}

	private static boolean isRead(String method) {
		return "GET".equals(method) || "HEAD".equals(method);
	}

	/** A problem+json refusal; its text names no token. */
	private static void refuse(HttpServletResponse response, int status, String challenge, String detail)
			throws IOException {
		response.setStatus(status);
		response.setHeader(HttpHeaders.WWW_AUTHENTICATE, challenge);
		response.setContentType("application/problem+json");
		String title = (status == 401) ? "Unauthorized" : "Forbidden";
		byte[] body = ("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status + ",\"detail\":\""
				+ detail + "\"}")
			.getBytes(StandardCharsets.UTF_8);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

}
