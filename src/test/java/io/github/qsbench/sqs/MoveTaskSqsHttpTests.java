package io.github.qsbench.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;

import org.awaitility.Awaitility;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sqs.model.SqsException;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

/**
 * Message move tasks through the AWS SDK for Java v2, configured as docs/sqs.md shows: a
 * dead-letter queue redriven in the background back to its source or to a destination,
 * paced by the service's clock (the test moves it), listed and cancelled, and SQS's
 * errors as the SDK's exceptions. The tasks step on the service's own thread, so a test
 * waits (bounded) for a step to have run; the pace itself moves only with the clock.
 */
@TestPropertySource(properties = "qs.lease-timeout=30s")
class MoveTaskSqsHttpTests extends SqsV2HttpTestBase {

	private static final Duration STEP_WAIT = Duration.ofSeconds(10);

	@Test
	void destinationOmitted_deadLettersBackToTheirSource_completed() throws Exception {
		String dlqArn = arn(this.sqs.createQueue(q -> q.queueName("sdk-move-dlq")).queueUrl());
		String source = sourceOf("sdk-move-source", dlqArn);
		deadLetter(source, "a", "b", "c");

		String handle = this.sqs.startMessageMoveTask(s -> s.sourceArn(dlqArn)).taskHandle();

		ListMessageMoveTasksResultEntry done = await(dlqArn, task -> "COMPLETED".equals(task.status()));
		assertThat(done.approximateNumberOfMessagesMoved()).isEqualTo(3);
		assertThat(done.approximateNumberOfMessagesToMove()).isEqualTo(3);
		assertThat(done.sourceArn()).isEqualTo(dlqArn);
		assertThat(done.destinationArn()).as("none was named").isNull();
		assertThat(done.taskHandle()).as("shown while it runs only, as SQS does").isNull();
		assertThat(done.startedTimestamp()).isEqualTo(this.clock.millis());
		assertThat(handle).isNotBlank();
		List<Message> back = this.sqs.receiveMessage(r -> r.queueUrl(source).maxNumberOfMessages(10)).messages();
		assertThat(back).extracting(Message::body).containsExactlyInAnyOrder("a", "b", "c");
	}

