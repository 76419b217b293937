package io.github.qsbench.http;

import java.time.Duration;

import io.github.qsbench.application.messages.LongPolls;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.awaitility.Awaitility.await;

/**
 * The set-up every HTTP test shares: the whole service on a random port and a
 * {@link HttpClientSupport} for it. A subclass sets its properties with
 * {@code @TestPropertySource}, not a {@code @SpringBootTest} of its own (that would
 * replace this one's random port).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
public abstract class HttpTestBase {

	@LocalServerPort
	protected int port;

	protected HttpClientSupport http;

	@Autowired
	private LongPolls longPolls;

	@BeforeEach
	protected void startHttpClient() {
		this.http = new HttpClientSupport(this.port);
	}

	/**
	 * Returns once {@code count} long polls wait on {@code queue}; fails after 30 s. A
	 * test that wakes a waiting poll calls it first, in place of sleeping until the poll
	 * waits.
	 */
	protected void awaitLongPolls(String queue, int count) {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> this.longPolls.waiting().getOrDefault(queue, 0) == count);
	}

}
