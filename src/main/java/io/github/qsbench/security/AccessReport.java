package io.github.qsbench.security;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Says at start-up where the service listens and what it checks, so that nobody serves an
 * open queue to a network by surprise. Names no secret.
 */
@Component
class AccessReport implements ApplicationListener<WebServerInitializedEvent> {

	private static final Logger logger = LoggerFactory.getLogger(AccessReport.class);

	private final SecurityProperties security;

	private final Environment environment;

	AccessReport(SecurityProperties security, Environment environment) {
		this.security = security;
		this.environment = environment;
	}

	@Override
	public void onApplicationEvent(WebServerInitializedEvent event) {
		if (event.getApplicationContext().getParent() != null) {
			return;
		}
		logger.info(describe(this.environment.getProperty("server.address"), event.getWebServer().getPort()));
	}

	String describe(String address, int port) {
		String where = (address == null || address.isEmpty()) ? "every interface (server.address unset)" : address;
		boolean loopback = address != null && (address.startsWith("127.") || address.equals("::1")
				|| address.equals("localhost") || address.equals("[::1]"));
		SecurityProperties.Sigv4 sigv4 = this.security.sigv4();
		List<RestToken> tokens = this.security.rest().tokens();
		return "Listening on " + where + ":" + port
				+ (loopback ? " (this machine only; server.address=0.0.0.0 serves others)" : "") + "; SQS: "
				+ (sigv4.enabled()
						? "SigV4 signatures checked (" + sigv4.keys().size() + " keys), queue policies enforced"
						: "signatures not checked (qs.security.sigv4.enabled=false)")
				+ "; REST: "
				+ (!tokens.isEmpty()
						? "bearer tokens asked (" + count(tokens, RestToken.Scope.READ_WRITE) + " read-write, "
								+ count(tokens, RestToken.Scope.READ_ONLY) + " read-only)"
						: "no token asked (qs.security.rest.tokens empty)");
	}

	private static long count(List<RestToken> tokens, RestToken.Scope scope) {
		return tokens.stream().filter(token -> token.scope() == scope).count();
	}

}
