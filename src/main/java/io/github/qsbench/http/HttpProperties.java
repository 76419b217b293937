package io.github.qsbench.http;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * HTTP settings Tomcat has no property for, under {@code qs.http.*}.
 *
 * @param requestHeaderTimeout the longest time from the first byte of a request to the
 * end of its headers, whatever pace the bytes come at; zero switches it off (see
 * {@link RequestHeaderDeadlineProtocol})
 */
@ConfigurationProperties("qs.http")
public record HttpProperties(@DefaultValue("10s") Duration requestHeaderTimeout) {

	public HttpProperties {
		if (requestHeaderTimeout.isNegative()) {
			throw new IllegalArgumentException(
					"qs.http.request-header-timeout must not be negative, was " + requestHeaderTimeout);
		}
	}

}
