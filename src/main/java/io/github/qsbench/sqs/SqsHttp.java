package io.github.qsbench.sqs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * What the SQS face reads of an HTTP request beside its body: what a signature covers,
 * where a policy's conditions look, and the origin the queue URLs answered are built on.
 * Read from a servlet request ({@link SqsFace}) or from a Jetty request served on the
 * selector ({@link SqsSelectorRoute}), so that both answer alike.
 */
interface SqsHttp {

	String method();

	/** The path, as sent (not decoded). */
	String path();

	/** The query string, or {@code null}. */
	String query();

	/** Every header, by its name in lower case, in the order they came. */
	Map<String, List<String>> headers();

	/** {@code scheme://host[:port]}, as the client addressed this service. */
	String origin();

	/** The client's address in literal form. */
	String remoteAddress();

	boolean secure();

	static SqsHttp of(HttpServletRequest request) {
		return new SqsHttp() {

			@Override
			public String method() {
				return request.getMethod();
			}

			@Override
			public String path() {
				return request.getRequestURI();
			}

			@Override
			public String query() {
				return request.getQueryString();
			}

			@Override
			public Map<String, List<String>> headers() {
				Map<String, List<String>> headers = new LinkedHashMap<>();
				for (String name : Collections.list(request.getHeaderNames())) {
					headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), key -> new ArrayList<>())
						.addAll(Collections.list(request.getHeaders(name)));
				}
				return headers;
			}

			@Override
			public String origin() {
				String host = request.getHeader("Host");
				if (host == null || host.isEmpty()) {
					host = request.getServerName() + ":" + request.getServerPort();
				}
				return request.getScheme() + "://" + host;
			}

			@Override
			public String remoteAddress() {
				return request.getRemoteAddr();
			}

			@Override
			public boolean secure() {
				return request.isSecure();
			}

		};
	}

	static SqsHttp of(Request request) {
		return new SqsHttp() {

			@Override
			public String method() {
				return request.getMethod();
			}

			@Override
			public String path() {
				return request.getHttpURI().getPath();
			}

			@Override
			public String query() {
				return request.getHttpURI().getQuery();
			}

			@Override
			public Map<String, List<String>> headers() {
				Map<String, List<String>> headers = new LinkedHashMap<>();
				for (HttpField field : request.getHeaders()) {
					headers.computeIfAbsent(field.getLowerCaseName(), key -> new ArrayList<>()).add(field.getValue());
				}
				return headers;
			}

			@Override
			public String origin() {
				String host = request.getHeaders().get(HttpHeader.HOST);
				if (host == null || host.isEmpty()) {
					host = Request.getServerName(request) + ":" + Request.getServerPort(request);
				}
				return request.getHttpURI().getScheme() + "://" + host;
			}

			@Override
			public String remoteAddress() {
				return Request.getRemoteAddr(request);
			}

			@Override
			public boolean secure() {
				return request.isSecure();
			}

		};
	}

}
