package io.github.qsbench.sqs;

/**
 * The SQS errors this face answers: the code of the JSON protocol (the {@code __type}
 * after {@code com.amazonaws.sqs#}), the legacy code of the Query protocol (header
 * {@code x-amzn-query-error}, which the SDKs read to keep old exception codes), and the
 * HTTP status, as the SQS API reference lists them.
 */
enum SqsError {

	QUEUE_DOES_NOT_EXIST("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", 400),

	/**
	 * A {@code CreateQueue} of a queue that exists with other attributes than those
	 * given.
	 */
	QUEUE_NAME_EXISTS("QueueNameExists", "QueueAlreadyExists", 400),

	INVALID_ADDRESS("InvalidAddress", "InvalidAddress", 400),

	INVALID_PARAMETER_VALUE("InvalidParameterValue", "InvalidParameterValue", 400),

	MISSING_PARAMETER("MissingParameter", "MissingParameter", 400),

	INVALID_ATTRIBUTE_NAME("InvalidAttributeName", "InvalidAttributeName", 400),

	INVALID_ATTRIBUTE_VALUE("InvalidAttributeValue", "InvalidAttributeValue", 400),

	INVALID_MESSAGE_CONTENTS("InvalidMessageContents", "InvalidMessageContents", 400),

	RECEIPT_HANDLE_IS_INVALID("ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid", 400),

	/** A visibility change for a delivery that is no longer the message's current one. */
	MESSAGE_NOT_INFLIGHT("MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight", 400),

	EMPTY_BATCH_REQUEST("EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest", 400),

	TOO_MANY_ENTRIES_IN_BATCH_REQUEST("TooManyEntriesInBatchRequest",
			"AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400),

	BATCH_ENTRY_IDS_NOT_DISTINCT("BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", 400),

	INVALID_BATCH_ENTRY_ID("InvalidBatchEntryId", "AWS.SimpleQueueService.InvalidBatchEntryId", 400),

	BATCH_REQUEST_TOO_LONG("BatchRequestTooLong", "AWS.SimpleQueueService.BatchRequestTooLong", 400),

	/**
	 * A resource a move task request names does not exist: a queue by its ARN, a task.
	 */
	RESOURCE_NOT_FOUND("ResourceNotFoundException", "ResourceNotFoundException", 404),

	UNSUPPORTED_OPERATION("UnsupportedOperation", "AWS.SimpleQueueService.UnsupportedOperation", 400),

	INVALID_ACTION("InvalidAction", "InvalidAction", 400),

	/**
	 * A JSON-protocol request without {@code X-Amz-Target}: what AWS's JSON services
	 * answer when no operation is named.
	 */
	UNKNOWN_OPERATION("UnknownOperationException", "UnknownOperationException", 400),

	/** A query-protocol request without {@code Action}. */
	MISSING_ACTION("MissingAction", "MissingAction", 400),

	/** No signature, where {@code qs.security.sigv4} asks for one. */
	MISSING_AUTHENTICATION_TOKEN("MissingAuthenticationToken", "MissingAuthenticationToken", 403),

	/**
	 * A signature that lacks a part: its credential, signed headers, signature or date.
	 */
	INCOMPLETE_SIGNATURE("IncompleteSignature", "IncompleteSignature", 400),

	/** A signature by an access key this service does not know. */
	INVALID_CLIENT_TOKEN_ID("InvalidClientTokenId", "InvalidClientTokenId", 403),

	/**
	 * A signature that does not match the request: another secret, or a changed request.
	 */
	SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", "SignatureDoesNotMatch", 403),

	/**
	 * A request signed more than 15 minutes from now, or a presigned URL past its expiry.
	 */
	REQUEST_EXPIRED("RequestExpired", "RequestExpired", 400),

	/** A call that the queue's policy does not allow the caller's account. */
	ACCESS_DENIED("AccessDenied", "AccessDenied", 403),

	/** A cap under {@code qs.limits} is reached: SQS's answer to a limit. */
	OVER_LIMIT("OverLimit", "OverLimit", 403),

	INTERNAL_ERROR("InternalError", "InternalError", 500),

	/**
	 * A temporary failure: the queue store (Redis) did not serve the request. The AWS
	 * SDKs retry it.
	 */
	SERVICE_UNAVAILABLE("ServiceUnavailable", "ServiceUnavailable", 503);

	private final String code;

	private final String legacyCode;

	private final int status;

	SqsError(String code, String legacyCode, int status) {
		this.code = code;
		this.legacyCode = legacyCode;
		this.status = status;
	}

	/** The JSON protocol's {@code __type}. */
	String type() {
		return "com.amazonaws.sqs#" + this.code;
	}

	String code() {
		return this.code;
	}

	/** The {@code x-amzn-query-error} header: the legacy code and who is at fault. */
	String queryError() {
		return this.legacyCode + (isSenderFault() ? ";Sender" : ";Receiver");
	}

	/** The query protocol's code: its error documents' {@code Code}. */
	String legacyCode() {
		return this.legacyCode;
	}

	/** Whether the client is at fault ({@code Sender}) rather than the service. */
	boolean isSenderFault() {
		return this.status < 500;
	}

	int status() {
		return this.status;
	}

	SqsException exception(String message) {
		return new SqsException(this, message);
	}

}
