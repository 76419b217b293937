package io.github.qsbench.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.github.qsbench.core.AtomicMessage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * {@link AtomicMessage}'s state machine raced by two threads with no guard around it, as
 * {@code ConcurrentQSWithAtomicMessage} does. Every change is one compare-and-set of the
 * whole state, so of two racing grabs or completions exactly one wins: a double grab or a
 * double completion is FORBIDDEN. Outcomes read {@code actor1, actor2, arbiter}.
 *
 * <p>
 * The race shapes repeat those of the other message suites, and each other, on purpose:
 * jcstress runs one annotated class per race, and each message class has outcomes of its
 * own.
 */
public final class AtomicMessageTests {

	static final byte[] BODY = { 'b' };

	static final long NOW = 1_000;

	static final long LEASE = 30_000;

	private AtomicMessageTests() {
	}

	@JCStressTest
	@Description("Two consumers grab one ready AtomicMessage at once.")
	@Outcome(id = { "GRABBED, DECLINED_IN_FLIGHT, 1", "DECLINED_IN_FLIGHT, GRABBED, 1" }, expect = ACCEPTABLE,
			desc = "One consumer grabbed it, the other saw it in flight: delivered once.")
	@Outcome(id = "GRABBED, GRABBED, .*", expect = FORBIDDEN,
			desc = "Both grabbed it: double delivery, which compare-and-set must prevent.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: nobody grabbed a ready message, or it looks completed.")
	@State
	public static class GrabGrab {

		private final AtomicMessage message = new AtomicMessage(1, BODY);

		@Actor
		public void consumer1(LLL_Result r) {
			r.r1 = this.message.tryGrab(NOW, LEASE);
		}

		@Actor
		public void consumer2(LLL_Result r) {
			r.r2 = this.message.tryGrab(NOW, LEASE);
		}

		@Arbiter
		public void deliveries(LLL_Result r) {
			r.r3 = this.message.deliveries();
		}

	}

	@JCStressTest
	@Description("A consumer grabs a AtomicMessage whose lease expired while its first consumer completes it late.")
	@Outcome(id = "GRABBED, true, COMPLETED", expect = ACCEPTABLE,
			desc = "Grab first, then complete: redelivered once more, then completed.")
	@Outcome(id = "DECLINED_COMPLETED, true, COMPLETED", expect = ACCEPTABLE,
			desc = "Complete first: the grab sees it completed.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else: the completion was lost, or neither happened.")
	@State
	public static class GrabComplete {

		private final AtomicMessage message = new AtomicMessage(1, BODY);

		public GrabComplete() {
			// delivered once at time 0; its lease has expired by NOW
			this.message.tryGrab(0, 10);
		}

		@Actor
		public void consumer(LLL_Result r) {
			r.r1 = this.message.tryGrab(NOW, LEASE);
		}

		@Actor
		public void completer(LLL_Result r) {
			r.r2 = this.message.complete();
		}

		@Arbiter
		public void status(LLL_Result r) {
			r.r3 = this.message.status(NOW);
		}

	}

	@JCStressTest
	@Description("Two threads complete one delivered AtomicMessage at once.")
	@Outcome(id = { "true, false", "false, true" }, expect = ACCEPTABLE, desc = "Exactly one completion wins.")
	@Outcome(id = "true, true", expect = FORBIDDEN, desc = "Both completions won, which compare-and-set must prevent.")
	@Outcome(expect = FORBIDDEN, desc = "Nobody completed it.")
	@State
	public static class CompleteComplete {

		private final AtomicMessage message = new AtomicMessage(1, BODY);

		public CompleteComplete() {
			this.message.tryGrab(0, LEASE);
		}

		@Actor
		public void completer1(ZZ_Result r) {
			r.r1 = this.message.complete();
		}

		@Actor
		public void completer2(ZZ_Result r) {
			r.r2 = this.message.complete();
		}

	}

	@JCStressTest
	@Description("A consumer whose lease lapsed completes with its lease (delivery 1) while another consumer grabs "
			+ "the message again.")
	@Outcome(id = "GRABBED, STALE_LEASE, 2", expect = ACCEPTABLE,
			desc = "Redelivered first: the stale lease is refused, the new holder has delivery 2.")
	@Outcome(id = "DECLINED_COMPLETED, COMPLETED, 1", expect = ACCEPTABLE,
			desc = "Completed first, by the lease that was still current: nothing to redeliver.")
	@Outcome(id = "GRABBED, COMPLETED, .*", expect = FORBIDDEN,
			desc = "The stale consumer completed the new holder's delivery: what leases must prevent.")
	@Outcome(expect = FORBIDDEN, desc = "Anything else.")
	@State
	public static class RedeliveryStaleCompletion {

		private final AtomicMessage message = new AtomicMessage(1, BODY);

		public RedeliveryStaleCompletion() {
			// delivered once at time 0; its lease has expired by NOW
			this.message.tryGrab(0, 10);
		}

		@Actor
		public void consumer(LLL_Result r) {
			r.r1 = this.message.tryGrab(NOW, LEASE);
		}

		@Actor
		public void staleCompleter(LLL_Result r) {
			r.r2 = this.message.complete(1);
		}

		@Arbiter
		public void deliveries(LLL_Result r) {
			r.r3 = this.message.deliveries();
		}

	}

}
