package io.github.qsbench.http;

import io.github.qsbench.core.MutableClock;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The service's clock, replaced by one the test moves: leases lapse without sleeping.
 * Import it and autowire {@link MutableClock}.
 */
@TestConfiguration(proxyBeanMethods = false)
public class MutableClockConfiguration {

	@Bean
	@Primary
	MutableClock mutableClock() {
		return new MutableClock();
	}

}
