package io.github.qsbench.sqs;

import io.github.qsbench.application.QueueNames;

/**
 * Queue URLs ({@code http://<host>:<port>/<account>/<queue>}, the host and port those the
 * request came to) and ARNs ({@code arn:aws:sqs:<region>:<account>:<queue>}). A URL is
 * read by its path alone, as SQS's own endpoints do, so a client may reach the service
 * under any host name.
 */
final class QueueUrls {

	private final String accountId;

	private final String arnPrefix;

	QueueUrls(SqsProperties properties) {
		this.accountId = properties.accountId();
		this.arnPrefix = "arn:aws:sqs:" + properties.region() + ":" + properties.accountId() + ":";
	}

	String url(SqsHttp request, String queue) {
		return request.origin() + "/" + this.accountId + "/" + queue;
	}

	/**
	 * The URL the request was sent to, without its query: a queue URL, if it names one.
	 */
	String requested(SqsHttp request) {
		return request.origin() + request.path();
	}

	/** The path under which this account's queue URLs lie, as a servlet URL pattern. */
	String pathPattern() {
		return "/" + this.accountId + "/*";
	}

	String arn(String queue) {
		return this.arnPrefix + queue;
	}

	/**
	 * The queue a URL names.
	 * @throws SqsException {@code InvalidAddress} if it is not a queue URL of this
	 * account, {@code QueueDoesNotExist} if it names no valid queue name
	 */
	String queue(String url) {
		int scheme = url.indexOf("://");
		int path = (scheme < 0) ? -1 : url.indexOf('/', scheme + 3);
		int name = path + 2 + this.accountId.length();
		if (path < 0 || !url.startsWith(this.accountId, path + 1) || url.length() <= name
				|| url.charAt(name - 1) != '/') {
			throw SqsError.INVALID_ADDRESS.exception("The address " + url
					+ " is not a queue URL of this service: http://<host>:<port>/" + this.accountId + "/<queue>.");
		}
		String queue = url.substring(name);
		// SQS's queue names are exactly this service's
		if (!QueueNames.isQueueName(queue)) {
			throw doesNotExist();
		}
		return queue;
	}

	/** The queue an ARN of this service names, or {@code null}. */
	String queueOfArn(String arn) {
		if (!arn.startsWith(this.arnPrefix)) {
			return null;
		}
		String queue = arn.substring(this.arnPrefix.length());
		return QueueNames.isQueueName(queue) ? queue : null;
	}

	boolean isAccount(String accountId) {
		return this.accountId.equals(accountId);
	}

	static SqsException doesNotExist() {
		return SqsError.QUEUE_DOES_NOT_EXIST.exception("The specified queue does not exist.");
	}

}
