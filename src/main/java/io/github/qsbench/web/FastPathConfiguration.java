package io.github.qsbench.web;

import io.micrometer.core.instrument.MeterRegistry;
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
	 * First of the filters: what it answers needs none of the others (it reads the body
	 * as bytes, and times itself), and what it passes on meets them all.
	 */
	@Bean
	FilterRegistrationBean<QueueFastPath> queueFastPath(QueueController controller, JsonMapper mapper,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptionResolver, MeterRegistry registry) {
		FilterRegistrationBean<QueueFastPath> registration = new FilterRegistrationBean<>(
				new QueueFastPath(controller, mapper, exceptionResolver, registry));
		registration.addUrlPatterns("/queues/*");
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

}
