package io.github.qsbench.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;

import io.github.qsbench.core.TestCores;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

/**
 * Runs a Spring Boot test's service with the {@code redis} strategy on Redis as a managed
 * service runs it ({@link LocalRedis#secured()}): over TLS, trusting the server's
 * certificate through an SSL bundle, as a user with a password and only the rules
 * docs/redis.md recommends, in a namespace of its own under {@code qs:}. Put on a
 * subclass of an HTTP suite, it runs that whole suite so, with Spring Boot's own
 * {@code spring.data.redis.*} and {@code spring.ssl.bundle.*} properties.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ActiveProfiles("redis")
@ContextConfiguration(initializers = OnSecuredRedis.Initializer.class)
public @interface OnSecuredRedis {

	/** Points {@code spring.data.redis.*} at the secured redis-server's TLS port. */
	class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			LocalRedis redis = LocalRedis.secured();
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("securedRedis",
						Map.of("spring.data.redis.host", redis.host(), "spring.data.redis.port", redis.tlsPort(),
								"spring.data.redis.username", LocalRedis.USER, "spring.data.redis.password",
								LocalRedis.PASSWORD, "spring.data.redis.ssl.enabled", true,
								"spring.data.redis.ssl.bundle", "local-redis",
								"spring.ssl.bundle.pem.local-redis.truststore.certificate",
								"classpath:io/github/qsbench/redis/tls/redis.crt", "qs.redis.namespace",
								"qs:" + TestCores.newNamespace())));
		}

	}

}
