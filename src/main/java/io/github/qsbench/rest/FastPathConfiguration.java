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
 * The hot routes' handlers ({@link HotRoutes}, shared by {@link QueueFastPath} and
 * {@link MessageController}), {@link QueueFastPath} registered for {@code /queues/*}, and
 * no filters nobody needs in every request's chain.
 */
@Configuration(proxyBeanMethods = false)
class FastPathConfiguration {

	@Bean
	HotRoutes hotRoutes(MessageOperations operations) {
		return new HotRoutes(operations);
	}

	/** First among the filters on {@code /queues/*} (see {@link AnsweringFilter}). */
	@Bean
	FilterRegistrationBean<QueueFastPath> queueFastPath(HotRoutes routes, JsonMapper mapper,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptionResolver, MeterRegistry registry,
			SuspendedRequests suspended) {
		return AnsweringFilter.registration(new QueueFastPath(routes, mapper, exceptionResolver, registry, suspended),
				Routes.QUEUES + "/*");
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
