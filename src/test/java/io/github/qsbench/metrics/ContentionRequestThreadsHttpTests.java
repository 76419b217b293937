package io.github.qsbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.http.HttpClientSupport;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The threads the web server serves requests on are the ones the contention meter takes
 * for request threads without stack traces ({@link ContentionFilter#isRequestThread}):
 * their names are the server's and Spring Boot's choice, so they are read from a running
 * server, on platform threads and on virtual ones.
 */
class ContentionRequestThreadsHttpTests {

	@Test
	void platformRequestThreads_recognised() {
		assertThat(ContentionFilter.isRequestThread(requestThreadName(false))).isTrue();
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void virtualRequestThreads_recognised() {
		assertThat(ContentionFilter.isRequestThread(requestThreadName(true))).isTrue();
	}

	private static String requestThreadName(boolean virtualThreads) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(QueueServiceApplication.class,
				ThreadName.class)
			.run("--server.port=0", "--server.address=127.0.0.1",
					"--spring.threads.virtual.enabled=" + virtualThreads)) {
			HttpResponse<String> response = new HttpClientSupport(
					Integer.parseInt(context.getEnvironment().getProperty("local.server.port")))
				.get("/test-only/thread-name");
			assertThat(response.statusCode()).isEqualTo(200);
			return response.body();
		}
	}

	@RestController
	static class ThreadName {

		@GetMapping("/test-only/thread-name")
		String threadName() {
			return Thread.currentThread().getName();
		}

	}

}
