package io.github.qsbench.core.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.github.qsbench.core.Capacity;
import io.github.qsbench.core.CapacityExceededException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The batcher's promise: every call answered once, by the one batch that took it, with
 * the calls made while a batch runs sharing the next; a failure answers each call of its
 * batch; a cap's refusal is retried call by call.
 */
@Timeout(60)
class BatcherTests {

	private final Queue<List<Integer>> batches = new ConcurrentLinkedQueue<>();

	private final List<Thread> started = new ArrayList<>();

	@AfterEach
	void stop() throws InterruptedException {
		for (Thread thread : this.started) {
			thread.join(TimeUnit.SECONDS.toMillis(10));
		}
	}

	private Batcher<Integer, Integer> batcher(Function<List<Integer>, List<Integer>> answers) {
		return new Batcher<>(requests -> {
			this.batches.add(List.copyOf(requests));
			return answers.apply(requests);
		});
	}

	private static List<Integer> negated(List<Integer> requests) {
		return requests.stream().map(request -> -request).toList();
	}

	@Test
	void aLoneCall_runsAtOnce_asABatchOfOne() {
		Batcher<Integer, Integer> batcher = batcher(BatcherTests::negated);

		assertThat(batcher.call(1)).isEqualTo(-1);
		assertThat(batcher.call(2)).isEqualTo(-2);

		assertThat(this.batches).containsExactly(List.of(1), List.of(2));
		assertThat(batcher.idle()).isTrue();
	}

	@Test
	void callsMadeWhileABatchRuns_shareTheNext_inTheOrderTheyCame() throws Exception {
		CountDownLatch firstRunning = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Batcher<Integer, Integer> batcher = batcher(requests -> {
			if (requests.contains(0)) {
				firstRunning.countDown();
				await(release);
			}
			return negated(requests);
		});
		Map<Integer, Integer> answered = new ConcurrentHashMap<>();
		Thread first = start(() -> answered.put(0, batcher.call(0)));
		firstRunning.await();
		for (int request = 1; request <= 3; request++) {
			int own = request;
			awaitParked(start(() -> answered.put(own, batcher.call(own))));
		}

		release.countDown();
		first.join();
		for (Thread thread : this.started) {
			thread.join();
		}

		assertThat(this.batches).containsExactly(List.of(0), List.of(1, 2, 3));
		assertThat(answered).containsExactlyInAnyOrderEntriesOf(Map.of(0, 0, 1, -1, 2, -2, 3, -3));
		assertThat(batcher.idle()).isTrue();
	}

	@Test
	void aFailedBatch_failsEachOfItsCalls_andTheNextBatchRuns() throws Exception {
		CountDownLatch firstRunning = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Batcher<Integer, Integer> batcher = batcher(requests -> {
			if (requests.contains(0)) {
				firstRunning.countDown();
				await(release);
				return negated(requests);
			}
			throw new IllegalStateException("Redis went away");
		});
		Map<Integer, Throwable> failures = new ConcurrentHashMap<>();
		start(() -> batcher.call(0));
		firstRunning.await();
		for (int request = 1; request <= 2; request++) {
			int own = request;
			awaitParked(start(() -> {
				try {
					batcher.call(own);
				}
				catch (IllegalStateException ex) {
					failures.put(own, ex);
				}
			}));
		}

		release.countDown();
		for (Thread thread : this.started) {
			thread.join();
		}

		assertThat(failures).containsOnlyKeys(1, 2);
		assertThat(this.batches).containsExactly(List.of(0), List.of(1, 2));
		assertThat(batcher.call(0)).as("the batcher works on").isZero();
	}

