package io.github.qsbench.http;

import java.util.List;
import java.util.Set;

import jakarta.servlet.DispatcherType;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.VirtualThreads;
import org.springframework.boot.jetty.autoconfigure.JettyServerProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Servlet-container settings: every request, even one Jetty refuses, gets a problem+json
 * answer; no request body is read as parameters; request headers have a deadline.
 */
@Configuration(proxyBeanMethods = false)
class ContainerConfiguration {

	/**
	 * Jetty rejects an encoded slash ({@code %2F}), percent sign ({@code %25}), backslash
	 * or control character in the path as an ambiguous or suspicious URI (400) before any
	 * controller sees it, where Tomcat passed the percent sign and control characters on.
	 * Accepting them at the connector and letting the servlet API return such paths lets
	 * the queue-name check refuse them like any other bad name, as the API describes (a
	 * bad queue name in a path is 400 or 404 by route, never the container's 400). Spring
	 * MVC matches the request URI as sent, so an encoded slash never splits a path
	 * segment. {@code %00} and {@code %2E%2E} are still refused by Jetty.
	 */
	@Bean
	JettyServerCustomizer encodedSlashPassThrough() {
		return server -> {
			for (HttpConfiguration configuration : httpConfigurations(server)) {
				configuration.setUriCompliance(configuration.getUriCompliance()
					.with("AS_TOMCAT_PASSED", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
							UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING,
							UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS));
			}
			forEachServletContext(server.getHandlers(),
					context -> context.getServletHandler().setDecodeAmbiguousURIs(true));
		};
	}

	/**
	 * No request body is ever read as parameters: Jetty would read a {@code POST}'s
	 * {@code application/x-www-form-urlencoded} body (curl's default content type) as
	 * parameters as soon as anything asks for one (Spring MVC binding a query parameter),
	 * leaving the push an empty body. Parameters come from the query string only, so a
	 * push is the bytes of its body whatever its query and whichever path serves it. The
	 * SQS query protocol reads its form body itself, from the input stream.
	 */
	@Bean
	JettyServerCustomizer noBodyParameters() {
		return server -> {
			for (HttpConfiguration configuration : httpConfigurations(server)) {
				configuration.setFormEncodedMethods(Set.of());
			}
		};
	}

	/**
	 * Jetty's HTTP/1.1 connections plus a deadline for the request line and headers
	 * ({@code qs.http.request-header-timeout}), so that clients trickling header bytes
	 * cannot hold every connection (see {@link RequestHeaderDeadlineConnectionFactory}),
	 * and the kernel's queue of connections not yet accepted
	 * ({@code qs.http.accept-queue-size}), which Spring Boot has no Jetty property for.
	 */
	@Bean
	JettyServerCustomizer requestHeaderDeadline(HttpProperties properties) {
		return server -> {
			for (Connector connector : server.getConnectors()) {
				if (connector instanceof ServerConnector serverConnector) {
					serverConnector.setAcceptQueueSize(properties.acceptQueueSize());
				}
				HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
				if (http != null && !(http instanceof RequestHeaderDeadlineConnectionFactory)
						&& connector instanceof ServerConnector serverConnector) {
					RequestHeaderDeadlineConnectionFactory deadline = new RequestHeaderDeadlineConnectionFactory(
							http.getHttpConfiguration(), properties.requestHeaderTimeout().toMillis());
					deadline.setTransferEncodingChunkMaxLength(http.getTransferEncodingChunkMaxLength());
					// replaces the factory of the same protocol, HTTP/1.1
					serverConnector.addConnectionFactory(deadline);
				}
			}
		};
	}

	/**
	 * On graceful shutdown a request in progress keeps the connection's idle timeout:
	 * Jetty would cut every connection's to its shutdown idle timeout (1 s), so a request
	 * whose body was still arriving failed with an idle timeout (500) instead of
	 * completing, where Tomcat let it finish (GracefulShutdownTests). Shutdown still
	 * waits only for requests in progress, not for idle connections.
	 */
	@Bean
	JettyServerCustomizer keepIdleTimeoutOnShutdown() {
		return server -> {
			for (Connector connector : server.getConnectors()) {
				if (connector instanceof AbstractConnector abstractConnector) {
					abstractConnector.setShutdownIdleTimeout(-1);
				}
			}
		};
	}

	/**
	 * Problem+json, with {@link ProblemErrorHandler}, for what Jetty refuses before the
	 * servlet context (a request line or header over the limit, a malformed URI). Errors
	 * within the context go to Spring's error page, {@link ProblemErrorController}.
	 */
	@Bean
	JettyServerCustomizer problemErrorReports() {
		return server -> server.setErrorHandler(new ProblemErrorHandler());
	}

	/**
	 * What is left of a refused request body is read and dropped before the connection
	 * serves its next request (see {@link RefusedBodyDrain}); first of all filters, so it
	 * sees every answer, the fast path's too.
	 */
	@Bean
	FilterRegistrationBean<RefusedBodyDrain> refusedBodyDrain() {
		FilterRegistrationBean<RefusedBodyDrain> registration = new FilterRegistrationBean<>(new RefusedBodyDrain());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		registration.setDispatcherTypes(DispatcherType.REQUEST);
		return registration;
	}

	/**
	 * With virtual threads on, Jetty's own threads (acceptor, selectors, scheduler) stay
	 * platform threads and only what may block runs on a virtual thread, where Spring
	 * Boot's default would run everything, the selectors too, on virtual threads: a
	 * selector blocks its carrier in {@code epoll_wait}, and the hot routes it runs would
	 * share two cores' carriers with every request thread. The pool keeps the sizes of
	 * {@code server.jetty.threads.*}. Ordered after Spring Boot's customizer. The REST
	 * hot routes run on the selectors (see {@code rest.HotRouteHandler}).
	 */
	@Bean
	@ConditionalOnThreading(Threading.VIRTUAL)
	WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> platformSelectorsVirtualRequests(
			JettyServerProperties jetty) {
		return new PlatformSelectors(jetty.getThreads());
	}

	private static List<HttpConfiguration> httpConfigurations(Server server) {
		return java.util.Arrays.stream(server.getConnectors())
			.flatMap(connector -> connector.getConnectionFactories().stream())
			.filter(HttpConfiguration.ConnectionFactory.class::isInstance)
			.map(factory -> ((HttpConfiguration.ConnectionFactory) factory).getHttpConfiguration())
			.distinct()
			.toList();
	}

	private static void forEachServletContext(List<Handler> handlers,
			java.util.function.Consumer<ServletContextHandler> action) {
		for (Handler handler : handlers) {
			if (handler instanceof ServletContextHandler context) {
				action.accept(context);
			}
			if (handler instanceof Handler.Wrapper wrapper) {
				forEachServletContext(wrapper.getHandlers(), action);
			}
			if (handler instanceof Handler.Collection collection) {
				forEachServletContext(collection.getHandlers(), action);
			}
		}
	}

	private record PlatformSelectors(JettyServerProperties.Threads threads)
			implements
				WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory>,
				Ordered {

		@Override
		public void customize(ConfigurableJettyWebServerFactory factory) {
			QueuedThreadPool pool = new QueuedThreadPool(this.threads.getMax(), this.threads.getMin(),
					(int) this.threads.getIdleTimeout().toMillis()) {

				@Override
				public void execute(Runnable job) {
					if (!ResumeInline.deferredHere(job)) {
						super.execute(job);
					}
				}

			};
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
