package io.github.qsbench.sqs;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.security.AuthenticationException;
import io.github.qsbench.security.Caller;
import io.github.qsbench.security.PolicyException;
import io.github.qsbench.security.QueuePolicy;
import io.github.qsbench.security.RequestContext;
import io.github.qsbench.security.SecurityProperties;
import io.github.qsbench.security.SigV4Verifier;
import io.github.qsbench.security.SignedRequest;

/**
 * Who may call which SQS action, when {@code qs.security.sigv4.enabled}: the request's
 * signature names the caller ({@link SigV4Verifier}), and a caller of another account
 * than the service's ({@code qs.sqs.account-id}, the queues' owner) may call an action on
 * a queue only if the queue's {@code Policy} allows it ({@link QueuePolicy}). The owner
 * may do everything; actions on the account rather than on a queue (creating and listing
 * queues, move tasks) and changes to a queue's permissions are the owner's alone. A batch
 * is allowed as its single action is. Off, nothing is checked and nothing is read.
 */
final class SqsAccess {

	/** The actions on the account, or on its permissions: the owner's alone. */
	private static final Set<String> OWNER_ONLY = Set.of("CreateQueue", "ListQueues", "StartMessageMoveTask",
			"CancelMessageMoveTask", "ListMessageMoveTasks", "AddPermission", "RemovePermission");

	/** How many parsed policies are kept, by their text, before the cache starts over. */
	private static final int MAX_CACHED_POLICIES = 1024;

	private final SigV4Verifier verifier;

	private final QueueOperations queues;

	private final QueueUrls urls;

	private final String owner;

	private final Clock clock;

	private final Map<String, QueuePolicy> policies = new ConcurrentHashMap<>();

	SqsAccess(SecurityProperties.Sigv4 sigv4, SqsProperties sqs, QueueOperations queues, QueueUrls urls,
			InstantSource clock) {
		this.clock = clock.withZone(ZoneOffset.UTC);
		this.verifier = sigv4.enabled() ? new SigV4Verifier(sigv4.keys(), sqs.region(), "sqs", this.clock) : null;
		this.queues = queues;
		this.urls = urls;
		this.owner = sqs.accountId();
	}

	boolean enabled() {
		return this.verifier != null;
	}

	/**
	 * Who signed the request; {@code null} when signatures are not checked.
	 * @throws SqsException with SQS's code for a request not signed, or not as it
	 * arrived, by a known key within 15 minutes
	 */
	Caller authenticate(SqsHttp request, byte[] body) {
		if (this.verifier == null) {
			return null;
		}
		try {
			return this.verifier
				.verify(new SignedRequest(request.method(), request.path(), request.query(), request.headers(), body));
		}
		catch (AuthenticationException ex) {
			throw error(ex.failure()).exception(ex.getMessage());
		}
	}

	/**
	 * Lets the call through, or refuses it.
	 * @param caller who signed it, {@code null} when signatures are not checked
	 * @throws SqsException {@code AccessDenied}
	 */
	void authorize(Caller caller, String action, SqsRequest request, SqsHttp http) {
		if (caller == null || this.owner.equals(caller.accountId())) {
			return;
		}
		if (OWNER_ONLY.contains(action)) {
			throw denied("The action " + action + " is the queue owner's alone.");
		}
		String queue = queueOf(action, request);
		String document = (queue != null && this.queues.exists(queue))
				? this.queues.settings(queue).recorded().get(QueueAttributeNames.POLICY) : null;
		if (document == null || document.isEmpty()) {
			throw denied(resource(queue));
		}
		QueuePolicy policy;
		try {
			policy = this.policies.computeIfAbsent(document, QueuePolicy::parse);
		}
		catch (PolicyException ex) {
			// set before the check was on (or on another instance): it grants nothing
			throw denied(resource(queue));
		}
		if (this.policies.size() > MAX_CACHED_POLICIES) {
			this.policies.clear();
		}
		QueuePolicy.Decision decision = policy.decide(caller.accountId(), singleAction(action), this.urls.arn(queue),
				new RequestContext(this.clock.instant(), address(http), http.secure()));
		if (decision != QueuePolicy.Decision.ALLOW) {
			throw denied(resource(queue));
		}
	}

	/**
	 * A {@code Policy} as a queue may keep it: checked when policies are enforced, so
	 * that what cannot be enforced is refused now rather than ignored later.
	 * @throws SqsException {@code InvalidAttributeValue}
	 */
	void checkPolicy(String document) {
		if (this.verifier == null || document.isEmpty()) {
			return;
		}
		try {
			QueuePolicy.parse(document);
		}
		catch (PolicyException ex) {
			throw SqsError.INVALID_ATTRIBUTE_VALUE
				.exception("Invalid value for the parameter Policy. Reason: " + ex.getMessage());
		}
	}

	private String queueOf(String action, SqsRequest request) {
		if ("GetQueueUrl".equals(action)) {
			String name = request.string("QueueName");
			return (name != null && QueueNames.isQueueName(name)) ? name : null;
		}
		String url = request.string("QueueUrl");
		return (url != null) ? this.urls.queue(url) : null;
	}

	/** The action a policy names for a call: a batch's single action. */
	private static String singleAction(String action) {
		return action.endsWith("Batch") ? action.substring(0, action.length() - "Batch".length()) : action;
	}

	private String resource(String queue) {
		return "Access to the resource " + ((queue != null) ? this.urls.arn(queue) : "named") + " is denied.";
	}

	private static SqsException denied(String message) {
		return SqsError.ACCESS_DENIED.exception(message);
	}

	private static InetAddress address(SqsHttp http) {
		try {
			// an address in literal form: no lookup
			return InetAddress.getByName(http.remoteAddress());
		}
		catch (UnknownHostException ex) {
			return null;
		}
	}

	private static SqsError error(AuthenticationException.Failure failure) {
		return switch (failure) {
			case MISSING_AUTHENTICATION_TOKEN -> SqsError.MISSING_AUTHENTICATION_TOKEN;
			case INCOMPLETE_SIGNATURE -> SqsError.INCOMPLETE_SIGNATURE;
			case INVALID_CLIENT_TOKEN_ID -> SqsError.INVALID_CLIENT_TOKEN_ID;
			case SIGNATURE_DOES_NOT_MATCH -> SqsError.SIGNATURE_DOES_NOT_MATCH;
			case REQUEST_EXPIRED -> SqsError.REQUEST_EXPIRED;
		};
	}

}
