package io.github.qsbench.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import org.springframework.http.HttpStatus;

/**
 * Jetty's error answer for requests it refuses before any servlet runs (a request line or
 * header over the limit, a malformed percent-encoding or URI): problem+json with the
 * status Jetty chose, in place of its HTML page, whatever the client accepts, and never
 * exception text or Jetty's reason. A request line or headers over the limit are
 * {@code 400}, as the API documents (and as Tomcat answered), not Jetty's {@code 414} and
 * {@code 431}.
 */
public class ProblemErrorHandler extends ErrorHandler {

	static final String DETAIL = "The request was rejected before it reached the queue API.";

	public ProblemErrorHandler() {
		setShowStacks(false);
		setShowCauses(false);
		setShowMessageInTitle(false);
		setShowOrigin(false);
	}

	@Override
	public boolean errorPageForMethod(String method) {
		return true; // a refused PUT gets its problem too
	}

	@Override
	protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
			Callback callback) {
		int status = (code == HttpStatus.URI_TOO_LONG.value()
				|| code == HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE.value()) ? HttpStatus.BAD_REQUEST.value() : code;
		response.setStatus(status);
		HttpStatus known = HttpStatus.resolve(status);
		String title = (known != null) ? known.getReasonPhrase() : "Error";
		String body = "{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status + ",\"detail\":\""
				+ DETAIL + "\"}";
		// JSON is UTF-8 by definition and this body is ASCII: no charset parameter, as
		// Spring's problems
		response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/problem+json");
		response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.US_ASCII)), callback);
	}

}
