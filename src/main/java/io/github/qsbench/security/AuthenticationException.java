package io.github.qsbench.security;

/**
 * A request's SigV4 signature was not verified. {@link #getMessage()} is the text AWS
 * gives for the failure, safe to send back to the client: it never holds a secret, the
 * signature the service expected or the string it signed.
 */
public final class AuthenticationException extends RuntimeException {

	/**
	 * Why the request was refused; each is one of AWS's error codes.
	 */
	public enum Failure {

		/** {@code MissingAuthenticationToken}: no signature at all. */
		MISSING_AUTHENTICATION_TOKEN,

		/** {@code IncompleteSignature}: a signature lacking a part, or malformed. */
		INCOMPLETE_SIGNATURE,

		/** {@code InvalidClientTokenId}: an access key id the service does not know. */
		INVALID_CLIENT_TOKEN_ID,

		/** {@code SignatureDoesNotMatch}: a wrong signature or credential scope. */
		SIGNATURE_DOES_NOT_MATCH,

		/** {@code RequestExpired}: signed too long ago, or too far ahead. */
		REQUEST_EXPIRED

	}

	private final Failure failure;

	AuthenticationException(Failure failure, String message) {
		super(message);
		this.failure = failure;
	}

	public Failure failure() {
		return this.failure;
	}

}
