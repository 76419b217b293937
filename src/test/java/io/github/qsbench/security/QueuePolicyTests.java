package io.github.qsbench.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.net.InetAddress;
import java.time.Instant;

import io.github.qsbench.security.QueuePolicy.Decision;
import org.junit.jupiter.api.Test;

/**
 * {@link QueuePolicy}: the document {@code AddPermission} writes, the IAM policy language
 * it accepts (principals, actions, resources, conditions) and how it decides, and each
 * element it refuses with a message naming it.
 */
class QueuePolicyTests {

	private static final String OWNER = "111111111111";

	private static final String B = "222222222222";

	private static final String C = "333333333333";

	private static final String QUEUE = "arn:aws:sqs:us-east-1:" + OWNER + ":orders";

	private static final RequestContext CONTEXT = context("2030-06-01T12:00:00Z", "203.0.113.7", true);

	/** The exact document {@code AddPermission} writes for account B and SendMessage. */
	@Test
	void addPermissionDocument_allowsTheNamedAccountItsActionsOnly() {
		QueuePolicy policy = QueuePolicy.parse("{\"Version\":\"2012-10-17\",\"Id\":\"" + QUEUE
				+ "/SQSDefaultPolicy\",\"Statement\":[{\"Sid\":\"b-sends\",\"Effect\":\"Allow\","
				+ "\"Principal\":{\"AWS\":\"arn:aws:iam::" + B + ":root\"},\"Action\":\"SQS:SendMessage\","
				+ "\"Resource\":\"" + QUEUE + "\"}]}");
		assertThat(decide(policy, B, "SendMessage")).isEqualTo(Decision.ALLOW);
		assertThat(decide(policy, B, "ReceiveMessage")).isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decide(policy, B, "PurgeQueue")).isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decide(policy, C, "SendMessage")).isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decide(policy, null, "SendMessage")).isEqualTo(Decision.IMPLICIT_DENY);
	}

	@Test
	void listsOfPrincipalsAndActions_eachMatches() {
		QueuePolicy policy = allow("{\"AWS\":[\"arn:aws:iam::" + B + ":root\",\"" + C + "\"]}",
				"[\"SQS:SendMessage\",\"SQS:ReceiveMessage\"]");
		for (String account : new String[] { B, C }) {
			assertThat(decide(policy, account, "SendMessage")).isEqualTo(Decision.ALLOW);
			assertThat(decide(policy, account, "ReceiveMessage")).isEqualTo(Decision.ALLOW);
			assertThat(decide(policy, account, "DeleteMessage")).isEqualTo(Decision.IMPLICIT_DENY);
		}
		assertThat(decide(policy, "444444444444", "SendMessage")).isEqualTo(Decision.IMPLICIT_DENY);
	}

	@Test
	void starPrincipal_matchesEveryone() {
		for (String principal : new String[] { "\"*\"", "{\"AWS\":\"*\"}" }) {
			QueuePolicy policy = allow(principal, "\"sqs:SendMessage\"");
			assertThat(decide(policy, B, "SendMessage")).isEqualTo(Decision.ALLOW);
			assertThat(decide(policy, null, "SendMessage")).isEqualTo(Decision.ALLOW);
		}
	}

	/** A user's or role's ARN names one identity, never a whole account: no caller. */
	@Test
	void userAndRoleArns_acceptedAndMatchNoAccount() {
		QueuePolicy policy = allow(
				"{\"AWS\":[\"arn:aws:iam::" + B + ":user/alice\",\"arn:aws:iam::" + C + ":role/app/worker\"]}",
				"\"sqs:*\"");
		assertThat(decide(policy, B, "SendMessage")).isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decide(policy, C, "SendMessage")).isEqualTo(Decision.IMPLICIT_DENY);
	}

	@Test
	void actionWildcards_andCaseInsensitivity() {
		QueuePolicy all = allow(principal(B), "\"sqs:*\"");
		assertThat(decide(all, B, "PurgeQueue")).isEqualTo(Decision.ALLOW);
		assertThat(decide(allow(principal(B), "\"*\""), B, "DeleteQueue")).isEqualTo(Decision.ALLOW);
		QueuePolicy send = allow(principal(B), "\"sqs:Send*\"");
		assertThat(decide(send, B, "SendMessage")).isEqualTo(Decision.ALLOW);
		assertThat(decide(send, B, "ReceiveMessage")).isEqualTo(Decision.IMPLICIT_DENY);
		QueuePolicy one = allow(principal(B), "\"sqs:?etQueueUrl\"");
		assertThat(decide(one, B, "GetQueueUrl")).isEqualTo(Decision.ALLOW);
		assertThat(decide(one, B, "GetQueueAttributes")).isEqualTo(Decision.IMPLICIT_DENY);
		QueuePolicy anyCase = allow(principal(B), "\"Sqs:sendmessage\"");
		assertThat(decide(anyCase, B, "SendMessage")).isEqualTo(Decision.ALLOW);
	}

	/**
	 * Another service's actions are accepted, as IAM accepts them, and match no queue
	 * call.
	 */
	@Test
	void otherServicesActions_acceptedAndMatchNothing() {
		QueuePolicy policy = allow(principal(B), "[\"sns:Publish\",\"s3:*\"]");
		assertThat(decide(policy, B, "Publish")).isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decide(policy, B, "SendMessage")).isEqualTo(Decision.IMPLICIT_DENY);
	}

	@Test
	void explicitDeny_beatsAllow() {
		QueuePolicy policy = QueuePolicy.parse(document(statement("Allow", principal(B), "\"sqs:*\"", null) + ","
				+ statement("Deny", principal(B), "\"sqs:SendMessage\"", null)));
		assertThat(decide(policy, B, "SendMessage")).isEqualTo(Decision.EXPLICIT_DENY);
		assertThat(decide(policy, B, "ReceiveMessage")).isEqualTo(Decision.ALLOW);
	}

	@Test
	void resources_wildcardsAndQueueArn() {
		String allow = "\"Effect\":\"Allow\",\"Principal\":" + principal(B) + ",\"Action\":\"sqs:*\"";
		assertThat(decide(resource(allow, "\"*\""), B, "SendMessage")).isEqualTo(Decision.ALLOW);
		assertThat(decide(resource(allow, "\"arn:aws:sqs:*:" + OWNER + ":ord*\""), B, "SendMessage"))
			.isEqualTo(Decision.ALLOW);
		assertThat(decide(resource(allow, "\"arn:aws:sqs:us-east-1:" + OWNER + ":order?\""), B, "SendMessage"))
			.isEqualTo(Decision.ALLOW);
		assertThat(decide(resource(allow, "\"arn:aws:sqs:us-east-1:" + OWNER + ":invoices\""), B, "SendMessage"))
			.isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decide(resource(allow, "[\"arn:aws:sqs:eu-west-1:*\",\"arn:aws:sqs:us-*:" + OWNER + ":*\"]"), B,
				"SendMessage"))
			.isEqualTo(Decision.ALLOW);
		// a * within a segment stays within it
		assertThat(decide(resource(allow, "\"arn:aws:sqs:us*1:orders\""), B, "SendMessage"))
			.isEqualTo(Decision.IMPLICIT_DENY);
		// no Resource: the queue itself
		assertThat(decide(QueuePolicy.parse("{\"Statement\":{" + allow + "}}"), B, "SendMessage"))
			.isEqualTo(Decision.ALLOW);
	}

	@Test
	void ipAddress_cidrV4AndV6() {
		QueuePolicy policy = conditioned("{\"IpAddress\":{\"aws:SourceIp\":[\"203.0.113.0/24\",\"2001:db8::/32\"]}}");
		assertThat(decideAt(policy, context("2030-01-01T00:00:00Z", "203.0.113.200", true))).isEqualTo(Decision.ALLOW);
		assertThat(decideAt(policy, context("2030-01-01T00:00:00Z", "203.0.114.1", true)))
			.isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decideAt(policy, context("2030-01-01T00:00:00Z", "2001:db8:1::5", true))).isEqualTo(Decision.ALLOW);
		assertThat(decideAt(policy, context("2030-01-01T00:00:00Z", "2001:db9::5", true)))
			.isEqualTo(Decision.IMPLICIT_DENY);
		QueuePolicy odd = conditioned("{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/9\"}}");
		assertThat(decideAt(odd, context("2030-01-01T00:00:00Z", "10.127.255.255", true))).isEqualTo(Decision.ALLOW);
		assertThat(decideAt(odd, context("2030-01-01T00:00:00Z", "10.128.0.0", true)))
			.isEqualTo(Decision.IMPLICIT_DENY);
		QueuePolicy single = conditioned("{\"IpAddress\":{\"aws:SourceIp\":\"203.0.113.7\"}}");
		assertThat(decideAt(single, CONTEXT)).isEqualTo(Decision.ALLOW);
	}

	/** Negated: values NOR-ed, and a key the request lacks satisfies it. */
	@Test
	void notIpAddress_negatedOverAllValues() {
		QueuePolicy policy = QueuePolicy
			.parse(document(statement("Allow", principal(B), "\"sqs:*\"", null) + "," + statement("Deny", "\"*\"",
					"\"sqs:*\"", "{\"NotIpAddress\":{\"aws:SourceIp\":[\"203.0.113.0/24\",\"198.51.100.0/24\"]}}")));
		assertThat(decideAt(policy, context("2030-01-01T00:00:00Z", "198.51.100.9", true))).isEqualTo(Decision.ALLOW);
		assertThat(decideAt(policy, context("2030-01-01T00:00:00Z", "192.0.2.1", true)))
			.isEqualTo(Decision.EXPLICIT_DENY);
		assertThat(decideAt(policy, new RequestContext(Instant.parse("2030-01-01T00:00:00Z"), null, true)))
			.isEqualTo(Decision.EXPLICIT_DENY);
	}

	@Test
	void dates_currentTimeAndEpochTime() {
		QueuePolicy before = conditioned("{\"DateLessThan\":{\"aws:CurrentTime\":\"2030-06-01T12:00:01Z\"}}");
		assertThat(decideAt(before, CONTEXT)).isEqualTo(Decision.ALLOW);
		assertThat(decideAt(before, context("2030-06-01T12:00:01Z", "203.0.113.7", true)))
			.isEqualTo(Decision.IMPLICIT_DENY);
		QueuePolicy day = conditioned("{\"DateGreaterThanEquals\":{\"aws:currenttime\":\"2030-06-01\"},"
				+ "\"DateLessThan\":{\"aws:CurrentTime\":\"2030-06-02T00:00:00+00:00\"}}");
		assertThat(decideAt(day, CONTEXT)).isEqualTo(Decision.ALLOW);
		assertThat(decideAt(day, context("2030-06-02T00:00:00Z", "203.0.113.7", true)))
			.isEqualTo(Decision.IMPLICIT_DENY);
		long epoch = Instant.parse("2030-06-01T12:00:00Z").getEpochSecond();
		QueuePolicy equals = conditioned("{\"DateEquals\":{\"aws:EpochTime\":" + epoch + "}}");
		assertThat(decideAt(equals, context("2030-06-01T12:00:00.500Z", "203.0.113.7", true)))
			.isEqualTo(Decision.ALLOW);
		assertThat(decideAt(equals, context("2030-06-01T12:00:01Z", "203.0.113.7", true)))
			.isEqualTo(Decision.IMPLICIT_DENY);
		QueuePolicy notEquals = conditioned("{\"DateNotEquals\":{\"aws:EpochTime\":\"" + epoch + "\"}}");
		assertThat(decideAt(notEquals, CONTEXT)).isEqualTo(Decision.IMPLICIT_DENY);
	}

	@Test
	void bool_secureTransport() {
		QueuePolicy policy = conditioned("{\"Bool\":{\"aws:SecureTransport\":\"true\"}}");
		assertThat(decideAt(policy, CONTEXT)).isEqualTo(Decision.ALLOW);
		assertThat(decideAt(policy, context("2030-06-01T12:00:00Z", "203.0.113.7", false)))
			.isEqualTo(Decision.IMPLICIT_DENY);
		QueuePolicy plain = conditioned("{\"Bool\":{\"aws:SecureTransport\":false}}");
		assertThat(decideAt(plain, CONTEXT)).isEqualTo(Decision.IMPLICIT_DENY);
	}

	@Test
	void strings_principalAccount() {
		assertThat(decideAt(conditioned("{\"StringEquals\":{\"aws:PrincipalAccount\":[\"" + C + "\",\"" + B + "\"]}}"),
				CONTEXT))
			.isEqualTo(Decision.ALLOW);
		assertThat(decideAt(conditioned("{\"StringEquals\":{\"aws:PrincipalAccount\":\"" + C + "\"}}"), CONTEXT))
			.isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decideAt(
				conditioned("{\"StringNotEquals\":{\"aws:PrincipalAccount\":[\"" + C + "\",\"" + B + "\"]}}"), CONTEXT))
			.isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(decideAt(conditioned("{\"StringNotEquals\":{\"aws:PrincipalAccount\":\"" + C + "\"}}"), CONTEXT))
			.isEqualTo(Decision.ALLOW);
		assertThat(decideAt(conditioned("{\"StringLike\":{\"aws:PrincipalAccount\":\"2222*\"}}"), CONTEXT))
			.isEqualTo(Decision.ALLOW);
		assertThat(decideAt(conditioned("{\"StringNotLike\":{\"aws:PrincipalAccount\":\"22?2*\"}}"), CONTEXT))
			.isEqualTo(Decision.IMPLICIT_DENY);
		assertThat(
				decideAt(conditioned("{\"StringEqualsIgnoreCase\":{\"aws:PrincipalAccount\":\"" + B + "\"}}"), CONTEXT))
			.isEqualTo(Decision.ALLOW);
		assertThat(decideAt(conditioned("{\"StringNotEqualsIgnoreCase\":{\"aws:PrincipalAccount\":\"" + B + "\"}}"),
				CONTEXT))
			.isEqualTo(Decision.IMPLICIT_DENY);
	}

	@Test
	void refusals_nameTheOffendingElement() {
		String allow = "\"Effect\":\"Allow\",\"Principal\":" + principal(B) + ",\"Action\":\"sqs:*\"";
		refused("{\"Statement\":{" + allow + ",\"NotAction\":\"sqs:PurgeQueue\"}}", "NotAction", "not supported");
		refused("{\"Statement\":{\"Effect\":\"Allow\",\"NotPrincipal\":" + principal(B) + ",\"Action\":\"sqs:*\"}}",
				"NotPrincipal", "not supported");
		refused("{\"Statement\":{" + allow + ",\"NotResource\":\"*\"}}", "NotResource", "not supported");
		refused(document(statement("Allow", "{\"Service\":\"sns.amazonaws.com\"}", "\"sqs:*\"", null)), "Service");
		refused(document(statement("Allow", "{\"AWS\":\"alice\"}", "\"sqs:*\"", null)), "alice");
		refused(conditionDocument("{\"StringEquals\":{\"aws:SourceArn\":\"x\"}}"), "aws:SourceArn",
				"aws:PrincipalAccount");
		refused(conditionDocument("{\"ArnEquals\":{\"aws:SourceArn\":\"x\"}}"), "ArnEquals", "StringEquals");
		refused(conditionDocument("{\"StringEqualsIfExists\":{\"aws:PrincipalAccount\":\"x\"}}"),
				"StringEqualsIfExists", "IfExists");
		refused(conditionDocument("{\"ForAnyValue:StringEquals\":{\"aws:PrincipalAccount\":\"x\"}}"),
				"ForAnyValue:StringEquals");
		refused(conditionDocument("{\"IpAddress\":{\"aws:CurrentTime\":\"10.0.0.0/8\"}}"), "IpAddress",
				"aws:CurrentTime");
		refused(conditionDocument("{\"IpAddress\":{\"aws:SourceIp\":\"example.com\"}}"), "example.com");
		refused(conditionDocument("{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/33\"}}"), "10.0.0.0/33");
		refused(conditionDocument("{\"DateLessThan\":{\"aws:CurrentTime\":\"tomorrow\"}}"), "tomorrow");
		refused(conditionDocument("{\"Bool\":{\"aws:SecureTransport\":\"yes\"}}"), "yes");
		refused("{\"Statement\":{\"Principal\":" + principal(B) + ",\"Action\":\"sqs:*\"}}", "Effect");
		refused("{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":" + principal(B) + "}}", "Action");
		refused("{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"sqs:*\"}}", "Principal");
		refused("{\"Statement\":{\"Effect\":\"Permit\",\"Principal\":\"*\",\"Action\":\"sqs:*\"}}", "Effect");
		refused("{\"Version\":\"2012-10-17\"}", "Statement");
		refused("{\"Statement\":[]}", "Statement");
		refused("{\"Statement\":", "JSON");
		refused("{\"Statement\":{" + allow + "},\"Statement\":{" + allow + "}}", "JSON");
		refused("[]", "JSON object");
		refused("{\"Version\":\"2020-01-01\",\"Statement\":{" + allow + "}}", "Version");
		refused("{\"Statement\":{" + allow + "},\"Owner\":\"me\"}", "Owner");
		refused("{\"Statement\":{" + allow + ",\"Sid\":\"s1\",\"Effects\":\"x\"}}", "Effects", "s1");
		refused("{\"Statement\":{" + allow + ",\"Resource\":\"queue\"}}", "Resource", "queue");
		refused("{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"SendMessage\"}}", "SendMessage");
	}

	private static void refused(String document, String... named) {
		assertThatExceptionOfType(PolicyException.class).as(document)
			.isThrownBy(() -> QueuePolicy.parse(document))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(named));
	}

	private static Decision decide(QueuePolicy policy, String account, String action) {
		return policy.decide(account, action, QUEUE, CONTEXT);
	}

	/** Account B sending to the queue, at the moment and from the address given. */
	private static Decision decideAt(QueuePolicy policy, RequestContext context) {
		return policy.decide(B, "SendMessage", QUEUE, context);
	}

	private static RequestContext context(String now, String sourceIp, boolean secure) {
		try {
			return new RequestContext(Instant.parse(now), InetAddress.getByName(sourceIp), secure);
		}
		catch (java.net.UnknownHostException ex) {
			throw new IllegalArgumentException(ex);
		}
	}

	private static String principal(String account) {
		return "{\"AWS\":\"arn:aws:iam::" + account + ":root\"}";
	}

	private static QueuePolicy allow(String principal, String actions) {
		return QueuePolicy.parse(document(statement("Allow", principal, actions, null)));
	}

	/** Account B allowed everything on the queue when the condition holds. */
	private static QueuePolicy conditioned(String condition) {
		return QueuePolicy.parse(conditionDocument(condition));
	}

	private static String conditionDocument(String condition) {
		return document(statement("Allow", principal(B), "\"sqs:*\"", condition));
	}

	private static QueuePolicy resource(String statement, String resource) {
		return QueuePolicy.parse("{\"Statement\":{" + statement + ",\"Resource\":" + resource + "}}");
	}

	private static String document(String statements) {
		return "{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}";
	}

	private static String statement(String effect, String principal, String actions, String condition) {
		return "{\"Effect\":\"" + effect + "\",\"Principal\":" + principal + ",\"Action\":" + actions
				+ ",\"Resource\":\"" + QUEUE + "\"" + ((condition != null) ? ",\"Condition\":" + condition : "") + "}";
	}

}
