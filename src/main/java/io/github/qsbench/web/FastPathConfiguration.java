package io.github.qsbench.web;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;

/** Registers {@link QueueFastPath} for {@code /queues/*}. */
@Configuration(proxyBeanMethods = false)
class FastPathConfiguration {

	/**
	 * Last of the filters, right before the DispatcherServlet: behind the observation
	 * filter, so a request it answers is timed as any other.
	 */
	@Bean
	FilterRegistrationBean<QueueFastPath> queueFastPath(QueueController controller, JsonMapper mapper,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptionResolver) {
		FilterRegistrationBean<QueueFastPath> registration = new FilterRegistrationBean<>(
				new QueueFastPath(controller, mapper, exceptionResolver));
		registration.addUrlPatterns("/queues/*");
		registration.setOrder(Ordered.LOWEST_PRECEDENCE);
		return registration;
	}

}
