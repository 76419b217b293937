package io.github.qsbench.core.thesis;

import io.github.qsbench.core.ConcurrentTestHarness;
import static io.github.qsbench.core.ConcurrentTestHarness.intProperty;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.StampedLock;

import org.junit.jupiter.api.Test;

/**
 * The optimistic lookup of {@link Lockable#stamped}: without a writer it takes no lock; a
 * writer in between, or an exception while one intervened, sends it to the read lock; and
 * under racing writers a {@code HashMap} lookup is never wrong.
 */
class LockableTests {

	private final StampedLock lock = new StampedLock();

	private final Map<String, String> map = new HashMap<>(Map.of("q", "old"));

	private final Lockable<Map<String, String>> stamped = Lockable.stamped(this.map, this.lock);

	private final AtomicInteger finds = new AtomicInteger();

	@Test
	void stampedLookup_noWriter_takesNoLock() {
		String used = this.stamped.lookup("q", (m, key) -> {
			this.finds.incrementAndGet();
			assertThat(this.lock.isReadLocked()).isFalse();
			return m.get(key);
		}, found -> {
			assertThat(this.lock.isReadLocked()).as("used after the lookup").isFalse();
			return found;
		});

		assertThat(used).isEqualTo("old");
		assertThat(this.finds).hasValue(1);
	}

	@Test
	void stampedLookup_writerInBetween_findsAgainUnderTheReadLock() {
		String used = this.stamped.lookup("q", (m, key) -> {
			if (this.finds.incrementAndGet() == 1) {
				String seen = m.get(key);
				write("q", "new");
				return seen;
			}
			assertThat(this.lock.isReadLocked()).isTrue();
			return m.get(key);
		}, found -> found);

		assertThat(used).isEqualTo("new");
		assertThat(this.finds).hasValue(2);
	}

	@Test
	void stampedLookup_throwsWhileAWriterIntervened_findsAgain() {
		String used = this.stamped.lookup("q", (m, key) -> {
			if (this.finds.incrementAndGet() == 1) {
				write("q", "new");
				throw new IllegalStateException("what a racing writer can cause");
			}
			return m.get(key);
		}, found -> found);

		assertThat(used).isEqualTo("new");
		assertThat(this.finds).hasValue(2);
	}

	@Test
	void stampedLookup_throwsWithoutAWriter_propagates() {
		assertThatIllegalStateException().isThrownBy(() -> this.stamped.lookup("q", (m, key) -> {
			this.finds.incrementAndGet();
			throw new IllegalStateException("a real failure");
		}, found -> found)).withMessage("a real failure");
		assertThat(this.finds).hasValue(1);
	}

	/**
	 * Readers look up 4 names that stay mapped while a writer keeps adding and removing
	 * 12 others, all 16 with the same {@code hashCode}, so their bin keeps turning into a
	 * tree and back (the racy case for an optimistic walk). Every lookup must find the
	 * right value and end; the harness fails the test on a hang. Size from
	 * {@code qs.test.lookups}.
	 */
	@Test
	void stampedLookup_racingWritersOnOneBin_neverWrong() throws InterruptedException {
		List<String> colliding = colliding(4);
		List<String> stable = colliding.subList(0, 4);
		List<String> churn = colliding.subList(4, colliding.size());
		Map<String, String> shared = new HashMap<>();
		stable.forEach(name -> shared.put(name, "value of " + name));
		Lockable<Map<String, String>> guarded = Lockable.stamped(shared, new StampedLock());
		int lookups = intProperty("qs.test.lookups", 1_000_000);
		AtomicBoolean readersDone = new AtomicBoolean();
		AtomicInteger readersLeft = new AtomicInteger(2);
		LongAdder wrong = new LongAdder();

		List<Runnable> tasks = new ArrayList<>();
		tasks.add(() -> {
			while (!readersDone.get()) {
				churn.forEach(name -> guarded.write(m -> m.put(name, "churn")));
				churn.forEach(name -> guarded.write(m -> m.remove(name)));
			}
		});
		for (int r = 0; r < 2; r++) {
			tasks.add(() -> {
				for (int i = 0; i < lookups; i++) {
					String name = stable.get(i % stable.size());
					if (!("value of " + name).equals(guarded.lookup(name, Map::get, found -> found))) {
						wrong.increment();
					}
				}
				if (readersLeft.decrementAndGet() == 0) {
					readersDone.set(true);
				}
			});
		}
		ConcurrentTestHarness.runAll(Duration.ofSeconds(intProperty("qs.test.timeout-seconds", 120)), tasks);

		assertThat(wrong.sum()).as("wrong lookups").isZero();
	}

	private void write(String key, String value) {
		long stamp = this.lock.writeLock();
		try {
			this.map.put(key, value);
		}
		finally {
			this.lock.unlockWrite(stamp);
		}
	}

	/**
	 * {@code 2^pairs} strings of one {@code hashCode}: every sequence of "Aa" and "BB",
	 * which hash alike.
	 */
	private static List<String> colliding(int pairs) {
		List<String> names = new ArrayList<>(List.of(""));
		for (int i = 0; i < pairs; i++) {
			List<String> longer = new ArrayList<>();
			for (String name : names) {
				longer.add(name + "Aa");
				longer.add(name + "BB");
			}
			names = longer;
		}
		return names;
	}

}
