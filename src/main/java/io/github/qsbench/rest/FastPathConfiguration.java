package io.github.qsbench.rest;

import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.http.AnsweringFilter;
import io.github.qsbench.http.SuspendedRequests;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.RequestContextFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Registers {@link QueueFastPath} for {@code /queues/*}, and keeps filters nobody needs
 * out of every request's chain.
 */
@Configuration(proxyBeanMethods = false)
class FastPathConfiguration {

	/** First among the filters on {@code /queues/*} (see {@link AnsweringFilter}). */
	@Bean
	FilterRegistrationBean<QueueFastPath> queueFastPath(MessageOperations operations, JsonMapper mapper,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptionResolver, MeterRegistry registry,
			SuspendedRequests suspended) {
		return AnsweringFilter.registration(
				new QueueFastPath(operations, mapper, exceptionResolver, registry, suspended), Routes.QUEUES + "/*");
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
