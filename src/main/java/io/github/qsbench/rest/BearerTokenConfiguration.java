package io.github.qsbench.rest;

import io.github.qsbench.security.RestTokens;
import io.github.qsbench.security.SecurityProperties;
import jakarta.servlet.DispatcherType;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Registers {@link BearerTokenFilter} on every path, first of all filters, when
 * {@code qs.security.rest.tokens} names any; otherwise it is left out of every chain.
 */
@Configuration(proxyBeanMethods = false)
class BearerTokenConfiguration {

	@Bean
	RestTokens restTokens(SecurityProperties security) {
		return new RestTokens(security.rest().tokens());
	}

	@Bean
	FilterRegistrationBean<BearerTokenFilter> bearerTokens(RestTokens tokens) {
		FilterRegistrationBean<BearerTokenFilter> registration = new FilterRegistrationBean<>(
				new BearerTokenFilter(tokens));
		registration.addUrlPatterns("/*");
		registration.setDispatcherTypes(DispatcherType.REQUEST);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		registration.setEnabled(tokens.required());
		return registration;
	}

}
