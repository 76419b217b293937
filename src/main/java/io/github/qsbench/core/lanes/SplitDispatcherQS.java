package io.github.qsbench.core.lanes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

import io.github.qsbench.core.QueueOptions;

/**
 * Wait-free writers and a single dispatcher, after the vmlens executor service (seed
 * 003), on the split framework: each producing thread appends its messages to a list of
 * its own with a plain write and one release store, never contending with anyone, and one
 * dispatcher thread per service moves them on to their queues' ready queues, of which it
 * is then the only producer. Exactly-once as {@link AbstractSplitQS} explains: a message
 * is dispatched once (only the holder of the dispatch role reads the lists) and the ready
 * queue hands it to one consumer.
 *
 * <p>
 * The trade the vmlens author reports is throughput for latency: a push is not pollable
 * until a dispatch pass has moved it. Here the dispatcher thread spins, then yields, then
 * parks for {@value #PARK_MICROS} µs between empty passes, so an idle service takes up to
 * that long to move a message. A poll (or lease, or HEAD) that finds nothing ready does
 * not wait for it: it takes the dispatch role itself (waiting only for a pass in
 * progress) and moves everything pushed before it, then looks again, so a push followed
 * by a poll always finds the message, at the cost of that pass.
 *
 * <p>
 * The dispatcher is a daemon thread started by the constructor; {@link #close()} stops it
 * (Spring calls it at shutdown; each JMH iteration and test closes its own).
 */
public final class SplitDispatcherQS extends AbstractSplitQS {

	static final long PARK_MICROS = 50;

	/**
	 * Messages the dispatcher thread moves from one producer before it visits the next.
	 */
	private static final int BATCH = 1024;

	/** Dispatch passes between two looks for lists of threads that have ended. */
	private static final int PRUNE_EVERY = 256;

	private static final AtomicInteger SERVICES = new AtomicInteger();

	private final ThreadLocal<Producer> producer = ThreadLocal.withInitial(this::register);

	/** Every producing thread's list, copied on write. */
	private volatile Producer[] producers = new Producer[0];

	/** Who may read the producers' lists: the dispatcher thread, or a poll helping it. */
	private final ReentrantLock dispatching = new ReentrantLock();

	private final Thread dispatcher;

	private volatile boolean closed;

	public SplitDispatcherQS(QueueOptions options) {
		this(options, true);
	}

	/**
	 * @param dispatcherThread {@code false} leaves all dispatching to polls that find
	 * nothing ready: the design with its background part removed, which is what a checker
	 * that must schedule every thread itself (Lincheck) can explore
	 */
	public SplitDispatcherQS(QueueOptions options, boolean dispatcherThread) {
		super(() -> new MpmcUnboundedXaddArrayQueue<>(SplitJCToolsQS.CHUNK, SplitJCToolsQS.POOLED_CHUNKS), options);
		if (dispatcherThread) {
			this.dispatcher = new Thread(this::dispatchUntilClosed, "qs-dispatcher-" + SERVICES.incrementAndGet());
			this.dispatcher.setDaemon(true);
			this.dispatcher.start();
		}
		else {
			this.dispatcher = null;
		}
	}

	/** Wait-free: a new node and two release stores. */
	@Override
	protected void enqueue(SplitLane lane, SplitMessage message) {
		this.producer.get().append(new Node(lane, message));
	}

	private synchronized Producer register() {
		Producer added = new Producer(Thread.currentThread());
		Producer[] current = this.producers;
		Producer[] grown = Arrays.copyOf(current, current.length + 1);
		grown[current.length] = added;
		this.producers = grown;
		return added;
	}

	/**
	 * Moves everything pushed before this call: takes the dispatch role (after the pass
	 * in progress, if any) and drains every list as far as its end at the time of the
	 * call, unless nothing is pending. Answers {@code true} even then: another thread's
	 * pass may have moved the caller's message after it found its ready queue empty and
	 * before this look (Lincheck found that interleaving), so the caller must look once
	 * more.
	 */
	@Override
	protected boolean flush() {
		Producer[] all = this.producers;
		Node[] ends = null;
		for (int i = 0; i < all.length; i++) {
			Node end = all[i].end();
			if (end != all[i].read()) {
				if (ends == null) {
					ends = new Node[all.length];
				}
				ends[i] = end;
			}
		}
		if (ends != null) {
			this.dispatching.lock();
			try {
				for (int i = 0; i < all.length; i++) {
					if (ends[i] != null && !ends[i].dispatched()) {
						all[i].dispatchTo(ends[i], Integer.MAX_VALUE);
					}
				}
			}
			finally {
				this.dispatching.unlock();
			}
		}
		return true;
	}