	@Test
	void pacedByTheClock_listedWhileRunning_cancelledBetweenMoves() throws Exception {
		String dlq = this.sqs.createQueue(q -> q.queueName("sdk-paced-dlq")).queueUrl();
		String dlqArn = arn(dlq);
		String source = sourceOf("sdk-paced-source", dlqArn);
		String destination = this.sqs.createQueue(q -> q.queueName("sdk-paced-destination")).queueUrl();
		deadLetter(source, "1", "2", "3");

		String handle = this.sqs
			.startMessageMoveTask(
					s -> s.sourceArn(dlqArn).destinationArn(arn(destination)).maxNumberOfMessagesPerSecond(1))
			.taskHandle();
		ListMessageMoveTasksResultEntry running = this.sqs.listMessageMoveTasks(l -> l.sourceArn(dlqArn))
			.results()
			.get(0);
		assertThat(running.status()).isEqualTo("RUNNING");
		assertThat(running.taskHandle()).isEqualTo(handle);
		assertThat(running.maxNumberOfMessagesPerSecond()).isOne();
		assertThat(running.destinationArn()).isEqualTo(arn(destination));
		assertErrorCode(() -> this.sqs.startMessageMoveTask(s -> s.sourceArn(dlqArn)), "InvalidParameterValue",
				"already a task running");

		this.clock.advance(Duration.ofSeconds(1));
		assertThat(await(dlqArn, task -> task.approximateNumberOfMessagesMoved() == 1).status()).isEqualTo("RUNNING");
		assertThat(this.sqs.cancelMessageMoveTask(c -> c.taskHandle(handle)).approximateNumberOfMessagesMoved())
			.as("no more without the clock moving")
			.isOne();
		ListMessageMoveTasksResultEntry cancelled = await(dlqArn, task -> "CANCELLED".equals(task.status()));
		assertThat(cancelled.approximateNumberOfMessagesMoved()).isOne();
		this.clock.advance(Duration.ofSeconds(10));

		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(destination).maxNumberOfMessages(10)).messages())
			.extracting(Message::body)
			.containsExactly("1");
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(dlq).maxNumberOfMessages(10)).messages())
			.extracting(Message::body)
			.as("the rest stays in the dead-letter queue")
			.containsExactly("2", "3");
	}

	@Test
	void errors_asSqsAnswersThem() {
		String dlqArn = arn(this.sqs.createQueue(q -> q.queueName("sdk-errors-dlq")).queueUrl());
		String plainArn = arn(this.sqs.createQueue(q -> q.queueName("sdk-errors-plain")).queueUrl());
		sourceOf("sdk-errors-source", dlqArn);
		String missingArn = "arn:aws:sqs:us-east-1:000000000000:sdk-errors-missing";

		assertErrorCode(() -> this.sqs.startMessageMoveTask(s -> s.sourceArn(plainArn)), "InvalidParameterValue",
				"Dead Letter Queue");
		assertThatExceptionOfType(ResourceNotFoundException.class)
			.isThrownBy(() -> this.sqs.startMessageMoveTask(s -> s.sourceArn(missingArn)))
			.withMessageContaining("SourceArn");
		assertThatExceptionOfType(ResourceNotFoundException.class)
			.isThrownBy(() -> this.sqs.startMessageMoveTask(s -> s.sourceArn(dlqArn).destinationArn(missingArn)))
			.withMessageContaining("DestinationArn");
		assertErrorCode(() -> this.sqs.startMessageMoveTask(s -> s.sourceArn(dlqArn).maxNumberOfMessagesPerSecond(501)),
				"InvalidParameterValue", "MaxNumberOfMessagesPerSecond");
		assertErrorCode(() -> this.sqs.listMessageMoveTasks(l -> l.sourceArn(dlqArn).maxResults(11)),
				"InvalidParameterValue", "MaxResults");
		assertThatExceptionOfType(ResourceNotFoundException.class)
			.isThrownBy(() -> this.sqs.listMessageMoveTasks(l -> l.sourceArn(missingArn)));
		assertErrorCode(() -> this.sqs.cancelMessageMoveTask(c -> c.taskHandle("not-a-handle")),
				"InvalidParameterValue", "TaskHandle");
		assertThatExceptionOfType(ResourceNotFoundException.class)
			.isThrownBy(() -> this.sqs.cancelMessageMoveTask(c -> c.taskHandle("00000000-0000-0000-0000-000000000000")))
			.withMessageContaining("Task does not exist");
		assertThat(this.sqs.listMessageMoveTasks(l -> l.sourceArn(dlqArn)).results()).as("none started").isEmpty();
	}

	/** A queue whose dead-letter queue is {@code dlqArn}, after one receive. */
	private String sourceOf(String name, String dlqArn) {
		String policy = "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"1\"}";
		return this.sqs
			.createQueue(q -> q.queueName(name).attributes(Map.of(QueueAttributeName.REDRIVE_POLICY, policy)))
			.queueUrl();
	}

	/** Sends the bodies, receives them once and lets that lapse: each a dead letter. */
	private void deadLetter(String url, String... bodies) {
		for (String body : bodies) {
			this.sqs.sendMessage(m -> m.queueUrl(url).messageBody(body));
		}
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages())
			.hasSize(bodies.length);
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages())
			.as("all dead-lettered")
			.isEmpty();
	}

	/** The source's newest task once it satisfies {@code done}, waiting for steps. */
	private ListMessageMoveTasksResultEntry await(String sourceArn, Predicate<ListMessageMoveTasksResultEntry> done) {
		return Awaitility.await("a step that brings the task of " + sourceArn + " there")
			.atMost(STEP_WAIT)
			.pollInterval(Duration.ofMillis(10))
			.until(() -> this.sqs.listMessageMoveTasks(l -> l.sourceArn(sourceArn)).results().get(0), done);
	}

	private String arn(String url) {
		return this.sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
			.attributes()
			.get(QueueAttributeName.QUEUE_ARN);
	}

	private static void assertErrorCode(Runnable call, String code, String message) {
		assertThatExceptionOfType(SqsException.class).isThrownBy(call::run).satisfies(ex -> {
			assertThat(ex.awsErrorDetails().errorCode()).isEqualTo(code);
			assertThat(ex.getMessage()).contains(message);
		});
	}

}
