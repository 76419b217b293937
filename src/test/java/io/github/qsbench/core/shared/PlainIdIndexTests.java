package io.github.qsbench.core.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.github.qsbench.core.Message;

/**
 * {@link PlainIdIndex} against a {@link HashMap} of the same entries, through fills,
 * removals in any order (which shift probe chains back) and growth.
 */
class PlainIdIndexTests {

	private record Held(long id) implements Message {

		@Override
		public byte[] body() {
			return new byte[0];
		}

		@Override
		public int deliveries() {
			return 0;
		}

	}

	@Test
	void findsWhatWasPutAndNothingRemoved() {
		IdIndex<Held> index = IdIndex.plain();
		Held one = new Held(1);
		assertThat(index.get(1)).isNull();
		assertThat(index.put(1, one)).isNull();
		assertThat(index.get(1)).isSameAs(one);
		assertThat(index.remove(1, new Held(1))).as("another message of that id").isFalse();
		assertThat(index.remove(1, one)).isTrue();
		assertThat(index.remove(1, one)).as("only once").isFalse();
		assertThat(index.get(1)).isNull();
		assertThat(index.messages()).isEmpty();
	}

	@Test
	void putReplacesTheMessageOfTheSameId() {
		IdIndex<Held> index = IdIndex.plain();
		Held first = new Held(7);
		Held second = new Held(7);
		index.put(7, first);
		assertThat(index.put(7, second)).isSameAs(first);
		assertThat(index.get(7)).isSameAs(second);
		assertThat(index.messages()).containsExactly(second);
	}

	@Test
	void refusesAnIdThatIsNotTheMessages() {
		IdIndex<Held> index = IdIndex.plain();
		assertThatIllegalArgumentException().isThrownBy(() -> index.put(2, new Held(3)));
	}

	@Test
	void growsAtItsLoadFactor() {
		PlainIdIndex<Held> index = new PlainIdIndex<>();
		for (long id = 1; id <= 100_000; id++) {
			index.put(id, new Held(id));
		}
		// 100,000 / 131,072 = 0.76, under 0.8: 4 bytes a slot, 5.2 bytes a message
		assertThat(index.capacity()).isEqualTo(131_072);
		assertThat(index.messages()).hasSize(100_000);
	}

	@Test
	void agreesWithAMapThroughRandomPutsAndRemovals() {
		for (long seed = 0; seed < 20; seed++) {
			SplittableRandom random = new SplittableRandom(seed);
			// sequential ids, as the service hands them out, or scattered ones that
			// collide
			boolean sequential = seed % 2 == 0;
			PlainIdIndex<Held> index = new PlainIdIndex<>();
			Map<Long, Held> model = new HashMap<>();
			List<Held> held = new ArrayList<>();
			long next = 1;
			for (int step = 0; step < 20_000; step++) {
				if (held.isEmpty() || random.nextInt(100) < 55) {
					long id = sequential ? next++ : random.nextLong(1, 5_000) * 64;
					if (model.containsKey(id)) {
						continue;
					}
					Held message = new Held(id);
					assertThat(index.put(id, message)).isNull();
					model.put(id, message);
					held.add(message);
				}
				else {
					Held message = held.remove(random.nextInt(held.size()));
					assertThat(index.remove(message.id(), message)).isTrue();
					model.remove(message.id());
				}
				if (step % 997 == 0) {
					for (Held message : model.values()) {
						assertThat(index.get(message.id())).isSameAs(message);
					}
					assertThat(index.messages()).containsExactlyInAnyOrderElementsOf(model.values());
				}
			}
			for (Held message : model.values()) {
				assertThat(index.get(message.id())).isSameAs(message);
			}
			assertThat(index.get(next + 1)).isNull();
			assertThat(index.messages()).hasSize(model.size());
		}
	}

}
