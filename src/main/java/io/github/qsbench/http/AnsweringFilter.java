package io.github.qsbench.http;

import java.io.IOException;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;

/**
 * A filter that answers the requests it takes itself, ahead of Spring MVC (the REST fast
 * path, the SQS face), and passes the others on unchanged. It is the first filter on its
 * path, for requests and for async dispatches: an async dispatch that carries an
 * {@link AsyncAnswer} is the answer of a request suspended on this path (by this filter
 * or by a controller behind it), and is written here without passing any other filter.
 */
public abstract class AnsweringFilter extends HttpFilter {

	@Override
	protected final void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (request.getDispatcherType() == DispatcherType.ASYNC) {
			if (!AsyncAnswer.writeTaken(request, response)) {
				chain.doFilter(request, response);
			}
			return;
		}
		answer(request, response, chain);
	}

	/** A request's first dispatch: answer it, or pass it on down the chain. */
	protected abstract void answer(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException;

	/**
	 * Registers the filter on a path, ahead of the observation filter and every other one
	 * but the REST API's bearer-token check and the character encoding filter (harmless):
	 * what it answers needs none of them (it reads bodies as bytes and times itself), and
	 * what it passes on meets them all. Async dispatches come to it too, to write the
	 * answers of suspended requests.
	 */
	public static <F extends AnsweringFilter> FilterRegistrationBean<F> registration(F filter, String urlPattern) {
		FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
		registration.addUrlPatterns(urlPattern);
		registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
		return registration;
	}

}
