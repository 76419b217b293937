package io.github.qsbench.http;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * HTTP settings Jetty (or Spring Boot for Jetty) has no property for, under
 * {@code qs.http.*}.
 *
 * @param requestHeaderTimeout the longest time from the first byte of a request to the
 * end of its headers, whatever pace the bytes come at; zero switches it off (see
 * {@link RequestHeaderDeadlineConnectionFactory})
 * @param acceptQueueSize connections the kernel queues once
 * {@code server.jetty.max-connections} are open (the listen backlog); beyond it they are
 * refused
 */
@ConfigurationProperties("qs.http")
public record HttpProperties(@DefaultValue("10s") Duration requestHeaderTimeout,
		@DefaultValue("100") int acceptQueueSize) {

	public HttpProperties {
		if (requestHeaderTimeout.isNegative()) {
			throw new IllegalArgumentException(
					"qs.http.request-header-timeout must not be negative, was " + requestHeaderTimeout);
		}
		if (acceptQueueSize < 0) {
			throw new IllegalArgumentException(
					"qs.http.accept-queue-size must not be negative, was " + acceptQueueSize);
		}
	}

}
