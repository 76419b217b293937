package io.github.qsbench.rest;

import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.http.AnsweringFilter;
import io.github.qsbench.http.SelectorRoute;
import io.github.qsbench.http.SuspendedRequests;
import io.github.qsbench.security.RestTokens;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.RequestContextFilter;

/**
 * The hot routes ({@link HotRoutes}), served by {@link HotRouteHandler} in front of the
 * servlet context and by {@link MessageController} behind it; and no filters nobody needs
 * in every request's chain.
 */
@Configuration(proxyBeanMethods = false)
class FastPathConfiguration {

	@Bean
	HotRoutes hotRoutes(MessageOperations operations) {
		return new HotRoutes(operations);
	}

	/**
	 * {@link HotRouteHandler} between the server and everything Spring Boot put under it
	 * (the servlet context). On the selector only while the strategy keeps its queues in
	 * this process: the redis strategy's core waits for Redis.
	 */
	@Bean
	JettyServerCustomizer hotRouteHandler(HotRoutes routes, JsonMapper mapper, MeterRegistry registry,
			SuspendedRequests suspended, RestTokens tokens, @Qualifier("queueService") QueueServiceCore strategy,
			ObjectProvider<SelectorRoute> others) {
		return server -> server.insertHandler(new HotRouteHandler(routes, mapper.writer(), registry, suspended, tokens,
				!strategy.external(), others.orderedStream().toList()));
	}

	/**
	 * The answers of the long polls {@link MessageController} suspends, written on their
	 * async dispatch (see {@link AnsweringFilter}); every request passes on.
	 */
	@Bean
	FilterRegistrationBean<AsyncQueueAnswers> asyncQueueAnswers() {
		return AnsweringFilter.registration(new AsyncQueueAnswers(), Routes.QUEUES + "/*");
	}

	/**
	 * No RequestContextFilter (Spring Boot registers one unless a bean of that filter
	 * exists): the DispatcherServlet sets up the same request and locale context for
	 * everything it dispatches, and nothing outside it needs them. Every filter in the
	 * chain costs each request a lookup when the container builds the chain, and a pass
	 * through it.
	 */
	@Bean
	FilterRegistrationBean<RequestContextFilter> requestContextFilterOff() {
		FilterRegistrationBean<RequestContextFilter> registration = new FilterRegistrationBean<>(
				new RequestContextFilter());
		registration.setEnabled(false);
		return registration;
	}

	static final class AsyncQueueAnswers extends AnsweringFilter {

		@Override
		protected void answer(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws IOException, ServletException {
			chain.doFilter(request, response);
		}

	}

}
