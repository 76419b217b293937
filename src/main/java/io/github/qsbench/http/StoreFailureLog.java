package io.github.qsbench.http;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;

/**
 * The queue store's failed requests (answered 503 on both faces), logged one line a
 * second at most, with how many more it stands for: a failover or a store out of reach
 * fails every request for seconds, tens of thousands of them, for one cause.
 */
public final class StoreFailureLog {

	private static final Logger logger = LoggerFactory.getLogger(StoreFailureLog.class);

	private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final StoreFailureLog SHARED = new StoreFailureLog(System::nanoTime);

	private final LongSupplier nanoTime;

	/** When the next line may be written; a line moves it on by a second. */
	private final AtomicLong nextLine;

	private final LongAdder unlogged = new LongAdder();

	StoreFailureLog(LongSupplier nanoTime) {
		this.nanoTime = nanoTime;
		this.nextLine = new AtomicLong(nanoTime.getAsLong());
	}

	/**
	 * Logs the failure with the store's own words, or counts it for the next line.
	 * @param request what failed, for the line (an SQS action, a REST request)
	 */
	public static void failed(String request, DataAccessException ex) {
		SHARED.log(request, ex);
	}

	void log(String request, DataAccessException ex) {
		long now = this.nanoTime.getAsLong();
		long next = this.nextLine.get();
		if (now - next < 0 || !this.nextLine.compareAndSet(next, now + INTERVAL_NANOS)) {
			this.unlogged.increment();
			return;
		}
		long more = this.unlogged.sumThenReset();
		logger.warn("The queue store failed {}: {}{}", request, ex.getMostSpecificCause(),
				(more > 0) ? " (and " + more + " more requests since the last such line)" : "");
	}

}
