package io.github.qsbench.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.github.qsbench.http.HttpTestBase;

import org.junit.jupiter.api.Test;

/**
 * {@code /compare} over a real port: under the test's class path there is no jar, so a
 * valid request is refused as unavailable (503); the refusals are problem details; no
 * comparison ever starts here.
 */
class CompareHttpTests extends HttpTestBase {

	@Test
	void nothingRunsAtFirst_andTheChoicesSayWhy() {
		assertThat(get("/compare").body()).contains("\"state\":\"idle\"", "packaged jar");
		String choices = get("/compare/strategies").body();
		assertThat(choices).contains("\"profile\":\"lane-adaptive\"", "\"id\":\"4-conn\"", "\"maxLoadSeconds\":90");
		assertThat(choices).containsOnlyOnce("\"available\":false").contains("\"profile\":\"redis\"");
	}

	@Test
	void aRequestPastTheCaps_is400() {
		HttpResponse<String> response = post("{\"strategies\":[\"synchronized\"]}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("Choose 2 to 4");
		assertThat(post("{\"strategies\":[\"synchronized\",\"redis\"]}").statusCode()).isEqualTo(400);
		assertThat(post("{not json").statusCode()).isEqualTo(400);
	}

	@Test
	void withoutTheJar_aValidRequestIs503() {
		HttpResponse<String> response = post("{\"strategies\":[\"synchronized\",\"concurrent-atomic\"]}");

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("qs.compare.jar");
	}

	@Test
	void cancellingWhenNoneRuns_is404() {
		HttpResponse<String> response = this.http.send("/compare", "DELETE", HttpRequest.BodyPublishers.noBody(), null);

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).contains("No comparison runs");
	}

	private HttpResponse<String> get(String path) {
		return this.http.send(path, "GET", HttpRequest.BodyPublishers.noBody(), null);
	}

	private HttpResponse<String> post(String json) {
		return this.http.send("/compare", "POST", HttpRequest.BodyPublishers.ofString(json), "application/json");
	}

}
