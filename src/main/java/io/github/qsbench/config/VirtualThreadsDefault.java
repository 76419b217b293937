package io.github.qsbench.config;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Requests on virtual threads by default where the JDK runs them well: from JDK 24 on,
 * where a virtual thread blocked in {@code synchronized} leaves its carrier (JEP 491), so
 * the monitor strategies do not pin carriers. A pool of platform threads holds a worker
 * per busy connection for the kernel to schedule, and Tomcat's cost more CPU per message
 * than virtual threads in docs/client-curve.md. On Jetty, Spring Boot then serves from a
 * {@code VirtualThreadPool} of at most {@code server.jetty.threads.max} tasks at once.
 * Below JDK 24 platform threads (Jetty's {@code QueuedThreadPool}) stay the default. The
 * default is the last property source, so {@code spring.threads.virtual.enabled} set
 * anywhere (arguments, environment, {@code application.properties}) decides.
 */
class VirtualThreadsDefault implements EnvironmentPostProcessor {

	/** The first JDK feature release whose virtual threads are the default. */
	static final int FIRST_JDK = 24;

	static final String PROPERTY = "spring.threads.virtual.enabled";

	private final int jdk;

	VirtualThreadsDefault() {
		this(Runtime.version().feature());
	}

	/**
	 * @param jdk the feature release of the running JDK
	 */
	VirtualThreadsDefault(int jdk) {
		this.jdk = jdk;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (this.jdk >= FIRST_JDK) {
			environment.getPropertySources()
				.addLast(new MapPropertySource("virtualThreadsDefault", Map.of(PROPERTY, "true")));
		}
	}

}
