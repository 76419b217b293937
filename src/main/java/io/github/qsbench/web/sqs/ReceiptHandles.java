package io.github.qsbench.web.sqs;

import java.util.regex.Pattern;

import io.github.qsbench.core.Lease;

/**
 * Receipt handles: the lease of one delivery, as the REST API hands it out (the message's
 * id and the delivery's number), so a handle names exactly one delivery and a stale one
 * cannot delete a message delivered again since. Clients must not rely on its form.
 */
final class ReceiptHandles {

	private static final Pattern HANDLE = Pattern.compile("[1-9][0-9]{0,18}\\.[1-9][0-9]{0,8}");

	private ReceiptHandles() {
	}

	static String of(Lease lease) {
		return lease.message().id() + "." + lease.delivery();
	}

	/**
	 * The message and delivery a handle names.
	 * @throws SqsException {@code ReceiptHandleIsInvalid} if it is not a handle this
	 * service hands out
	 */
	static Handle parse(String handle) {
		if (HANDLE.matcher(handle).matches()) {
			int dot = handle.indexOf('.');
			try {
				return new Handle(Long.parseLong(handle, 0, dot, 10),
						Integer.parseInt(handle, dot + 1, handle.length(), 10));
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

	/** A delivery: the message's id and the delivery's number. */
	record Handle(long id, int delivery) {
	}

}
