package io.github.qsbench.sqs;

import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the SQS face, under {@code qs.sqs}: what its queue URLs and ARNs name.
 *
 * @param accountId the account in queue URLs
 * ({@code http://<host>:<port>/<account>/<queue>}) and ARNs: twelve digits, as AWS
 * account ids are
 * @param region the region in ARNs ({@code arn:aws:sqs:<region>:<account>:<queue>})
 */
@ConfigurationProperties("qs.sqs")
public record SqsProperties(@DefaultValue("000000000000") String accountId, @DefaultValue("us-east-1") String region) {

	private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");

	private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,64}");

	public SqsProperties {
		if (!ACCOUNT.matcher(accountId).matches()) {
			throw new IllegalArgumentException("qs.sqs.account-id must be twelve digits, was '" + accountId + "'");
		}
		if (!REGION.matcher(region).matches()) {
			throw new IllegalArgumentException(
					"qs.sqs.region must be a region name such as us-east-1, was '" + region + "'");
		}
	}

}
