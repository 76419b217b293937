package io.github.qsbench.web;

import org.apache.tomcat.util.buf.EncodedSolidusHandling;

import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Servlet-container settings that decide which requests reach the API's own validation. */
@Configuration(proxyBeanMethods = false)
class ContainerConfiguration {

	/**
	 * Tomcat rejects an encoded slash ({@code %2F}) in the path with an HTML page before any
	 * controller sees it. Passing it through (still encoded, so it never splits a path segment) lets
	 * the queue-name check refuse it with a problem+json answer like any other bad name.
	 */
	@Bean
	TomcatConnectorCustomizer encodedSlashPassThrough() {
		return connector -> connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
	}

}
