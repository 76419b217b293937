package io.github.qsbench.sqs;

import java.net.URI;

import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration;
import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.AmazonSQSClientBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The AWS SDKs' SQS clients against a service on this machine, configured as docs/sqs.md
 * shows (any credentials, us-east-1): one place for every HTTP test of the SQS face.
 */
public final class SqsClients {

	private SqsClients() {
	}

	/**
	 * The AWS SDK for Java v2's client (the JSON protocol) of the service on
	 * {@code port}.
	 */
	public static SqsClient v2(int port) {
		return v2(port, "any", "any");
	}

	/** The same, signing with the key given. */
	static SqsClient v2(int port, String accessKeyId, String secretKey) {
		return SqsClient.builder()
			.endpointOverride(URI.create("http://localhost:" + port))
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretKey)))
			.httpClient(UrlConnectionHttpClient.create())
			.build();
	}

	/**
	 * The AWS SDK for Java v1's client (1.12.583, the last whose SQS client speaks the
	 * query protocol) of the service on {@code port}.
	 */
	static AmazonSQS v1(int port) {
		return v1(port, "any", "any");
	}

	/** The same, signing with the key given. */
	static AmazonSQS v1(int port, String accessKeyId, String secretKey) {
		return AmazonSQSClientBuilder.standard()
			.withEndpointConfiguration(new EndpointConfiguration("http://localhost:" + port, "us-east-1"))
			.withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(accessKeyId, secretKey)))
			.build();
	}

}