	@Test
	void aCapRefusingABatch_runsEachCallAlone_andRefusesOnlyTheOneOverTheCap() throws Exception {
		CountDownLatch firstRunning = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger room = new AtomicInteger(10);
		Batcher<Integer, Integer> batcher = batcher(requests -> {
			if (requests.contains(0)) {
				firstRunning.countDown();
				await(release);
			}
			int wanted = requests.stream().mapToInt(Integer::intValue).sum();
			if (wanted > room.get()) {
				throw new CapacityExceededException(Capacity.Limit.MESSAGES_PER_QUEUE, 10);
			}
			room.addAndGet(-wanted);
			return negated(requests);
		});
		Map<Integer, Object> outcomes = new ConcurrentHashMap<>();
		start(() -> outcomes.put(0, batcher.call(0)));
		firstRunning.await();
		for (int request : List.of(4, 8, 5)) {
			awaitParked(start(() -> {
				try {
					outcomes.put(request, batcher.call(request));
				}
				catch (CapacityExceededException ex) {
					outcomes.put(request, "refused");
				}
			}));
		}

		release.countDown();
		for (Thread thread : this.started) {
			thread.join();
		}

		assertThat(this.batches).containsExactly(List.of(0), List.of(4, 8, 5), List.of(4), List.of(8), List.of(5));
		assertThat(outcomes).containsExactlyInAnyOrderEntriesOf(Map.of(0, 0, 4, -4, 8, "refused", 5, -5));
		assertThat(room).hasValue(1);
	}

	@Test
	void anInterruptedCaller_stillGetsItsAnswer_andKeepsTheInterrupt() throws Exception {
		CountDownLatch firstRunning = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Batcher<Integer, Integer> batcher = batcher(requests -> {
			if (requests.contains(0)) {
				firstRunning.countDown();
				await(release);
			}
			return negated(requests);
		});
		start(() -> batcher.call(0));
		firstRunning.await();
		AtomicReference<String> seen = new AtomicReference<>();
		Thread waiter = start(() -> seen.set(batcher.call(1) + " " + Thread.currentThread().isInterrupted()));
		awaitParked(waiter);

		waiter.interrupt();
		awaitParked(waiter);
		release.countDown();
		waiter.join();

		assertThat(seen).hasValue("-1 true");
	}

	@Test
	void manyThreads_everyCallAnsweredOnce_byExactlyOneBatch() throws Exception {
		int threads = 8;
		int calls = 5_000;
		Batcher<Integer, Integer> batcher = batcher(requests -> {
			Thread.yield();
			return negated(requests);
		});
		AtomicInteger wrong = new AtomicInteger();
		for (int t = 0; t < threads; t++) {
			int base = t * calls;
			start(() -> {
				for (int i = base; i < base + calls; i++) {
					if (batcher.call(i) != -i) {
						wrong.incrementAndGet();
					}
				}
			});
		}
		for (Thread thread : this.started) {
			thread.join();
		}

		List<Integer> taken = this.batches.stream().flatMap(List::stream).sorted().toList();
		assertThat(wrong).hasValue(0);
		assertThat(taken).hasSize(threads * calls).doesNotHaveDuplicates();
		assertThat(this.batches).allSatisfy(batch -> assertThat(batch).hasSizeBetween(1, threads));
		assertThat(batcher.idle()).isTrue();
	}

	@Test
	void aBatchTakesAtMostItsMaximumOfCalls() throws Exception {
		CountDownLatch firstRunning = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Batcher<Integer, Integer> batcher = batcher(requests -> {
			if (requests.contains(0)) {
				firstRunning.countDown();
				await(release);
			}
			return negated(requests);
		});
		start(() -> batcher.call(0));
		firstRunning.await();
		int waiting = Batcher.MAX_CALLS + 10;
		for (int request = 1; request <= waiting; request++) {
			int own = request;
			start(() -> batcher.call(own));
		}
		for (Thread thread : this.started.subList(1, this.started.size())) {
			awaitParked(thread);
		}

		release.countDown();
		for (Thread thread : this.started) {
			thread.join();
		}

		assertThat(this.batches).map(List::size).containsExactly(1, Batcher.MAX_CALLS, 10);
	}

	private Thread start(Runnable body) {
		Thread thread = new Thread(body);
		this.started.add(thread);
		thread.start();
		return thread;
	}

	/** Until the thread waits (parked in the batcher), or 10 s. */
	private static void awaitParked(Thread thread) throws InterruptedException {
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (thread.getState() != Thread.State.WAITING && System.nanoTime() < end) {
			Thread.sleep(1);
		}
		assertThat(thread.getState()).isEqualTo(Thread.State.WAITING);
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
