package io.github.qsbench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisCommandExecutionException;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;

/** A burst of store failures is one line a second, with the count of the rest. */
@ExtendWith(OutputCaptureExtension.class)
class StoreFailureLogTests {

	private static final DataAccessException REFUSED = new RedisSystemException("Error in execution",
			new RedisCommandExecutionException("NOREPLICAS Not enough good replicas to write."));

	@Test
	void aBurst_oneLine_thenTheNextSecondsLineCountsTheRest(CapturedOutput output) {
		AtomicLong nanos = new AtomicLong(1_000);
		StoreFailureLog log = new StoreFailureLog(nanos::get);

		for (int i = 0; i < 3; i++) {
			log.log("SQS action SendMessage", REFUSED);
		}
		nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(999));
		log.log("a REST request", REFUSED);

		assertThat(output.toString().lines().filter((line) -> line.contains("The queue store failed")))
			.singleElement(InstanceOfAssertFactories.STRING)
			.endsWith("The queue store failed SQS action SendMessage: io.lettuce.core.RedisCommandExecutionException: "
					+ "NOREPLICAS Not enough good replicas to write.");

		nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
		log.log("a REST request", REFUSED);

		assertThat(output.toString()).contains("The queue store failed a REST request: "
				+ "io.lettuce.core.RedisCommandExecutionException: NOREPLICAS Not enough good replicas to write. "
				+ "(and 3 more requests since the last such line)");
	}

}
