package io.github.qsbench.sqs;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

import io.github.qsbench.application.MessageAttributes;
import io.github.qsbench.application.MessageAttributes.Attribute;

/**
 * The MD5 digests SQS answers ({@code MD5OfMessageBody}, {@code MD5OfBody},
 * {@code MD5OfMessageAttributes}, and {@code MD5OfMessageSystemAttributes} computed the
 * same way: {@link MessageSystemAttributes#md5}): lower-case hex, which the AWS SDKs
 * check against what they sent or received.
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

	/**
	 * {@code MD5OfMessageAttributes}: the MD5 of the attributes by name, each as its
	 * name, its type (each a 4-byte length and UTF-8), a transport byte (1 for text, 2
	 * for binary) and its value (a 4-byte length and the bytes), as SQS documents it.
	 */
	static String ofAttributes(MessageAttributes attributes) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		for (Map.Entry<String, Attribute> entry : attributes.attributes().entrySet()) {
			Attribute attribute = entry.getValue();
			lengthAndBytes(bytes, entry.getKey().getBytes(StandardCharsets.UTF_8));
			lengthAndBytes(bytes, attribute.type().getBytes(StandardCharsets.UTF_8));
			bytes.write(attribute.isBinary() ? 2 : 1);
			lengthAndBytes(bytes, attribute.value());
		}
		return hex(bytes.toByteArray());
	}

	private static void lengthAndBytes(ByteArrayOutputStream out, byte[] bytes) {
		out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
		out.writeBytes(bytes);
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
