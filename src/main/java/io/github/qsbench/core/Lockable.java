package io.github.qsbench.core;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Function;

/**
 * An object together with the way it is made safe to share, so that {@link AbstractQS}
 * can say what kind of access it needs without knowing the object's type or its lock.
 *
 * <p>
 * {@code read} may run concurrently with other reads; {@code write} runs alone;
 * {@code unsafe} bypasses any guard and is only for callers that tolerate a stale or racy
 * answer.
 */
public interface Lockable<T> {

	<R> R read(Function<? super T, ? extends R> action);

	<R> R write(Function<? super T, ? extends R> action);

	<R> R unsafe(Function<? super T, ? extends R> action);

	/** Every access, read or write, runs under one {@code synchronized} monitor. */
	static <T> Lockable<T> mutex(T target) {
		return new Mutex<>(target);
	}

	/** Reads share the read lock, writes take the write lock. */
	static <T> Lockable<T> readWrite(T target, ReadWriteLock lock) {
		return new ReadWriteLocked<>(target, lock);
	}

	/**
	 * No guard at all: for objects that are thread-safe themselves, or guarded by an
	 * enclosing access.
	 */
	static <T> Lockable<T> noLock(T target) {
		return new Unguarded<>(target);
	}

	final class Mutex<T> implements Lockable<T> {

		private final T target;

		private Mutex(T target) {
			this.target = target;
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
		public <R> R unsafe(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

	}

	final class ReadWriteLocked<T> implements Lockable<T> {

		private final T target;

		private final Lock readLock;

		private final Lock writeLock;

		private ReadWriteLocked(T target, ReadWriteLock lock) {
			this.target = target;
			this.readLock = lock.readLock();
			this.writeLock = lock.writeLock();
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
		public <R> R unsafe(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

	}

	final class Unguarded<T> implements Lockable<T> {

		private final T target;

		private Unguarded(T target) {
			this.target = target;
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
		public <R> R unsafe(Function<? super T, ? extends R> action) {
			return action.apply(this.target);
		}

	}

}
