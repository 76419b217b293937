package io.github.qsbench.web.sqs;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The MD5 digests SQS answers ({@code MD5OfMessageBody}, {@code MD5OfBody}): lower-case
 * hex of the MD5 of the body's UTF-8 bytes, which the AWS SDKs check against what they
 * sent or received.
 */
final class Md5 {

	private static final MessageDigest PROTOTYPE;

	static {
		try {
			PROTOTYPE = MessageDigest.getInstance("MD5");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private Md5() {
	}

	static String hex(byte[] bytes) {
		try {
			// a clone skips the provider lookup of getInstance
			MessageDigest md5 = (MessageDigest) PROTOTYPE.clone();
			return HexFormat.of().formatHex(md5.digest(bytes));
		}
		catch (CloneNotSupportedException ex) {
			throw new IllegalStateException("MD5 digests can be cloned on every JDK", ex);
		}
	}

}
