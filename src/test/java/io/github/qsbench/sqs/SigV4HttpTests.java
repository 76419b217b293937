package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.model.AmazonSQSException;

import io.github.qsbench.core.MutableClock;
import io.github.qsbench.http.HttpTestBase;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

/**
 * With {@code qs.security.sigv4.enabled}, the AWS SDKs signing with a configured key are
 * served over both protocols, and everything else is refused with SQS's codes: a wrong
 * secret, an unknown key, no signature, a request signed 16 minutes from the service's
 * clock, a changed body or signed header. A presigned URL works. A second account (B) may
 * do on a queue what its policy allows, an explicit deny first.
 */
@TestPropertySource(properties = { "qs.security.sigv4.enabled=true", "qs.sqs.account-id=" + SigV4HttpTests.OWNER,
		"qs.security.sigv4.keys[0].access-key-id=" + SigV4HttpTests.OWNER_KEY,
		"qs.security.sigv4.keys[0].secret-key=" + SigV4HttpTests.OWNER_SECRET,
		"qs.security.sigv4.keys[0].account-id=" + SigV4HttpTests.OWNER,
		"qs.security.sigv4.keys[1].access-key-id=" + SigV4HttpTests.B_KEY,
		"qs.security.sigv4.keys[1].secret-key=" + SigV4HttpTests.B_SECRET,
		"qs.security.sigv4.keys[1].account-id=" + SigV4HttpTests.B })
@Import(SigV4HttpTests.ClockNow.class)
class SigV4HttpTests extends HttpTestBase {

	static final String OWNER = "111111111111";

	static final String OWNER_KEY = "AKIDOWNER";

	static final String OWNER_SECRET = "owner-secret-0123456789";

	static final String B = "222222222222";

	static final String B_KEY = "AKIDACCOUNTB";

	static final String B_SECRET = "b-secret-0123456789";

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	@Autowired
	MutableClock clock;

	SqsClient owner;

	SqsClient accountB;

	@BeforeEach
	void clients() {
		this.owner = SqsClients.v2(this.port, OWNER_KEY, OWNER_SECRET);
		this.accountB = SqsClients.v2(this.port, B_KEY, B_SECRET);
	}

	@AfterEach
	void close() {
		this.owner.close();
		this.accountB.close();
	}

	@Test
	void signedByAKnownKey_servedOnBothProtocols() {
		String url = this.owner.createQueue(q -> q.queueName("signed")).queueUrl();
		this.owner.sendMessage(m -> m.queueUrl(url).messageBody("json"));
		AmazonSQS v1 = SqsClients.v1(this.port, OWNER_KEY, OWNER_SECRET);
		v1.sendMessage(url, "query");

		assertThat(this.owner.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages()).hasSize(2);
		assertThat(v1.listQueues().getQueueUrls()).contains(url);
		v1.shutdown();
	}

	@Test
	void wrongSecret_unknownKey_refusedWithSqsCodes_onBothProtocols() {
		try (SqsClient wrongSecret = SqsClients.v2(this.port, OWNER_KEY, "not-the-secret");
				SqsClient unknown = SqsClients.v2(this.port, "AKIDNOBODY", OWNER_SECRET)) {
			assertRefused(() -> wrongSecret.listQueues(), "SignatureDoesNotMatch", 403);
			assertRefused(() -> unknown.listQueues(), "InvalidClientTokenId", 403);
		}
		AmazonSQS v1 = SqsClients.v1(this.port, OWNER_KEY, "not-the-secret");
		assertThatExceptionOfType(AmazonSQSException.class).isThrownBy(v1::listQueues)
			.satisfies(ex -> assertThat(ex.getErrorCode()).isEqualTo("SignatureDoesNotMatch"))
			.satisfies(ex -> assertThat(ex.getMessage()).doesNotContain("not-the-secret", OWNER_SECRET));
		v1.shutdown();
	}

	@Test
	void unsigned_missingAuthenticationToken() throws Exception {
		HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/"))
			.header("Content-Type", "application/x-amz-json-1.0")
			.header("X-Amz-Target", "AmazonSQS.ListQueues")
			.POST(BodyPublishers.ofString("{}"))
			.build(), BodyHandlers.ofString());

