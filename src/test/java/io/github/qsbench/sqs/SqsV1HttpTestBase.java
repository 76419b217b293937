package io.github.qsbench.sqs;

import com.amazonaws.services.sqs.AmazonSQS;
import io.github.qsbench.http.ClockedHttpTestBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link ClockedHttpTestBase} with an AWS SDK v1 client (the query protocol) for each
 * test.
 */
abstract class SqsV1HttpTestBase extends ClockedHttpTestBase {

	AmazonSQS sqs;

	@BeforeEach
	void startSqsClient() {
		this.sqs = SqsClients.v1(this.port);
	}

	@AfterEach
	void closeSqsClient() {
		this.sqs.shutdown();
	}

}
