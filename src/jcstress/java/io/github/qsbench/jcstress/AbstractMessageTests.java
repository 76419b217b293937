package io.github.qsbench.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.github.qsbench.core.thesis.AbstractMessage;
import io.github.qsbench.core.thesis.AtomicMessage;
import io.github.qsbench.core.thesis.PojoMessage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * The thesis's message state machines raced by two threads with no guard around them, as
 * {@code ConcurrentQSWithAtomicMessage} and {@code ConcurrentQSWithPojoMessage} do. In
 * {@link AtomicMessage} every change is one compare-and-set of the whole state, so of two
 * racing grabs or completions exactly one wins: a double grab or a double completion is
 * FORBIDDEN. {@link PojoMessage}'s plain read-then-write fields let two consumers both
 * grab one message (that strategy's at-least-once delivery) and two completions both win;
 * the strategies that guard the queue never let this happen.
 *
 * <p>
 * Each race is written once, in an abstract class; jcstress runs one annotated class per
 * message, which carries that message's outcomes (jcstress 0.16 counts no observations
 * against outcomes shared through {@code @JCStressMeta}). Outcomes read
 * {@code actor1, actor2, arbiter}.
 */
public final class AbstractMessageTests {

	static final byte[] BODY = { 'b' };

	static final long NOW = 1_000;

	static final long LEASE = 30_000;

	private AbstractMessageTests() {
	}

	/** A message delivered once at time 0, its lease expired by {@link #NOW}. */
	static <M extends AbstractMessage> M expired(M message) {
		message.tryGrab(0, 10);
		return message;
	}

	/** Two consumers grab one ready message at once. */
	abstract static class GrabGrab {

		final AbstractMessage message;

		GrabGrab(AbstractMessage message) {
			this.message = message;
		}

		void consumer1(LLL_Result r) {
			r.r1 = this.message.tryGrab(NOW, LEASE);
		}

		void consumer2(LLL_Result r) {
			r.r2 = this.message.tryGrab(NOW, LEASE);
		}

		void deliveries(LLL_Result r) {
			r.r3 = this.message.deliveries();
		}

	}

	@JCStressTest
	@Description("Two consumers grab one ready AtomicMessage at once.")
	@Outcome(id = { "GRABBED, DECLINED_IN_FLIGHT, 1", "DECLINED_IN_FLIGHT, GRABBED, 1" }, expect = ACCEPTABLE,
			desc = "One consumer grabbed it, the other saw it in flight: delivered once.")
	@Outcome(id = "GRABBED, GRABBED, .*", expect = FORBIDDEN,
			desc = "Both grabbed it: double delivery, which compare-and-set must prevent.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody grabbed a ready message, or it looks completed.")
	@State
	public static class AtomicGrabGrab extends GrabGrab {

		public AtomicGrabGrab() {
			super(new AtomicMessage(1, BODY));
		}

		@Actor
		public void actor1(LLL_Result r) {
			consumer1(r);
		}

		@Actor
		public void actor2(LLL_Result r) {
			consumer2(r);
		}

		@Arbiter
		public void arbiter(LLL_Result r) {
			deliveries(r);
		}

	}

	@JCStressTest
	@Description("Two consumers grab one ready PojoMessage at once.")
	@Outcome(id = { "GRABBED, DECLINED_IN_FLIGHT, 1", "DECLINED_IN_FLIGHT, GRABBED, 1" }, expect = ACCEPTABLE,
			desc = "One consumer grabbed it, the other saw it in flight: delivered once.")
	@Outcome(id = "GRABBED, GRABBED, 2", expect = ACCEPTABLE_INTERESTING,
			desc = "Both grabbed it: double delivery, counted twice (the at-least-once race).")
	@Outcome(id = "GRABBED, GRABBED, 1", expect = ACCEPTABLE_INTERESTING,
			desc = "Both grabbed it and one increment of deliveries was lost: double delivery counted once.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody grabbed a ready message, or it looks completed.")
	@State
	public static class PojoGrabGrab extends GrabGrab {

