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
 * Runs a Spring Boot test's service with the {@code redis} strategy on the test JVM's own
 * redis-server ({@link LocalRedis#shared()}), in a namespace of its own: put on a
 * subclass of an HTTP suite, it runs that whole suite against Redis.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ActiveProfiles("redis")
@ContextConfiguration(initializers = OnLocalRedis.Initializer.class)
public @interface OnLocalRedis {

	/** Points {@code spring.data.redis.*} at the shared redis-server. */
	class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			LocalRedis redis = LocalRedis.shared();
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("localRedis", Map.of("spring.data.redis.host", redis.host(),
						"spring.data.redis.port", redis.port(), "qs.redis.namespace", TestCores.newNamespace())));
		}

	}

}
