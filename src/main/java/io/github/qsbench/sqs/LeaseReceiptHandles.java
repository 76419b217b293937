package io.github.qsbench.sqs;

import java.util.regex.Pattern;

import io.github.qsbench.application.LeaseTokens;
import io.github.qsbench.core.Lease;

/**
 * SQS's receipt handle, its wire name for a {@link Lease}'s token ({@link LeaseTokens}):
 * the same string the REST API hands out, so a handle names exactly one delivery and a
 * stale one cannot delete a message delivered again since. Clients must not rely on its
 * form.
 */
final class LeaseReceiptHandles {

	private static final Pattern HANDLE = Pattern.compile(LeaseTokens.TOKEN_REGEX);

	private LeaseReceiptHandles() {
	}

	static String of(Lease lease) {
		return LeaseTokens.token(lease);
	}

	/**
	 * The id of the message a handle names.
	 * @throws SqsException {@code ReceiptHandleIsInvalid} if it is not a handle this
	 * service hands out
	 */
	static long id(String handle) {
		if (HANDLE.matcher(handle).matches()) {
			try {
				return Long.parseLong(handle, 0, handle.indexOf('.'), 10);
			}
			catch (NumberFormatException overflow) {
				// not a handle this service hands out, as below
			}
		}
		throw invalid(handle);
	}

	static SqsException invalid(String handle) {
		return SqsError.RECEIPT_HANDLE_IS_INVALID
			.exception("The input receipt handle \"" + handle + "\" is not a valid receipt handle.");
	}

}
