package io.github.qsbench.sqs;

import io.github.qsbench.http.ClockedHttpTestBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A {@link ClockedHttpTestBase} with an AWS SDK v2 client (AWS JSON 1.0) for each test.
 */
abstract class SqsV2HttpTestBase extends ClockedHttpTestBase {

	SqsClient sqs;

	@BeforeEach
	void startSqsClient() {
		this.sqs = SqsClients.v2(this.port);
	}

	@AfterEach
	void closeSqsClient() {
		this.sqs.close();
	}

}
