package io.github.qsbench.core.thesis;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * An object together with the way it is made safe to share, so that {@link AbstractQS}
 * can say what kind of access it needs without knowing the object's type or its lock.
 *
 * <p>
 * {@code read} may run concurrently with other reads; {@code write} runs alone;
 * {@code unsafe} bypasses any guard and is only for callers that tolerate a stale or racy
 * answer. {@code lookup} finds one thing under read access and acts on it, inside that
 * access except for {@link #stamped}, whose lookups are optimistic.
 */
public interface Lockable<T> {

	<R> R read(Function<? super T, ? extends R> action);

	<R> R write(Function<? super T, ? extends R> action);

	<R> R unsafe(Function<? super T, ? extends R> action);

	/**
	 * Finds what {@code key} leads to in the target under read access, then applies
	 * {@code use} to it. Every lockable applies {@code use} inside that same read access,
	 * except {@link #stamped}: its lookup is an optimistic read, and {@code use} runs
	 * after it on what the target held when the read was validated, which may have been
	 * removed from the target since. So {@code find} must be free of side effects, and a
	 * caller looks up this way only where acting on something just removed is harmless.
	 */
	default <K, V, R> R lookup(K key, BiFunction<? super T, ? super K, ? extends V> find,
			Function<? super V, ? extends R> use) {
		return read(target -> use.apply(find.apply(target, key)));
	}

	/** Every access, read or write, runs under one {@code synchronized} monitor. */
	static <T> Lockable<T> mutex(T target) {
		return new Mutex<>(target);
	}

	/**
	 * Every access, read or write, holds one {@link Lock}: {@link #mutex} with a
	 * {@code java.util.concurrent} lock instead of a monitor.
	 */
	static <T> Lockable<T> lock(T target, Lock lock) {
		return new ReadWriteLocked<>(target, lock, lock);
	}

	/** Reads share the read lock, writes take the write lock. */
	static <T> Lockable<T> readWrite(T target, ReadWriteLock lock) {
		return new ReadWriteLocked<>(target, lock.readLock(), lock.writeLock());
	}

	/**
	 * Reads share the {@link StampedLock}'s read lock, writes take its write lock, and a
	 * {@link #lookup} is an optimistic read: no write to shared memory when no writer
	 * intervenes. The lock is not reentrant, so no access may nest in another of the same
	 * lockable.
	 */
	static <T> Lockable<T> stamped(T target, StampedLock lock) {
		return new Stamped<>(target, lock);
	}

	/**
	 * No guard at all: for objects that are thread-safe themselves, or guarded by an
	 * enclosing access.
	 */
	static <T> Lockable<T> noLock(T target) {
		return new Unguarded<>(target);
	}

	/**
	 * What every lockable shares: its target, and {@link #unsafe}, which takes no guard.
	 * Each subclass writes its own guard around {@link #read}, {@link #write} and
	 * {@link #lookup} out: {@code synchronized} and an optimistic read fit no common
	 * lock/unlock pair, and a lambda between guard and action would cost every access.
	 */
	abstract class Guarded<T> implements Lockable<T> {

		final T target;

		Guarded(T target) {
			this.target = target;
		}

		@Override
		public final <R> R unsafe(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

	}

	final class Mutex<T> extends Guarded<T> {

		private Mutex(T target) {
			super(target);
		}

		@Override
		public synchronized <R> R read(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

		@Override
		public synchronized <R> R write(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

		@Override
		public synchronized <K, V, R> R lookup(K key, BiFunction<? super T, ? super K, ? extends V> find,
				Function<? super V, ? extends R> use) {
			return use.apply(find.apply(this.target, key));
		}

	}

	/** Reads hold one lock, writes another (or the same one, for {@link #lock}). */
	final class ReadWriteLocked<T> extends Guarded<T> {

		private final Lock readLock;

		private final Lock writeLock;

		private ReadWriteLocked(T target, Lock readLock, Lock writeLock) {
			super(target);
			this.readLock = readLock;
			this.writeLock = writeLock;
		}

		@Override
		public <R> R read(Function<? super T, ? extends R> action) {
			this.readLock.lock();
			try {
				return action.apply(this.target);
			}
			finally {
				this.readLock.unlock();
			}
		}

		@Override
		public <R> R write(Function<? super T, ? extends R> action) {
			this.writeLock.lock();
			try {
				return action.apply(this.target);
			}
			finally {
				this.writeLock.unlock();
			}
		}

		@Override
		public <K, V, R> R lookup(K key, BiFunction<? super T, ? super K, ? extends V> find,
				Function<? super V, ? extends R> use) {
			this.readLock.lock();
			try {
				return use.apply(find.apply(this.target, key));
			}
			finally {
				this.readLock.unlock();
			}
		}

	}

	/**
	 * A target guarded by a {@link StampedLock}, with optimistic lookups.
	 *
	 * <p>
	 * An optimistic lookup runs {@code find} holding nothing, then validates the stamp:
	 * if no writer took the lock since, what it read is what the target held, and the
	 * validation orders those reads after the last writer's release, as a read lock
	 * would. If a writer intervened, or {@code find} threw (a writer racing it can show
	 * it a half-changed object: for a {@code HashMap}, a wrong answer or an exception),
	 * the lookup runs again under the read lock; an exception with a valid stamp is real
	 * and is thrown. {@code find} has to end while racing a writer: for a
	 * {@code HashMap.get} a list bin's links only point to later-inserted nodes, so a
	 * racing walk ends; a tree bin (8 colliding names) being rotated by the writer can
	 * show a transient cycle, which the walk leaves once the writer's bounded update is
	 * visible to it (a spin on the writer, not a JMM guarantee for plain fields).
	 */
	final class Stamped<T> extends Guarded<T> {

		private final StampedLock lock;

		private Stamped(T target, StampedLock lock) {
			super(target);
			this.lock = lock;
		}

		@Override
		public <R> R read(Function<? super T, ? extends R> action) {
			long stamp = this.lock.readLock();
			try {
				return action.apply(this.target);
			}
			finally {
				this.lock.unlockRead(stamp);
			}
		}

		@Override
		public <R> R write(Function<? super T, ? extends R> action) {
			long stamp = this.lock.writeLock();
			try {
				return action.apply(this.target);
			}
			finally {
				this.lock.unlockWrite(stamp);
			}
		}

		@Override
		public <K, V, R> R lookup(K key, BiFunction<? super T, ? super K, ? extends V> find,
				Function<? super V, ? extends R> use) {
			V found;
			long stamp = this.lock.tryOptimisticRead();
			try {
				found = find.apply(this.target, key);
			}
			catch (RuntimeException ex) {
				if (this.lock.validate(stamp)) {
					throw ex;
				}
				found = null;
			}
			if (!this.lock.validate(stamp)) {
				stamp = this.lock.readLock();
				try {
					found = find.apply(this.target, key);
				}
				finally {
					this.lock.unlockRead(stamp);
				}
			}
			return use.apply(found);
		}

	}

	final class Unguarded<T> extends Guarded<T> {

		private Unguarded(T target) {
			super(target);
		}

		@Override
		public <R> R read(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

		@Override
		public <R> R write(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

		@Override
		public <K, V, R> R lookup(K key, BiFunction<? super T, ? super K, ? extends V> find,
				Function<? super V, ? extends R> use) {
			return use.apply(find.apply(this.target, key));
		}

	}

}
