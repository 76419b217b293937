package io.github.qsbench.security;

import java.net.InetAddress;
import java.time.Instant;
import java.util.Objects;

/**
 * What a queue policy's conditions may test about a request, besides who sends it.
 *
 * @param now when the request is decided ({@code aws:CurrentTime}, {@code aws:EpochTime})
 * @param sourceIp the address the request came from ({@code aws:SourceIp}); {@code null}
 * when not known, which IAM treats as a key missing from the request: no
 * {@code IpAddress} condition holds and every {@code NotIpAddress} does
 * @param secureTransport whether the request came over TLS ({@code aws:SecureTransport})
 */
public record RequestContext(Instant now, InetAddress sourceIp, boolean secureTransport) {

	public RequestContext {
		Objects.requireNonNull(now, "now");
	}

}
