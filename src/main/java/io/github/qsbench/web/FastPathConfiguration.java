package io.github.qsbench.web;

import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.config.QueueServiceProperties;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.RequestContextFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Registers {@link QueueFastPath} for {@code /queues/*}, and keeps filters nobody needs
 * out of every request's chain.
 */
@Configuration(proxyBeanMethods = false)
class FastPathConfiguration {

	/**
	 * Ahead of the observation filter and every other one but the character encoding
	 * filter (same order, harmless): what it answers needs none of them (it reads the
	 * body as bytes, and times itself), and what it passes on meets them all.
	 */
	@Bean
	FilterRegistrationBean<QueueFastPath> queueFastPath(QueueOperations operations, QueueServiceProperties properties,
			JsonMapper mapper, @Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptionResolver,
			MeterRegistry registry, SuspendedRequests suspended) {
		FilterRegistrationBean<QueueFastPath> registration = new FilterRegistrationBean<>(new QueueFastPath(operations,
				(int) properties.maxMessageSize().toBytes(), mapper, exceptionResolver, registry, suspended));
		registration.addUrlPatterns(Routes.QUEUES + "/*");
		// the async dispatch that writes a long poll's answer comes back to it
		registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	/**
	 * No RequestContextFilter (Spring Boot registers one unless a bean of that filter
	 * exists): the DispatcherServlet sets up the same request and locale context for
	 * everything it dispatches, and nothing outside it needs them. Every filter in the
	 * chain costs each request a synchronized lookup when Tomcat builds the chain, and a
	 * pass through it.
	 */
	@Bean
	FilterRegistrationBean<RequestContextFilter> requestContextFilterOff() {
		FilterRegistrationBean<RequestContextFilter> registration = new FilterRegistrationBean<>(
				new RequestContextFilter());
		registration.setEnabled(false);
		return registration;
	}

}
