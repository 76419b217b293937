package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The group commit: a call alone runs at once and alone, calls made while one runs are
 * run as one batch, and a failed batch answers each call as it alone would.
 */
@Timeout(30)
class GroupCommitTests {

	private final ExecutorService threads = Executors.newCachedThreadPool();

	/** Each batch run, as the items it ran. */
	private final List<List<Integer>> batches = new CopyOnWriteArrayList<>();

	private final CountDownLatch firstEntered = new CountDownLatch(1);

	private final CountDownLatch releaseFirst = new CountDownLatch(1);

	@AfterEach
	void stop() {
		this.releaseFirst.countDown();
		this.threads.shutdownNow();
	}

	/**
	 * Doubles each item; refuses a batch holding a negative item; holds the first batch.
	 */
	private List<Integer> run(String key, List<Integer> items) {
		this.batches.add(List.copyOf(items));
		if (this.batches.size() == 1) {
			this.firstEntered.countDown();
			await(this.releaseFirst);
		}
		if (items.stream().anyMatch(item -> item < 0)) {
			throw new IllegalArgumentException("negative " + items);
		}
		return items.stream().map(item -> item * 2).toList();
	}

	@Test
	void aCallAlone_runsAtOnceAlone() {
		this.releaseFirst.countDown();
		GroupCommit<String, Integer, Integer> commit = new GroupCommit<>(64, this::run);

		assertThat(commit.run("q", 1)).isEqualTo(2);
		assertThat(commit.run("q", 2)).isEqualTo(4);
		assertThat(this.batches).containsExactly(List.of(1), List.of(2));
	}

	@Test
	void callsMadeWhileOneRuns_runAsOneBatch_eachAnsweredItsOwn() throws Exception {
		GroupCommit<String, Integer, Integer> commit = new GroupCommit<>(64, this::run);
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> commit.run("q", 1), this.threads);
		assertThat(this.firstEntered.await(10, TimeUnit.SECONDS)).isTrue();
		List<CompletableFuture<Integer>> others = new ArrayList<>();
		for (int i = 2; i <= 4; i++) {
			int item = i;
			others.add(CompletableFuture.supplyAsync(() -> commit.run("q", item), this.threads));
		}
		// another key is not held up by this one's batch
		assertThat(commit.run("other", 10)).isEqualTo(20);
		waitUntil(() -> commit.waiting("q") == 3);
		this.releaseFirst.countDown();

		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(2);
		for (int i = 0; i < others.size(); i++) {
			assertThat(others.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(2 * (i + 2));
		}
		assertThat(this.batches).hasSize(3);
		assertThat(this.batches.get(2)).containsExactlyInAnyOrder(2, 3, 4);
	}

	@Test
	void aFailedBatch_answersEachCallAsItAloneWould() throws Exception {
		GroupCommit<String, Integer, Integer> commit = new GroupCommit<>(64, this::run);
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> commit.run("q", 1), this.threads);
		assertThat(this.firstEntered.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Integer> good = CompletableFuture.supplyAsync(() -> commit.run("q", 5), this.threads);
		CompletableFuture<Integer> bad = CompletableFuture.supplyAsync(() -> commit.run("q", -1), this.threads);
		waitUntil(() -> commit.waiting("q") == 2);
		this.releaseFirst.countDown();

		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(2);
		assertThat(good.get(10, TimeUnit.SECONDS)).isEqualTo(10);
		assertThat(bad).failsWithin(10, TimeUnit.SECONDS)
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(IllegalArgumentException.class)
			.withMessage("negative [-1]");
	}

	@Test
	void aBatchTakesAtMostMaxCalls() throws Exception {
		GroupCommit<String, Integer, Integer> commit = new GroupCommit<>(2, this::run);
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> commit.run("q", 1), this.threads);
		assertThat(this.firstEntered.await(10, TimeUnit.SECONDS)).isTrue();
		List<CompletableFuture<Integer>> others = new ArrayList<>();
		for (int i = 2; i <= 6; i++) {
			int item = i;
			others.add(CompletableFuture.supplyAsync(() -> commit.run("q", item), this.threads));
		}
		waitUntil(() -> commit.waiting("q") == 5);
		this.releaseFirst.countDown();

		first.get(10, TimeUnit.SECONDS);
		for (CompletableFuture<Integer> other : others) {
			other.get(10, TimeUnit.SECONDS);
		}
		assertThat(this.batches.subList(1, this.batches.size()))
			.allSatisfy(batch -> assertThat(batch).hasSizeLessThanOrEqualTo(2));
		assertThat(this.batches.stream().mapToInt(List::size).sum()).isEqualTo(6);
	}

	private static void waitUntil(java.util.function.BooleanSupplier condition) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("waited 10 s").isLessThan(deadline);
			Thread.onSpinWait();
			Thread.yield();
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
