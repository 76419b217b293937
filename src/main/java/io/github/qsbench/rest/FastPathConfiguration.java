package io.github.qsbench.rest;

import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.config.QueueServiceProperties;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.http.AnsweringFilter;
import io.github.qsbench.http.SuspendedRequests;
import io.github.qsbench.security.RestTokens;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.boot.jetty.autoconfigure.JettyServerProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.RequestContextFilter;

/**
 * The hot routes ({@link HotRoutes}), served by {@link HotRouteHandler} in front of the
 * servlet context and by {@link MessageController} behind it; the threads that serves
 * them on; and no filters nobody needs in every request's chain.
 */
@Configuration(proxyBeanMethods = false)
class FastPathConfiguration {

	@Bean
	HotRoutes hotRoutes(MessageOperations operations) {
		return new HotRoutes(operations);
	}

	/**
	 * {@link HotRouteHandler} between the server and everything Spring Boot put under it
	 * (the servlet context). On the selector only while the store is in this process: the
	 * redis strategy's core waits for Redis.
	 */
	@Bean
	JettyServerCustomizer hotRouteHandler(HotRoutes routes, JsonMapper mapper, MeterRegistry registry,
			SuspendedRequests suspended, RestTokens tokens, QueueServiceProperties properties) {
		boolean inProcess = properties.strategy().framework() != Strategy.Framework.EXTERNAL;
		return server -> server
			.insertHandler(new HotRouteHandler(routes, mapper.writer(), registry, suspended, tokens, inProcess));
	}

	/**
	 * With virtual threads on, Jetty's own threads (acceptor, selectors, scheduler) stay
	 * platform threads and only what may block runs on a virtual thread, where Spring
	 * Boot's default would run everything, the selectors too, on virtual threads: a
	 * selector blocks its carrier in {@code epoll_wait}, and the hot routes it runs would
	 * share two cores' carriers with every request thread. The pool keeps the sizes of
	 * {@code server.jetty.threads.*}. Ordered after Spring Boot's customizer.
	 */
	@Bean
	@ConditionalOnThreading(Threading.VIRTUAL)
	WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> platformSelectorsVirtualRequests(
			JettyServerProperties jetty) {
		return new PlatformSelectors(jetty.getThreads());
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

	private record PlatformSelectors(JettyServerProperties.Threads threads)
			implements
				WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory>,
				Ordered {

		@Override
		public void customize(ConfigurableJettyWebServerFactory factory) {
			QueuedThreadPool pool = new QueuedThreadPool(this.threads.getMax(), this.threads.getMin(),
					(int) this.threads.getIdleTimeout().toMillis());
			pool.setName("jetty");
			pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("jetty-request-"));
			factory.setThreadPool(pool);
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}
