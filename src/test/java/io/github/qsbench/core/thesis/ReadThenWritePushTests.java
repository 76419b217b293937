package io.github.qsbench.core.thesis;

import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.MutableClock;
import io.github.qsbench.core.QueueOptions;
import io.github.qsbench.core.QueueStats;
import io.github.qsbench.core.TestBodies;
import io.github.qsbench.core.shared.IdIndex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.junit.jupiter.api.Test;

/**
 * What {@link QSConfiguration#readThenWritePush(boolean)} changes: a push to an existing
 * queue needs only read access of the map (it goes through while another thread holds the
 * map's read lock), a push that creates its queue still needs write access, and a map
 * that cannot exclude writers from a read access is refused. That it loses nothing under
 * contention is {@code ConcurrentDeliveryTests}' and Lincheck's part.
 */
class ReadThenWritePushTests {

	private static final QueueOptions OPTIONS = new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY,
			new MutableClock(), true);

	private final ReentrantReadWriteLock mapLock = new ReentrantReadWriteLock();

	private final AbstractQS<PojoMessage> service = new ReadPushService(
			Lockable.readWrite(new HashMap<>(), this.mapLock));

	@Test
	void pushToExistingQueue_whileTheMapIsReadLocked_goesThrough() throws Exception {
		this.service.push("q", "creates the queue");
		this.mapLock.readLock().lock();
		try {
			CompletableFuture<Message> pushed = CompletableFuture.supplyAsync(() -> this.service.push("q", "second"));

			assertThat(pushed.get(10, TimeUnit.SECONDS).text()).isEqualTo("second");
			assertThat(this.service.pushAll("q", TestBodies.utf8("third", "fourth"))).hasSize(2);
		}
		finally {
			this.mapLock.readLock().unlock();
		}
		assertThat(this.service.queue("q")).contains(new QueueStats("q", 4, 0));
	}

	@Test
	void pushToNewQueue_waitsForTheMapsWriteLock() throws Exception {
		this.mapLock.readLock().lock();
		CompletableFuture<Message> pushed;
		try {
			pushed = CompletableFuture.supplyAsync(() -> this.service.push("new", "creates the queue"));
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (!this.mapLock.hasQueuedThreads() && System.nanoTime() < deadline) {
				Thread.onSpinWait();
			}
			assertThat(this.mapLock.hasQueuedThreads()).as("the push waits for the write lock").isTrue();
			assertThat(pushed).isNotDone();
		}
		finally {
			this.mapLock.readLock().unlock();
		}
		assertThat(pushed.get(10, TimeUnit.SECONDS).text()).isEqualTo("creates the queue");
	}

	@Test
	void noLockMap_refused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ReadPushService(Lockable.noLock(new ConcurrentHashMap<>())))
			.withMessageContaining("read access excludes writes");
	}

	/** HashMap and ArrayDeque, each queue under its own read-write lock. */
	private static final class ReadPushService extends AbstractQS<PojoMessage> {

		ReadPushService(Lockable<Map<String, Lockable<MessageQueue<PojoMessage>>>> map) {
			super(QSConfiguration.messages(PojoMessage::new)
				.map(map)
				.queues(ArrayDeque::new, queue -> Lockable.readWrite(queue, new ReentrantReadWriteLock()))
				.index(IdIndex::plain)
				.readThenWritePush(true), OPTIONS);
		}

	}

}
