package io.github.qsbench.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.github.qsbench.core.shared.CompletableMessage;
import io.github.qsbench.core.lanes.LaneMessage;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.lanes.SplitDelivery;
import io.github.qsbench.core.lanes.SplitMessage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLI_Result;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * The lanes frameworks' races on a message, as they race them: a completion takes no lock
 * (in lane-locked, the {@link LaneMessage}'s one word of lease end, deliveries and
 * completed bit; in the split strategies, the {@link SplitMessage}'s delivery state), so
 * it meets a redelivery of the same delivery or another completion; and, in the split
 * strategies, the claim of a {@link SplitDelivery}, the in-flight entry of one delivery.
 * Each race is written once, in an abstract class; jcstress runs one annotated class per
 * message, which says how its message is made and delivered again and carries the race's
 * outcomes (jcstress 0.16 counts no observations against outcomes shared through
 * {@code @JCStressMeta}). Outcomes read {@code actor1, actor2, arbiter}.
 */
public final class LanesMessageTests {

	private LanesMessageTests() {
	}

	/** A lane-locked message delivered once, its lease ending at 10. */
	static LaneMessage laneDelivered() {
		LaneMessage message = new LaneMessage(1, new byte[] { 'b' });
		message.deliverFirst(10);
		return message;
	}

	/** A split message delivered once. */
	static SplitMessage splitDelivered() {
		SplitMessage message = new SplitMessage(1, "q", new byte[] { 'b' });
		message.deliverFirst();
		return message;
	}

	/**
	 * A poll delivers an expired message again while its first consumer completes that
	 * first delivery late.
	 */
	abstract static class RedeliverComplete {

		final CompletableMessage message;

		RedeliverComplete(CompletableMessage message) {
			this.message = message;
		}

		/** The second delivery of the message, as a poll makes it. */
		abstract boolean redeliver();

		void poll(LLI_Result r) {
			r.r1 = redeliver();
		}

		void lateConsumer(LLI_Result r) {
			r.r2 = this.message.complete(1);
		}

		void deliveries(LLI_Result r) {
			r.r3 = this.message.deliveries();
		}

	}

	@JCStressTest
	@Description("A poll redelivers an expired LaneMessage while its first consumer completes that first delivery late.")
	@Outcome(id = "true, STALE_LEASE, 2", expect = ACCEPTABLE,
			desc = "Redelivered first: the late completion names a stale lease and is refused.")
	@Outcome(id = "false, COMPLETED, 1", expect = ACCEPTABLE,
			desc = "Completed first: the redelivery fails and the poll drops the message.")
	@Outcome(id = "true, COMPLETED, .*", expect = FORBIDDEN, desc = "Both won: a completed message delivered again.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: neither won, or the count is wrong.")
	@State
	public static class LaneRedeliverComplete extends RedeliverComplete {

		public LaneRedeliverComplete() {
			super(laneDelivered());
		}

		@Override
		boolean redeliver() {
			return ((LaneMessage) this.message).redeliver(20);
		}

		@Actor
		public void actor1(LLI_Result r) {
			poll(r);
		}

		@Actor
		public void actor2(LLI_Result r) {
			lateConsumer(r);
		}

		@Arbiter
		public void arbiter(LLI_Result r) {
			deliveries(r);
		}

	}

	@JCStressTest
	@Description("The claimer of an expired SplitMessage redelivers it while its first consumer completes that first "
			+ "delivery late.")
	@Outcome(id = "true, STALE_LEASE, 2", expect = ACCEPTABLE,
			desc = "Redelivered first: the late completion names a stale lease and is refused.")
	@Outcome(id = "false, COMPLETED, 1", expect = ACCEPTABLE,
			desc = "Completed first: the redelivery fails and the poll drops the message.")
	@Outcome(id = "true, COMPLETED, .*", expect = FORBIDDEN, desc = "Both won: a completed message delivered again.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: neither won, or the count is wrong.")
	@State
	public static class SplitRedeliverComplete extends RedeliverComplete {

		public SplitRedeliverComplete() {
			super(splitDelivered());
		}

		@Override
		boolean redeliver() {
			return ((SplitMessage) this.message).redeliver(1);
		}

		@Actor
		public void actor1(LLI_Result r) {
			poll(r);
		}

		@Actor
		public void actor2(LLI_Result r) {
			lateConsumer(r);
		}

		@Arbiter
		public void arbiter(LLI_Result r) {
			deliveries(r);
		}

	}

	/** Two threads complete one delivered message at once, whichever its delivery. */
	abstract static class CompleteComplete {

		final CompletableMessage message;

		CompleteComplete(CompletableMessage message) {
			this.message = message;
		}

		void completer1(LLI_Result r) {
			r.r1 = this.message.complete(QueueServiceCore.ANY_DELIVERY);
		}

		void completer2(LLI_Result r) {
			r.r2 = this.message.complete(QueueServiceCore.ANY_DELIVERY);
		}

		void completed(LLI_Result r) {
			r.r3 = this.message.isCompleted() ? 1 : 0;
		}

	}

	@JCStressTest
	@Description("Two threads complete one delivered LaneMessage at once, whichever its delivery.")
	@Outcome(id = { "COMPLETED, NOT_FOUND, 1", "NOT_FOUND, COMPLETED, 1" }, expect = ACCEPTABLE,
			desc = "Exactly one completion wins; the other finds it completed.")
	@Outcome(id = "COMPLETED, COMPLETED, .*", expect = FORBIDDEN, desc = "Both completions won.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody completed it.")
	@State
	public static class LaneCompleteComplete extends CompleteComplete {

		public LaneCompleteComplete() {
			super(laneDelivered());
		}

		@Actor
		public void actor1(LLI_Result r) {
			completer1(r);
		}

		@Actor
		public void actor2(LLI_Result r) {
			completer2(r);
		}

		@Arbiter
		public void arbiter(LLI_Result r) {
			completed(r);
		}

	}

	@JCStressTest
	@Description("Two threads complete one delivered SplitMessage at once, whichever its delivery.")
	@Outcome(id = { "COMPLETED, NOT_FOUND, 1", "NOT_FOUND, COMPLETED, 1" }, expect = ACCEPTABLE,
			desc = "Exactly one completion wins; the other finds it completed.")
	@Outcome(id = "COMPLETED, COMPLETED, .*", expect = FORBIDDEN, desc = "Both completions won.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody completed it.")
	@State
	public static class SplitCompleteComplete extends CompleteComplete {

		public SplitCompleteComplete() {
			super(splitDelivered());
		}

		@Actor
		public void actor1(LLI_Result r) {
			completer1(r);
		}

		@Actor
		public void actor2(LLI_Result r) {
			completer2(r);
		}

		@Arbiter
		public void arbiter(LLI_Result r) {
			completed(r);
		}

	}

	@JCStressTest
	@Description("Two polls claim the in-flight entry of one expired split delivery at once.")
	@Outcome(id = { "true, false, true", "false, true, true" }, expect = ACCEPTABLE,
			desc = "One claimer moves or drops the entry; the other leaves it alone.")
	@Outcome(id = "true, true, .*", expect = FORBIDDEN,
			desc = "Both claimed it: the entry would be moved twice, the message delivered twice.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody claimed it.")
	@State
	public static class SplitClaimClaim {

		private final SplitDelivery record = new SplitDelivery(splitDelivered(), 1, 10);

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

}
