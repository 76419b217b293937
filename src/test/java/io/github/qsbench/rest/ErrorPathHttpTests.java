package io.github.qsbench.rest;

import io.github.qsbench.http.HttpTestBase;
import static io.github.qsbench.rest.QueueApiHttpTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;

import com.jayway.jsonpath.JsonPath;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error path {@code /error}: a client that requests it gets 404 like any unknown
 * path, while errors the servlet container forwards there keep their own status, and none
 * of them carry exception text.
 */
class ErrorPathHttpTests extends HttpTestBase {

	@ParameterizedTest
	@ValueSource(strings = { "GET", "POST", "DELETE" })
	void requestedDirectly_notFound(String method) {
		HttpResponse<String> response = this.http.send("/error", method, BodyPublishers.ofString("x"), "text/plain");

		assertProblem(response, 404, "Not Found");
		assertThat(JsonPath.parse(response.body()).read("$.detail", String.class)).isEqualTo("No such resource.");
		assertThat(JsonPath.parse(response.body()).read("$.instance", String.class)).isEqualTo("/error");
	}

	@Test
	void containerError_keepsItsStatus() {
		HttpResponse<String> response = this.http.get("/test-only/send-error");

		assertProblem(response, 503, "Service Unavailable");
	}

	@Test
	void uncaughtException_internalServerErrorWithoutItsText() {
		HttpResponse<String> response = this.http.get("/test-only/throw");

		assertProblem(response, 500, "Internal Server Error");
		assertThat(response.body()).doesNotContain("secret", "IllegalStateException");
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class FailingEndpoints {

		@Bean
		Failing failing() {
			return new Failing();
		}

	}

	@RestController
	static class Failing {

		@GetMapping("/test-only/send-error")
		void sendError(HttpServletResponse response) throws IOException {
			response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
		}

		@GetMapping("/test-only/throw")
		void fail() {
			throw new IllegalStateException("secret internals");
		}

	}

}
