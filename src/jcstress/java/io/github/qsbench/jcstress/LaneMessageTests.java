package io.github.qsbench.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.github.qsbench.core.LaneMessage;
import io.github.qsbench.core.QueueServiceCore;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLI_Result;

/**
 * The lane-locked strategy's one race on a message: a completion takes no lock, so it
 * meets a redelivery (made under the queue's lock) or another completion on the
 * {@link LaneMessage}'s one word of lease expiry, deliveries and completed bit. Outcomes
 * read {@code actor1, actor2, arbiter}.
 *
 * <p>
 * The race shapes repeat those of the other message suites, and each other, on purpose:
 * jcstress runs one annotated class per race, and each message class has outcomes of its
 * own.
 */
public final class LaneMessageTests {

	private LaneMessageTests() {
	}

	/** A message delivered once, its lease ending at 10. */
	static LaneMessage delivered() {
		LaneMessage message = new LaneMessage(1, new byte[] { 'b' });
		message.deliverFirst(10);
		return message;
	}

	@JCStressTest
	@Description("A poll redelivers an expired LaneMessage while its first consumer completes that first "
			+ "delivery late.")
	@Outcome(id = "true, STALE_LEASE, 2", expect = ACCEPTABLE,
			desc = "Redelivered first: the late completion names a stale lease and is refused.")
	@Outcome(id = "false, COMPLETED, 1", expect = ACCEPTABLE,
			desc = "Completed first: the redelivery fails and the poll drops the message.")
	@Outcome(id = "true, COMPLETED, .*", expect = FORBIDDEN, desc = "Both won: a completed message delivered again.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: neither won, or the count is wrong.")
	@State
	public static class RedeliverComplete {

		private final LaneMessage message = delivered();

		@Actor
		public void poll(LLI_Result r) {
			r.r1 = this.message.redeliver(20);
		}

		@Actor
		public void lateConsumer(LLI_Result r) {
			r.r2 = this.message.complete(1);
		}

		@Arbiter
		public void deliveries(LLI_Result r) {
			r.r3 = this.message.deliveries();
		}

	}

	@JCStressTest
	@Description("Two threads complete one delivered LaneMessage at once, whichever its delivery.")
	@Outcome(id = { "COMPLETED, NOT_FOUND, 1", "NOT_FOUND, COMPLETED, 1" }, expect = ACCEPTABLE,
			desc = "Exactly one completion wins; the other finds it completed.")
	@Outcome(id = "COMPLETED, COMPLETED, .*", expect = FORBIDDEN, desc = "Both completions won.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody completed it.")
	@State
	public static class CompleteComplete {

		private final LaneMessage message = delivered();

		@Actor
		public void completer1(LLI_Result r) {
			r.r1 = this.message.complete(QueueServiceCore.ANY_DELIVERY);
		}

		@Actor
		public void completer2(LLI_Result r) {
			r.r2 = this.message.complete(QueueServiceCore.ANY_DELIVERY);
		}

		@Arbiter
		public void completed(LLI_Result r) {
			r.r3 = this.message.isCompleted() ? 1 : 0;
		}

	}

}
