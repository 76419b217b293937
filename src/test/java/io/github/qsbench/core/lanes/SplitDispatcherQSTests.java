package io.github.qsbench.core.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.Message;
import io.github.qsbench.core.QueueOptions;

import org.junit.jupiter.api.Test;

/**
 * What the contract suite cannot see of the dispatcher strategy: it keeps a list per
 * producing thread, and the lists of threads that have ended go once drained, so that
 * short-lived threads (a virtual thread per request, a pool replacing idle threads) do
 * not pile them up. The wait for the dispatcher thread is bounded; nothing is timed.
 */
class SplitDispatcherQSTests {

	@Test
	void listsOfEndedThreads_areDropped_andNothingTheyPushedIsLost() throws Exception {
		try (SplitDispatcherQS service = new SplitDispatcherQS(
				new QueueOptions(Duration.ofSeconds(30), Eviction.LAZY, InstantSource.system(), true))) {
			for (int i = 0; i < 200; i++) {
				int n = i;
				Thread producer = new Thread(() -> service.push("q", "m" + n));
				producer.start();
				producer.join();
			}

			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (service.producerCount() > 0 && System.nanoTime() < deadline) {
				Thread.onSpinWait();
			}

			assertThat(service.producerCount()).as("lists of ended threads").isZero();
			Set<String> polled = new HashSet<>();
			List<Message> messages = new ArrayList<>();
			Message message;
			while ((message = service.poll("q").orElse(null)) != null) {
				messages.add(message);
				polled.add(message.text());
			}
			assertThat(messages).hasSize(200);
			assertThat(polled).hasSize(200);
		}
	}

}
