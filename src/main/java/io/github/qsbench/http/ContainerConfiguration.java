package io.github.qsbench.http;

import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;

import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.TomcatProtocolHandlerCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Servlet-container settings: every request, even one Tomcat refuses, gets a problem+json
 * answer; no request body is read as parameters; request headers have a deadline.
 */
@Configuration(proxyBeanMethods = false)
class ContainerConfiguration {

	/**
	 * Tomcat rejects an encoded slash ({@code %2F}) in the path with an HTML page before
	 * any controller sees it. Passing it through (still encoded, so it never splits a
	 * path segment) lets the queue-name check refuse it with a problem+json answer like
	 * any other bad name.
	 */
	@Bean
	TomcatConnectorCustomizer encodedSlashPassThrough() {
		return connector -> connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
	}

	/**
	 * No request body is ever read as parameters: Tomcat would read a {@code POST}'s
	 * {@code application/x-www-form-urlencoded} body (curl's default content type) as
	 * parameters as soon as anything asks for one (Spring MVC binding a query parameter),
	 * leaving the push an empty body. Parameters come from the query string only, so a
	 * push is the bytes of its body whatever its query and whichever path serves it.
	 */
	@Bean
	TomcatConnectorCustomizer noBodyParameters() {
		return connector -> connector.setParseBodyMethods("");
	}

	/**
	 * Tomcat's HTTP/1.1 NIO connector plus a deadline for the request line and headers
	 * ({@code qs.http.request-header-timeout}), so that clients trickling header bytes
	 * cannot hold every connection; see {@link RequestHeaderDeadlineProtocol}.
	 */
	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> requestHeaderDeadline(HttpProperties properties) {
		return factory -> {
			factory.setProtocol(RequestHeaderDeadlineProtocol.class.getName());
			factory.addProtocolHandlerCustomizers(
					(TomcatProtocolHandlerCustomizer<RequestHeaderDeadlineProtocol>) (protocol) -> protocol
						.setRequestHeaderTimeout(properties.requestHeaderTimeout().toMillis()));
		};
	}

	@Bean
	ProblemErrorReports problemErrorReports() {
		return new ProblemErrorReports();
	}

	/**
	 * Replaces the host's error report valve with {@link ProblemErrorReportValve}. Runs
	 * after Spring Boot's own customizer, which adds an HTML one, and names the class on
	 * the host so Tomcat does not add its default at start-up.
	 */
	static final class ProblemErrorReports
			implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

		@Override
		public void customize(TomcatServletWebServerFactory factory) {
			factory.addContextCustomizers(context -> {
				StandardHost host = (StandardHost) context.getParent();
				Pipeline pipeline = host.getPipeline();
				for (Valve valve : pipeline.getValves()) {
					if (valve instanceof ErrorReportValve) {
						pipeline.removeValve(valve);
					}
				}
				pipeline.addValve(new ProblemErrorReportValve());
				host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
			});
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}