	private void dispatchUntilClosed() {
		int idle = 0;
		long passes = 0;
		while (!this.closed) {
			int moved = 0;
			if (this.dispatching.tryLock()) {
				try {
					for (Producer each : this.producers) {
						moved += each.dispatchTo(null, BATCH);
					}
					if (++passes % PRUNE_EVERY == 0) {
						pruneFinished();
					}
				}
				finally {
					this.dispatching.unlock();
				}
			}
			if (moved > 0) {
				idle = 0;
			}
			else if (++idle < 100) {
				Thread.onSpinWait();
			}
			else if (idle < 200) {
				Thread.yield();
			}
			else {
				LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(PARK_MICROS));
			}
		}
	}

	/**
	 * Drops the lists of threads that have ended and whose messages were all dispatched,
	 * so that the lists stay as many as the threads that push now: with virtual request
	 * threads every request is a new thread, and with platform threads a pool replaces
	 * idle ones. Holding the dispatch role, so no pass reads a list as it goes, and the
	 * monitor of {@link #register}, so no list registered meanwhile is lost; a thread
	 * that has ended appends nothing more, so its drained list stays drained.
	 */
	private synchronized void pruneFinished() {
		Producer[] all = this.producers;
		for (Producer each : all) {
			if (each.isFinished()) {
				this.producers = Arrays.stream(all).filter((p) -> !p.isFinished()).toArray(Producer[]::new);
				return;
			}
		}
	}

	/** Lists of producing threads kept now. */
	int producerCount() {
		return this.producers.length;
	}

	/**
	 * Stops the dispatcher thread. The service still works: a poll that finds nothing
	 * ready dispatches what was pushed.
	 */
	@Override
	public void close() {
		this.closed = true;
		if (this.dispatcher == null) {
			return;
		}
		LockSupport.unpark(this.dispatcher);
		try {
			this.dispatcher.join(TimeUnit.SECONDS.toMillis(5));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * One message on its way to a lane; the last one dispatched stays as the list's head.
	 */
	private static final class Node {

		private static final VarHandle NEXT;

		static {
			try {
				NEXT = MethodHandles.lookup().findVarHandle(Node.class, "next", Node.class);
			}
			catch (ReflectiveOperationException ex) {
				throw new ExceptionInInitializerError(ex);
			}
		}

		private SplitLane lane;

		private SplitMessage message;

		@SuppressWarnings("unused") // through NEXT
		private Node next;

		Node(SplitLane lane, SplitMessage message) {
			this.lane = lane;
			this.message = message;
		}

		Node next() {
			return (Node) NEXT.getAcquire(this);
		}

		/**
		 * Under the dispatch role: whether a pass already moved it (or it is a start).
		 */
		boolean dispatched() {
			return this.lane == null;
		}

	}

	/**
	 * One thread's list: only that thread appends (at {@code tail}), only the holder of
	 * the dispatch role reads (from {@code read}).
	 */
	private static final class Producer {

		private static final VarHandle TAIL;

		private static final VarHandle READ;

		static {
			try {
				TAIL = MethodHandles.lookup().findVarHandle(Producer.class, "tail", Node.class);
				READ = MethodHandles.lookup().findVarHandle(Producer.class, "read", Node.class);
			}
			catch (ReflectiveOperationException ex) {
				throw new ExceptionInInitializerError(ex);
			}
		}

		/** Written by its thread only; read by flushes to know how far to drain. */
		@SuppressWarnings("unused") // through TAIL
		private Node tail;

		/**
		 * The last node dispatched; written under the dispatch role only, read without it
		 * to see whether anything is pending.
		 */
		private Node read;

		/** The one thread that appends to this list. */
		private final Thread owner;

		Producer(Thread owner) {
			this.owner = owner;
			Node start = new Node(null, null);
			this.tail = start;
			this.read = start;
		}

		void append(Node node) {
			Node last = (Node) TAIL.get(this);
			Node.NEXT.setRelease(last, node);
			TAIL.setRelease(this, node);
		}

		Node end() {
			return (Node) TAIL.getAcquire(this);
		}

		Node read() {
			return (Node) READ.getAcquire(this);
		}

		/** Its thread has ended and every message it appended was dispatched. */
		boolean isFinished() {
			return !this.owner.isAlive() && read() == end();
		}

		/**
		 * Moves messages to their ready queues, up to {@code until} (inclusive) or
		 * {@code max} of them; forgets each once moved, so a dispatched message is not
		 * kept alive by its list.
		 */
		int dispatchTo(Node until, int max) {
			int moved = 0;
			Node at = this.read;
			Node next;
			while (at != until && moved < max && (next = at.next()) != null) {
				next.lane.ready().offer(next.message);
				next.lane = null;
				next.message = null;
				at = next;
				moved++;
			}
			READ.setRelease(this, at);
			return moved;
		}

	}

}