		assertThat(answer.statusCode()).isEqualTo(403);
		assertThat(answer.body()).contains("MissingAuthenticationToken");
	}

	@Test
	void signedSixteenMinutesFromTheServicesClock_requestExpired_fourteenServed() {
		assertRefusedWithTheClockMoved(Duration.ofMinutes(16));
		assertRefusedWithTheClockMoved(Duration.ofMinutes(-16));
		this.clock.advance(Duration.ofMinutes(14));
		try {
			this.owner.listQueues();
		}
		finally {
			this.clock.advance(Duration.ofMinutes(-14));
		}
	}

	private void assertRefusedWithTheClockMoved(Duration by) {
		this.clock.advance(by);
		try {
			assertRefused(() -> this.owner.listQueues(), "RequestExpired", 400);
		}
		finally {
			this.clock.advance(by.negated());
		}
	}

	@Test
	void changedBodyOrSignedHeader_signatureDoesNotMatch() throws Exception {
		String body = "{\"QueueNamePrefix\":\"a\"}";
		SdkHttpRequest signed = sign(json("ListQueues"), body, false);
		assertThat(send(signed, body).statusCode()).isEqualTo(200);

		HttpResponse<String> tamperedBody = send(signed, "{\"QueueNamePrefix\":\"b\"}");
		assertThat(tamperedBody.statusCode()).isEqualTo(403);
		assertThat(tamperedBody.body()).contains("SignatureDoesNotMatch");

		SdkHttpRequest tamperedHeader = signed.toBuilder().putHeader("X-Amz-Target", "AmazonSQS.PurgeQueue").build();
		HttpResponse<String> answer = send(tamperedHeader, body);
		assertThat(answer.statusCode()).isEqualTo(403);
		assertThat(answer.body()).contains("SignatureDoesNotMatch");
	}

	@Test
	void presignedQueryUrl_served_untilItExpires() throws Exception {
		SdkHttpRequest get = SdkHttpRequest.builder()
			.method(SdkHttpMethod.GET)
			.uri(URI.create(base() + "/"))
			.putRawQueryParameter("Action", "ListQueues")
			.putRawQueryParameter("Version", "2012-11-05")
			.build();
		SdkHttpRequest presigned = sign(get, "", true);

		HttpResponse<String> answer = send(presigned, "");
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(answer.body()).contains("ListQueuesResponse");

		try {
			this.clock.advance(Duration.ofMinutes(6));
			HttpResponse<String> expired = send(presigned, "");
			assertThat(expired.statusCode()).isEqualTo(400);
			assertThat(expired.body()).contains("RequestExpired");
		}
		finally {
			this.clock.advance(Duration.ofMinutes(-6));
		}
	}

	@Test
	void accountB_mayDoWhatThePolicyAllows_untilItIsRemoved() {
		String url = this.owner.createQueue(q -> q.queueName("shared")).queueUrl();
		assertRefused(() -> this.accountB.sendMessage(m -> m.queueUrl(url).messageBody("b")), "AccessDenied", 403);

		this.owner.addPermission(p -> p.queueUrl(url).label("b-sends").awsAccountIds(B).actions("SendMessage"));
		this.accountB.sendMessage(m -> m.queueUrl(url).messageBody("b"));
		this.accountB.sendMessageBatch(m -> m.queueUrl(url).entries(e -> e.id("1").messageBody("b1")));
		assertRefused(() -> this.accountB.receiveMessage(r -> r.queueUrl(url)), "AccessDenied", 403);
		assertRefused(() -> this.accountB.purgeQueue(p -> p.queueUrl(url)), "AccessDenied", 403);
		assertRefused(() -> this.accountB.createQueue(q -> q.queueName("b-own")), "AccessDenied", 403);

		this.owner.removePermission(p -> p.queueUrl(url).label("b-sends"));
		assertRefused(() -> this.accountB.sendMessage(m -> m.queueUrl(url).messageBody("b")), "AccessDenied", 403);
		assertThat(this.owner.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages()).hasSize(2);
	}

	@Test
	void explicitDeny_overAllow() {
		String url = this.owner.createQueue(q -> q.queueName("denied")).queueUrl();
		String arn = "arn:aws:sqs:us-east-1:" + OWNER + ":denied";
		String policy = """
				{"Version":"2012-10-17","Statement":[
				 {"Effect":"Allow","Principal":{"AWS":"%s"},"Action":"sqs:*","Resource":"%s"},
				 {"Effect":"Deny","Principal":{"AWS":"arn:aws:iam::%s:root"},"Action":"sqs:Receive*","Resource":"%s"}]}
				""".formatted(B, arn, B, arn);
		this.owner.setQueueAttributes(a -> a.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY, policy)));

		this.accountB.sendMessage(m -> m.queueUrl(url).messageBody("b"));
		assertRefused(() -> this.accountB.receiveMessage(r -> r.queueUrl(url)), "AccessDenied", 403);
		assertThat(this.accountB.getQueueAttributes(a -> a.queueUrl(url).attributeNames(QueueAttributeName.ALL))
			.attributes()).containsKey(QueueAttributeName.POLICY);
	}

	@Test
	void aConditionThatCannotBeEnforced_refusedWhenSet() {
		String url = this.owner.createQueue(q -> q.queueName("conditions")).queueUrl();
		String policy = """
				{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage",
				 "Condition":{"ArnEquals":{"aws:SourceArn":"arn:aws:sns:us-east-1:%s:topic"}}}]}
				""".formatted(OWNER);

		assertRefused(
				() -> this.owner
					.setQueueAttributes(a -> a.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY, policy))),
				"InvalidAttributeValue", 400);
	}

	private static void assertRefused(Runnable call, String code, int status) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(call::run).satisfies(ex -> {
			assertThat(ex.awsErrorDetails().errorCode()).isEqualTo(code);
			assertThat(ex.statusCode()).isEqualTo(status);
			assertThat(ex.getMessage()).doesNotContain(OWNER_SECRET, B_SECRET);
		});
	}

	private String base() {
		return "http://127.0.0.1:" + this.port;
	}

	private SdkHttpRequest json(String action) {
		return SdkHttpRequest.builder()
			.method(SdkHttpMethod.POST)
			.uri(URI.create(base() + "/"))
			.putHeader("Content-Type", "application/x-amz-json-1.0")
			.putHeader("X-Amz-Target", "AmazonSQS." + action)
			.build();
	}

	/** Signed by the AWS SDK's own signer, at the service's time, as the owner. */
	private SdkHttpRequest sign(SdkHttpRequest request, String body, boolean presigned) {
		return AwsV4HttpSigner.create()
			.sign(r -> r.identity(AwsCredentialsIdentity.create(OWNER_KEY, OWNER_SECRET))
				.request(request)
				.payload(ContentStreamProvider.fromUtf8String(body))
				.putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
				.putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sqs")
				.putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(this.clock.instant(), ZoneOffset.UTC))
				.putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION,
						presigned ? AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING
								: AwsV4FamilyHttpSigner.AuthLocation.HEADER)
				.putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, presigned ? Duration.ofMinutes(5) : null))
			.request();
	}

	private static HttpResponse<String> send(SdkHttpRequest request, String body)
			throws IOException, InterruptedException {
		HttpRequest.Builder http = HttpRequest.newBuilder(request.getUri())
			.method(request.method().name(), body.isEmpty() ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
		request.forEachHeader((name, values) -> {
			if (!List.of("host", "content-length").contains(name.toLowerCase())) {
				values.forEach(value -> http.header(name, value));
			}
		});
		return HTTP.send(http.build(), BodyHandlers.ofString());
	}

	/** The service's clock at the real time, so the SDKs' signatures are current. */
	@TestConfiguration(proxyBeanMethods = false)
	static class ClockNow {

		@Bean
		@Primary
		MutableClock mutableClock() {
			return new MutableClock(Instant.now());
		}

	}

}
