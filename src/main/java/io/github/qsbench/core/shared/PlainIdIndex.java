package io.github.qsbench.core.shared;

import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.agrona.collections.Hashing;

import io.github.qsbench.core.Message;

/**
 * {@link IdIndex#plain()}: an open-addressing table of the messages alone, each found by
 * its own {@link Message#id()}, not thread-safe. A message's id never changes, so the key
 * need not be stored beside it: a slot is one reference (4 bytes with compressed
 * references), where a map of {@code long} keys to references (Agrona's
 * {@code Long2ObjectHashMap}, which this replaces) spends 12. Linear probing from
 * Agrona's hash of the id, as that map did, and the same
 * {@link IdIndex#PLAIN_LOAD_FACTOR}; a removal shifts the rest of its probe chain back
 * (no tombstones), as that map's does. A probe reads the id of the message in its slot:
 * for the sequential ids the service hands out, a lookup of a present id mostly finds it
 * in its first slot.
 *
 * <p>
 * No operation by id allocates; only growing the table does. A completion's lookup reads
 * the message it finds, which the completion then reads anyway.
 *
 * @param <M> the indexed messages
 */
final class PlainIdIndex<M extends Message> implements IdIndex<M> {

	private Object[] slots;

	private int size;

	private int resizeAt;

	private final Collection<M> messages = new Messages();

	PlainIdIndex() {
		this.slots = new Object[PLAIN_INITIAL_CAPACITY];
		this.resizeAt = resizeAt(PLAIN_INITIAL_CAPACITY);
	}

	private static int resizeAt(int capacity) {
		return Math.min(capacity - 1, (int) (capacity * PLAIN_LOAD_FACTOR));
	}

	@Override
	public M get(long id) {
		Object[] slots = this.slots;
		int mask = slots.length - 1;
		for (int i = Hashing.hash(id, mask);; i = (i + 1) & mask) {
			@SuppressWarnings("unchecked")
			M message = (M) slots[i];
			if (message == null || message.id() == id) {
				return message;
			}
		}
	}

	/**
	 * @throws IllegalArgumentException if {@code id} is not the message's own id, by
	 * which it is found
	 */
	@Override
	public M put(long id, M message) {
		if (message.id() != id) {
			throw new IllegalArgumentException("id " + id + " is not the message's own, " + message.id());
		}
		Object[] slots = this.slots;
		int mask = slots.length - 1;
		int i = Hashing.hash(id, mask);
		for (;; i = (i + 1) & mask) {
			@SuppressWarnings("unchecked")
			M held = (M) slots[i];
			if (held == null) {
				break;
			}
			if (held.id() == id) {
				slots[i] = message;
				return held;
			}
		}
		slots[i] = message;
		if (++this.size > this.resizeAt) {
			grow();
		}
		return null;
	}

	@Override
	public boolean remove(long id, M message) {
		Object[] slots = this.slots;
		int mask = slots.length - 1;
		for (int i = Hashing.hash(id, mask);; i = (i + 1) & mask) {
			Object held = slots[i];
			if (held == null) {
				return false;
			}
			if (held == message) {
				slots[i] = null;
				this.size--;
				compactChain(slots, i);
				return true;
			}
		}
	}

	/**
	 * Moves back the messages after a freed slot that a lookup would no longer reach
	 * across it: Agrona's {@code compactChain}, with the hash taken from the message.
	 */
	private static void compactChain(Object[] slots, int freed) {
		int mask = slots.length - 1;
		int deleteIndex = freed;
		int index = freed;
		while (true) {
			index = (index + 1) & mask;
			Object held = slots[index];
			if (held == null) {
				return;
			}
			int hash = Hashing.hash(((Message) held).id(), mask);
			if ((index < hash && (hash <= deleteIndex || deleteIndex <= index))
					|| (hash <= deleteIndex && deleteIndex <= index)) {
				slots[deleteIndex] = held;
				slots[index] = null;
				deleteIndex = index;
			}
		}
	}

	private void grow() {
		Object[] old = this.slots;
		int capacity = old.length << 1;
		Object[] slots = new Object[capacity];
		int mask = capacity - 1;
		for (Object held : old) {
			if (held != null) {
				int i = Hashing.hash(((Message) held).id(), mask);
				while (slots[i] != null) {
					i = (i + 1) & mask;
				}
				slots[i] = held;
			}
		}
		this.slots = slots;
		this.resizeAt = resizeAt(capacity);
	}

	int capacity() {
		return this.slots.length;
	}

	@Override
	public Collection<M> messages() {
		return this.messages;
	}

	/** The indexed messages, read under the index's guard; no removal through it. */
	private final class Messages extends AbstractCollection<M> {

		@Override
		public int size() {
			return PlainIdIndex.this.size;
		}

		@Override
		public Iterator<M> iterator() {
			Object[] slots = PlainIdIndex.this.slots;
			return new Iterator<>() {

				private int next = advance(0);

				private int advance(int from) {
					int i = from;
					while (i < slots.length && slots[i] == null) {
						i++;
					}
					return i;
				}

				@Override
				public boolean hasNext() {
					return this.next < slots.length;
				}

				@Override
				@SuppressWarnings("unchecked")
				public M next() {
					if (!hasNext()) {
						throw new NoSuchElementException();
					}
					M message = (M) slots[this.next];
					this.next = advance(this.next + 1);
					return message;
				}

			};
		}

	}

}
