package io.github.qsbench.security;

import java.util.regex.Pattern;

/**
 * One SigV4 key the service accepts: its id, its secret and the account it acts as.
 * {@link #toString()} leaves the secret out, so that no log or error prints it.
 *
 * @param accessKeyId the id a client names in its credential scope
 * @param secretKey the secret both sides sign with; never logged
 * @param accountId the twelve-digit account whose queues' ARNs and policy principals name
 * it
 */
public record AccessKey(String accessKeyId, String secretKey, String accountId) {

	private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");

	public AccessKey {
		if (accessKeyId == null || accessKeyId.isBlank()) {
			throw new IllegalArgumentException("an access key needs an access-key-id");
		}
		if (secretKey == null || secretKey.isEmpty()) {
			throw new IllegalArgumentException("the access key " + accessKeyId + " needs a secret-key");
		}
		if (accountId == null || !ACCOUNT.matcher(accountId).matches()) {
			throw new IllegalArgumentException(
					"the access key " + accessKeyId + " needs an account-id of twelve digits, was '" + accountId + "'");
		}
	}

	@Override
	public String toString() {
		return "AccessKey[accessKeyId=" + this.accessKeyId + ", secretKey=******, accountId=" + this.accountId + "]";
	}

}
