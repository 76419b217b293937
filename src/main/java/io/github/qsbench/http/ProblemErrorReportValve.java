package io.github.qsbench.http;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import org.springframework.http.HttpStatus;

/**
 * Tomcat's error report for requests it refuses before any servlet runs (a request line
 * or header over the limit, a malformed percent-encoding): problem+json with the status
 * Tomcat chose, in place of its HTML page, and never exception text.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	static final String DETAIL = "The request was rejected before it reached the queue API.";

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		AtomicBoolean ioAllowed = new AtomicBoolean();
		response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
		if (!ioAllowed.get()) {
			return;
		}
		HttpStatus known = HttpStatus.resolve(status);
		String title = (known != null) ? known.getReasonPhrase() : "Error";
		try {
			// JSON is UTF-8 by definition and this body is ASCII: no charset parameter,
			// as Spring's problems
			response.setContentType("application/problem+json");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status
						+ ",\"detail\":\"" + DETAIL + "\"}");
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the client is gone: nobody to report to
		}
	}

}
