package io.github.qsbench.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import io.github.qsbench.redis.OnLocalRedis;

import org.junit.jupiter.api.Test;

/**
 * {@link HotRouteHandlerHttpTests} with the redis strategy on a real redis-server, where
 * a push, a poll that does not wait and a complete of a plain queue are sent to Redis
 * without a thread waiting and answered from Lettuce's event loop: the same answers as
 * Spring MVC, which calls the blocking methods.
 */
@OnLocalRedis
class RedisHotRouteHandlerHttpTests extends HotRouteHandlerHttpTests {

	@Override
	String strategy() {
		return "redis";
	}

	/**
	 * The core-time meter counts the time a thread spends in a blocking call into the
	 * core; the fast path's calls to Redis are asynchronous, so it counts none of them,
	 * where the same requests through MVC are counted. The first request on a queue is
	 * not among them: it reads the queue's settings from Redis, on a request thread, and
	 * caches them.
	 */
	@Test
	void plainPushPollComplete_noThreadWaitsInTheCore_asMvcsDo() {
		assertThat(poll("fast-async", null).statusCode()).isEqualTo(204);
		double[] before = coreSeconds();
		long id = id(push("fast-async", "a", null));
		assertThat(poll("fast-async", null).statusCode()).isEqualTo(200);
		assertThat(complete("fast-async", id, null, null).statusCode()).isEqualTo(204);
		assertThat(coreSeconds()).as("push, lease, complete: untimed").isEqualTo(before);

		id = id(push("fast-async", "b", VIA_MVC));
		assertThat(poll("fast-async", VIA_MVC).statusCode()).isEqualTo(200);
		assertThat(complete("fast-async", id, null, VIA_MVC).statusCode()).isEqualTo(204);
		double[] after = coreSeconds();
		for (int i = 0; i < after.length; i++) {
			assertThat(after[i]).as("timed through MVC").isGreaterThan(before[i]);
		}
	}

	/**
	 * A long poll looks first without a thread waiting: a ready message is answered from
	 * Lettuce's thread, untimed by the core-time meter. With none ready it waits as on
	 * the blocking path (which looks again) until a push wakes it, and its first look,
	 * which found nothing, is not counted as an empty poll; a wait of zero that finds
	 * nothing is one.
	 */
	@Test
	void longPoll_looksFirstWithoutAWaitingThread_thenWaits_firstLookNotAnEmptyPoll() throws Exception {
		assertThat(poll("fast-long", null).statusCode()).isEqualTo(204);
		push("fast-long", "ready", null);
		double[] before = coreSeconds();
		HttpResponse<String> ready = get("/queues/fast-long/messages?wait=20", null);
		assertThat(ready.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(ready.body(), "$.body")).isEqualTo("ready");
		assertThat(coreSeconds()).as("the lease: untimed").isEqualTo(before);

		String emptyPolls = "(?m)^qs_polls_empty_total\\{.*} ([0-9.E]+)";
		double empty = count(emptyPolls);
		CompletableFuture<HttpResponse<String>> waiting = this.http.sendAsync("/queues/fast-long/messages?wait=20");
		awaitLongPolls("fast-long", 1);
		push("fast-long", "wake up", null);
		HttpResponse<String> woken = waiting.get(10, TimeUnit.SECONDS);
		assertThat(woken.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(woken.body(), "$.body")).isEqualTo("wake up");
		assertThat(count(emptyPolls)).as("no empty poll counted").isEqualTo(empty);

		HttpResponse<String> none = get("/queues/fast-long/messages?wait=0", null);
		assertThat(none.statusCode()).isEqualTo(204);
		assertThat(count(emptyPolls)).as("a wait of 0 that finds nothing: one").isEqualTo(empty + 1);
	}

	/**
	 * A batch of pushes and one of completions are each one call that Redis answers
	 * without a thread waiting, untimed by the core-time meter, and answered as MVC
	 * answers them (the base class's tests); a batch push with a group, a fair queue's,
	 * is made on a request thread and keeps its group.
	 */
	@Test
	void batches_noThreadWaitsInTheCore_aGroupedBatchStillPushed() {
		assertThat(poll("fast-abatch", null).statusCode()).isEqualTo(204);
		String[] batches = { "push_batch", "lease", "complete_batch" };
		double[] before = coreSeconds(batches);
		assertThat(json("fast-abatch", "/batch", "{\"messages\":[\"a\",\"b\"]}", null).statusCode()).isEqualTo(201);
		HttpResponse<String> polled = get("/queues/fast-abatch/messages?max=10", null);
		assertThat(polled.statusCode()).isEqualTo(200);
		List<Number> ids = JsonPath.read(polled.body(), "$.messages[*].id");
		assertThat(ids).hasSize(2);
		HttpResponse<String> completed = json("fast-abatch", "/completions",
				"{\"messages\":[{\"id\":" + ids.get(0) + "},{\"id\":" + ids.get(1) + "},{\"id\":" + ids.get(1) + "}]}",
				null);
		assertThat(completed.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<List<Integer>>read(completed.body(), "$.results[*].status")).containsExactly(204, 204,
				404);
		assertThat(coreSeconds(batches)).as("a batch push, a poll, a batch of completions: untimed").isEqualTo(before);

		assertThat(
				json("fast-abatch", "/batch", "{\"messages\":[{\"body\":\"c\",\"group\":\"g\"}]}", null).statusCode())
			.isEqualTo(201);
		assertThat(JsonPath.<String>read(poll("fast-abatch", null).body(), "$.group")).isEqualTo("g");
	}

	/** {@code qs_core_seconds_total} of push, lease and complete. */
	private double[] coreSeconds() {
		return coreSeconds("push", "lease", "complete");
	}

	/** {@code qs_core_seconds_total} of each operation named. */
	private double[] coreSeconds(String... operations) {
		double[] seconds = new double[operations.length];
		for (int i = 0; i < operations.length; i++) {
			seconds[i] = count("(?m)^qs_core_seconds_total\\{.*operation=\"" + operations[i] + "\".*} ([0-9.E-]+)");
		}
		return seconds;
	}

}