		public PojoGrabGrab() {
			super(new PojoMessage(1, BODY));
		}

		@Actor
		public void actor1(LLL_Result r) {
			consumer1(r);
		}

		@Actor
		public void actor2(LLL_Result r) {
			consumer2(r);
		}

		@Arbiter
		public void arbiter(LLL_Result r) {
			deliveries(r);
		}

	}

	/**
	 * A consumer grabs a message whose lease expired while its first consumer completes
	 * it late.
	 */
	abstract static class GrabComplete {

		final AbstractMessage message;

		GrabComplete(AbstractMessage expired) {
			this.message = expired;
		}

		void consumer(LLL_Result r) {
			r.r1 = this.message.tryGrab(NOW, LEASE);
		}

		void completer(LLL_Result r) {
			r.r2 = this.message.complete();
		}

		void status(LLL_Result r) {
			r.r3 = this.message.status(NOW);
		}

	}

	@JCStressTest
	@Description("A consumer grabs an AtomicMessage whose lease expired while its first consumer completes it late.")
	@Outcome(id = "GRABBED, true, COMPLETED", expect = ACCEPTABLE,
			desc = "Grab first, then complete: redelivered once more, then completed.")
	@Outcome(id = "DECLINED_COMPLETED, true, COMPLETED", expect = ACCEPTABLE,
			desc = "Complete first: the grab sees it completed.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: the completion was lost, or neither happened.")
	@State
	public static class AtomicGrabComplete extends GrabComplete {

		public AtomicGrabComplete() {
			super(expired(new AtomicMessage(1, BODY)));
		}

		@Actor
		public void actor1(LLL_Result r) {
			consumer(r);
		}

		@Actor
		public void actor2(LLL_Result r) {
			completer(r);
		}

		@Arbiter
		public void arbiter(LLL_Result r) {
			status(r);
		}

	}

	@JCStressTest
	@Description("A consumer grabs a PojoMessage whose lease expired while its first consumer completes it late.")
	@Outcome(id = "GRABBED, true, COMPLETED", expect = ACCEPTABLE,
			desc = "Grab first, then complete: redelivered once more, then completed.")
	@Outcome(id = "DECLINED_COMPLETED, true, COMPLETED", expect = ACCEPTABLE,
			desc = "Complete first: the grab sees it completed.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: the completion was lost, or neither happened.")
	@State
	public static class PojoGrabComplete extends GrabComplete {

		public PojoGrabComplete() {
			super(expired(new PojoMessage(1, BODY)));
		}

		@Actor
		public void actor1(LLL_Result r) {
			consumer(r);
		}

		@Actor
		public void actor2(LLL_Result r) {
			completer(r);
		}

		@Arbiter
		public void arbiter(LLL_Result r) {
			status(r);
		}

	}

	/** Two threads complete one delivered message at once. */
	abstract static class CompleteComplete {

		final AbstractMessage message;

		CompleteComplete(AbstractMessage message) {
			this.message = message;
			message.tryGrab(0, LEASE);
		}

		void completer1(ZZ_Result r) {
			r.r1 = this.message.complete();
		}

		void completer2(ZZ_Result r) {
			r.r2 = this.message.complete();
		}

	}

	@JCStressTest
	@Description("Two threads complete one delivered AtomicMessage at once.")
	@Outcome(id = { "true, false", "false, true" }, expect = ACCEPTABLE, desc = "Exactly one completion wins.")
	@Outcome(id = "true, true", expect = FORBIDDEN, desc = "Both completions won, which compare-and-set must prevent.")
	@Outcome(expect = FORBIDDEN, desc = "Nobody completed it.")
	@State
	public static class AtomicCompleteComplete extends CompleteComplete {

		public AtomicCompleteComplete() {
			super(new AtomicMessage(1, BODY));
		}

		@Actor
		public void actor1(ZZ_Result r) {
			completer1(r);
		}

		@Actor
		public void actor2(ZZ_Result r) {
			completer2(r);
		}

	}

