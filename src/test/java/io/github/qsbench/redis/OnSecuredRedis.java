package io.github.qsbench.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.LinkedHashMap;
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

		/**
		 * The properties that point the service at the secured redis-server's TLS port as
		 * its user, with a namespace of their own under {@code qs:}.
		 */
		public static Map<String, String> properties() {
			LocalRedis redis = LocalRedis.secured();
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("spring.data.redis.host", redis.host());
			properties.put("spring.data.redis.port", String.valueOf(redis.tlsPort()));
			properties.putAll(credentials());
			properties.put("qs.redis.namespace", "qs:" + TestCores.newNamespace());
			return properties;
		}

		/**
		 * What a client of {@link LocalRedis#secured()} or
		 * {@link LocalRedisCluster#secured3()} needs besides where they are: TLS,
		 * trusting their certificate, and their user's credentials. Its namespace must be
		 * under {@code qs:}.
		 */
		public static Map<String, String> credentials() {
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("spring.data.redis.username", LocalRedis.USER);
			properties.put("spring.data.redis.password", LocalRedis.PASSWORD);
			properties.put("spring.data.redis.ssl.enabled", "true");
			properties.put("spring.data.redis.ssl.bundle", "local-redis");
			properties.put("spring.ssl.bundle.pem.local-redis.truststore.certificate",
					"classpath:io/github/qsbench/redis/tls/redis.crt");
			return properties;
		}

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("securedRedis", Map.copyOf(properties())));
		}

	}

}
