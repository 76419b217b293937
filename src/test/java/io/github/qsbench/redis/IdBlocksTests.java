package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The block of ids an instance reserved: served in order, never twice, and not once it
 * holds too few or is older than {@link IdBlocks#MAX_AGE_NANOS}; the clock is moved, not
 * waited for.
 */
@Timeout(30)
class IdBlocksTests {

	private final AtomicLong nanos = new AtomicLong(5_000);

	private final IdBlocks blocks = new IdBlocks(this.nanos::get);

	/** The counter, as Redis's {@code INCRBY} answers: the last id of the range taken. */
	private final AtomicLong counter = new AtomicLong();

	@Test
	void aReservationGivesItsFirstIdsToTheCallerAndServesTheRestInOrder() {
		assertThat(this.blocks.take(1)).as("nothing reserved yet").isZero();
		assertThat(reserve(3)).isEqualTo(1);
		assertThat(this.blocks.take(1)).isEqualTo(4);
		assertThat(this.blocks.take(10)).isEqualTo(5);
		assertThat(this.blocks.take(1)).isEqualTo(15);
	}

	@Test
	void aPushOfMoreIdsThanTheBlockHoldsReservesANewBlockAndTheRestIsAGap() {
		reserve(1);
		assertThat(this.blocks.take(IdBlocks.BLOCK - 1)).isEqualTo(2);
		assertThat(this.blocks.take(2)).as("one id left").isZero();
		long first = reserve(2);
		assertThat(first).as("after the first block's last id, which is never given").isEqualTo(IdBlocks.BLOCK + 2);
		assertThat(this.blocks.take(1)).isEqualTo(first + 2);
		assertThat(this.blocks.take(1)).isEqualTo(first + 3);
	}

	@Test
	void aBlockOlderThanItsAgeServesNothing() {
		reserve(1);
		this.nanos.addAndGet(IdBlocks.MAX_AGE_NANOS);
		assertThat(this.blocks.take(1)).as("as old as its age").isEqualTo(2);
		this.nanos.addAndGet(1);
		assertThat(this.blocks.take(1)).as("older").isZero();
		assertThat(reserve(1)).isEqualTo(IdBlocks.BLOCK + 2);
		assertThat(this.blocks.take(1)).isEqualTo(IdBlocks.BLOCK + 3);
	}

	@Test
	void ofTwoReservationsThatRacedTheLaterBlockIsKept() {
		long firstSent = this.blocks.reserving();
		long first = this.counter.addAndGet(1 + IdBlocks.BLOCK);
		long second = reserve(1);
		assertThat(this.blocks.keep(first, 1, firstSent)).as("the caller's id").isEqualTo(1);
		assertThat(this.blocks.take(1)).as("from the later block").isEqualTo(second + 1);
	}

	@Test
	void aBlocksAgeCountsFromWhenItsReservationWasSentNotFromTheReply() {
		long sentAt = this.blocks.reserving();
		this.nanos.addAndGet(IdBlocks.MAX_AGE_NANOS);
		long first = this.blocks.keep(this.counter.addAndGet(1 + IdBlocks.BLOCK), 1, sentAt);
		assertThat(first).as("the caller's id, whatever the delay").isEqualTo(1);
		assertThat(this.blocks.take(1)).isEqualTo(2);
		this.nanos.addAndGet(1);
		assertThat(this.blocks.take(1)).as("a reply a second late leaves the block no time").isZero();
	}

	/**
	 * Four threads each taking ids in runs of 1 to 7, reserving a block where the one
	 * kept cannot serve them (concurrent reservations race to keep theirs): every id
	 * given is given once.
	 */
	@Test
	void idsTakenConcurrentlyAreEachGivenOnce() throws Exception {
		int threads = 4;
		int takesEach = 20_000;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Callable<List<long[]>>> takers = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int seed = t;
				takers.add(() -> {
					List<long[]> given = new ArrayList<>(takesEach);
					for (int i = 0; i < takesEach; i++) {
						int count = 1 + (i * 31 + seed) % 7;
						long first = this.blocks.take(count);
						given.add(new long[] { (first != 0) ? first : reserve(count), count });
					}
					return given;
				});
			}
			BitSet seen = new BitSet();
			long given = 0;
			int duplicated = 0;
			for (Future<List<long[]>> taker : pool.invokeAll(takers)) {
				for (long[] run : taker.get()) {
					for (long id = run[0]; id < run[0] + run[1]; id++) {
						duplicated += seen.get((int) id) ? 1 : 0;
						seen.set((int) id);
						given++;
					}
				}
			}
			assertThat(duplicated).as("ids given twice").isZero();
			assertThat(seen.cardinality()).isEqualTo(given);
			assertThat(seen.get(0)).as("0 is no id").isFalse();
			assertThat(this.counter.get()).as("every id given came from the counter").isGreaterThanOrEqualTo(given);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/** A reservation as {@link RedisStore#reserveIds(int)} makes one. */
	private long reserve(int count) {
		long sentAt = this.blocks.reserving();
		return this.blocks.keep(this.counter.addAndGet(count + IdBlocks.BLOCK), count, sentAt);
	}

}
