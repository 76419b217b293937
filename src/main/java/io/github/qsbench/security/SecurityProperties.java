package io.github.qsbench.security;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who may do what, under {@code qs.security}: nothing is checked unless configured, and
 * the default bind ({@code server.address=127.0.0.1}) keeps an unconfigured service to
 * its own machine.
 *
 * @param sigv4 the SQS face's signature check and, with it, queue policies
 * @param rest the REST API's bearer tokens
 */
@ConfigurationProperties("qs.security")
public record SecurityProperties(@DefaultValue Sigv4 sigv4, @DefaultValue Rest rest) {

	/**
	 * {@code qs.security.sigv4.*}: with {@code enabled}, every SQS request on either
	 * protocol must be signed (AWS Signature Version 4) with one of {@code keys}, and a
	 * queue's {@code Policy} decides what accounts other than the owner may do.
	 *
	 * @param enabled whether signatures are checked
	 * @param keys the keys accepted ({@code keys[i].access-key-id}, {@code .secret-key},
	 * {@code .account-id})
	 */
	public record Sigv4(boolean enabled, @DefaultValue List<AccessKey> keys) {

		public Sigv4 {
			if (enabled && keys.isEmpty()) {
				throw new IllegalArgumentException(
						"qs.security.sigv4.enabled=true needs at least one key: qs.security.sigv4.keys[0].access-key-id, .secret-key, .account-id");
			}
			Set<String> ids = new HashSet<>();
			for (AccessKey key : keys) {
				if (!ids.add(key.accessKeyId())) {
					throw new IllegalArgumentException("qs.security.sigv4.keys names " + key.accessKeyId() + " twice");
				}
			}
		}

	}

	/**
	 * {@code qs.security.rest.*}: the bearer tokens the REST API, the live page's data
	 * and the actuator endpoints (health aside) ask for; none configured, none asked.
	 *
	 * @param tokens the tokens accepted ({@code tokens[i].token}, {@code .scope})
	 */
	public record Rest(@DefaultValue List<RestToken> tokens) {

		public Rest {
			Set<String> seen = new HashSet<>();
			for (RestToken token : tokens) {
				if (!seen.add(token.token())) {
					throw new IllegalArgumentException("qs.security.rest.tokens names one token twice");
				}
			}
		}

	}

}
