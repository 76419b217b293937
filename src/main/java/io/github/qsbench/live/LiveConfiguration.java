package io.github.qsbench.live;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Any origin may read {@code /live/**}: a page served by one instance opens the streams
 * of the others ({@code /?instances=...}) to draw them side by side. Those are read-only
 * metrics; the queue API itself stays same-origin.
 */
@Configuration(proxyBeanMethods = false)
class LiveConfiguration implements WebMvcConfigurer {

	@Override
	public void addCorsMappings(CorsRegistry registry) {
		registry.addMapping("/live/**").allowedOrigins("*").allowedMethods("GET");
	}

}
