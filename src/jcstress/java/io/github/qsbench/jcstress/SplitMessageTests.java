package io.github.qsbench.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.SplitDelivery;
import io.github.qsbench.core.SplitMessage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLI_Result;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * The split strategies' two compare-and-set words raced by two threads, as they race
 * them: the claim of a {@link SplitDelivery} (the in-flight record of one delivery), and
 * a {@link SplitMessage}'s delivery state, which a redelivery and a completion of the
 * same delivery both change. Outcomes read {@code actor1, actor2, arbiter}.
 *
 * <p>
 * The race shapes repeat those of the other message suites, and each other, on purpose:
 * jcstress runs one annotated class per race, and each message class has outcomes of its
 * own.
 */
public final class SplitMessageTests {

	private SplitMessageTests() {
	}

	/** A message delivered once. */
	static SplitMessage delivered() {
		SplitMessage message = new SplitMessage(1, "q", new byte[] { 'b' });
		message.deliverFirst();
		return message;
	}

	@JCStressTest
	@Description("Two polls claim the in-flight record of one expired delivery at once.")
	@Outcome(id = { "true, false, true", "false, true, true" }, expect = ACCEPTABLE,
			desc = "One claimer moves or drops the record; the other leaves it alone.")
	@Outcome(id = "true, true, .*", expect = FORBIDDEN,
			desc = "Both claimed it: the record would be moved twice, the message delivered twice.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody claimed it.")
	@State
	public static class ClaimClaim {

		private final SplitDelivery record = new SplitDelivery(delivered(), 1, 10);

		@Actor
		public void poll1(ZZZ_Result r) {
			r.r1 = this.record.claim();
		}

		@Actor
		public void poll2(ZZZ_Result r) {
			r.r2 = this.record.claim();
		}

		@Arbiter
		public void claimed(ZZZ_Result r) {
			r.r3 = this.record.isClaimed();
		}

	}

	@JCStressTest
	@Description("The claimer of an expired SplitMessage redelivers it while its first consumer completes "
			+ "that first delivery late.")
	@Outcome(id = "true, STALE_LEASE, 2", expect = ACCEPTABLE,
			desc = "Redelivered first: the late completion names a stale lease and is refused.")
	@Outcome(id = "false, COMPLETED, 1", expect = ACCEPTABLE,
			desc = "Completed first: the redelivery fails and the claimer drops the message.")
	@Outcome(id = "true, COMPLETED, .*", expect = FORBIDDEN, desc = "Both won: a completed message delivered again.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: neither won, or the count is wrong.")
	@State
	public static class RedeliverComplete {

		private final SplitMessage message = delivered();

		@Actor
		public void claimer(LLI_Result r) {
			r.r1 = this.message.redeliver(1);
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
	@Description("Two threads complete one delivered SplitMessage at once, whichever its delivery.")
	@Outcome(id = { "COMPLETED, NOT_FOUND, 1", "NOT_FOUND, COMPLETED, 1" }, expect = ACCEPTABLE,
			desc = "Exactly one completion wins; the other finds it completed.")
	@Outcome(id = "COMPLETED, COMPLETED, .*", expect = FORBIDDEN, desc = "Both completions won.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody completed it.")
	@State
	public static class CompleteComplete {

		private final SplitMessage message = delivered();

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