	@JCStressTest
	@Description("Two threads complete one delivered PojoMessage at once.")
	@Outcome(id = { "true, false", "false, true" }, expect = ACCEPTABLE, desc = "Exactly one completion wins.")
	@Outcome(id = "true, true", expect = ACCEPTABLE_INTERESTING,
			desc = "Both completions won: harmless in the service, whose id index decides which completion counts.")
	@Outcome(expect = FORBIDDEN, desc = "Nobody completed it.")
	@State
	public static class PojoCompleteComplete extends CompleteComplete {

		public PojoCompleteComplete() {
			super(new PojoMessage(1, BODY));
		}

		@Actor
		public void actor1(ZZ_Result r) {
			completer1(r);
		}

		@Actor
		public void actor2(ZZ_Result r) {
			completer2(r);
		}

	}

	/**
	 * A consumer whose lease lapsed completes with its lease (delivery 1) while another
	 * consumer grabs the message again.
	 */
	abstract static class RedeliveryStaleCompletion {

		final AbstractMessage message;

		RedeliveryStaleCompletion(AbstractMessage expired) {
			this.message = expired;
		}

		void consumer(LLL_Result r) {
			r.r1 = this.message.tryGrab(NOW, LEASE);
		}

		void staleCompleter(LLL_Result r) {
			r.r2 = this.message.complete(1);
		}

		void deliveries(LLL_Result r) {
			r.r3 = this.message.deliveries();
		}

	}

	@JCStressTest
	@Description("A consumer whose lease lapsed completes with its lease (delivery 1) while another consumer grabs "
			+ "the AtomicMessage again.")
	@Outcome(id = "GRABBED, STALE_LEASE, 2", expect = ACCEPTABLE,
			desc = "Redelivered first: the stale lease is refused, the new holder has delivery 2.")
	@Outcome(id = "DECLINED_COMPLETED, COMPLETED, 1", expect = ACCEPTABLE,
			desc = "Completed first, by the lease that was still current: nothing to redeliver.")
	@Outcome(id = "GRABBED, COMPLETED, .*", expect = FORBIDDEN,
			desc = "The stale consumer completed the new holder's delivery: what leases must prevent.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else.")
	@State
	public static class AtomicRedeliveryStaleCompletion extends RedeliveryStaleCompletion {

		public AtomicRedeliveryStaleCompletion() {
			super(expired(new AtomicMessage(1, BODY)));
		}

		@Actor
		public void actor1(LLL_Result r) {
			consumer(r);
		}

		@Actor
		public void actor2(LLL_Result r) {
			staleCompleter(r);
		}

		@Arbiter
		public void arbiter(LLL_Result r) {
			deliveries(r);
		}

	}

	@JCStressTest
	@Description("A consumer whose lease lapsed completes with its lease (delivery 1) while another consumer grabs "
			+ "the PojoMessage again, with no guard around it (concurrent-pojo).")
	@Outcome(id = "GRABBED, STALE_LEASE, 2", expect = ACCEPTABLE,
			desc = "Redelivered first: the stale lease is refused, the new holder has delivery 2.")
	@Outcome(id = "DECLINED_COMPLETED, COMPLETED, 1", expect = ACCEPTABLE,
			desc = "Completed first, by the lease that was still current: nothing to redeliver.")
	@Outcome(id = "GRABBED, COMPLETED, .*", expect = ACCEPTABLE_INTERESTING,
			desc = "Both won: the stale consumer completed the new holder's delivery. Plain fields cannot order "
					+ "the check against the grab; only a guard around the message can (at-least-once).")
	@Outcome(expect = ACCEPTABLE_INTERESTING, desc = "Other interleavings of plain fields.")
	@State
	public static class PojoRedeliveryStaleCompletion extends RedeliveryStaleCompletion {

		public PojoRedeliveryStaleCompletion() {
			super(expired(new PojoMessage(1, BODY)));
		}

		@Actor
		public void actor1(LLL_Result r) {
			consumer(r);
		}

		@Actor
		public void actor2(LLL_Result r) {
			staleCompleter(r);
		}

		@Arbiter
		public void arbiter(LLL_Result r) {
			deliveries(r);
		}

	}

}
