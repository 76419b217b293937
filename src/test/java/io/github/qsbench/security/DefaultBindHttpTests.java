package io.github.qsbench.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * Unconfigured, the service listens on the loopback address only, and says so at start-up
 * with what it checks (nothing) and without a secret.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class DefaultBindHttpTests {

	@Autowired
	WebServerApplicationContext context;

	@Autowired
	SecurityProperties security;

	@Test
	void listensOnLoopbackOnly() {
		Connector[] connectors = ((JettyWebServer) this.context.getWebServer()).getServer().getConnectors();

		assertThat(connectors).singleElement()
			.isInstanceOfSatisfying(ServerConnector.class,
					(connector) -> assertThat(bound(connector)).isEqualTo(InetAddress.getLoopbackAddress()));
	}

	@Test
	void startUpSays_whereAndWhatIsChecked() {
		String said = new AccessReport(this.security, this.context.getEnvironment()).describe("127.0.0.1", 8080);

		assertThat(said).isEqualTo("Listening on 127.0.0.1:8080 (this machine only; server.address=0.0.0.0 serves"
				+ " others); SQS: signatures not checked (qs.security.sigv4.enabled=false); REST: no token asked"
				+ " (qs.security.rest.tokens empty)");
	}

	@Test
	void configured_saysWhatWithoutSecrets() {
		SecurityProperties configured = new SecurityProperties(
				new SecurityProperties.Sigv4(true,
						java.util.List.of(new AccessKey("AKIDONE", "secret-one-0123", "111111111111"))),
				new SecurityProperties.Rest(
						java.util.List.of(new RestToken("read-write-token-0123", RestToken.Scope.READ_WRITE),
								new RestToken("read-only-token-0123", RestToken.Scope.READ_ONLY))));

		String said = new AccessReport(configured, this.context.getEnvironment()).describe("0.0.0.0", 8080);

		assertThat(said).contains("Listening on 0.0.0.0:8080;", "SigV4 signatures checked (1 keys)",
				"bearer tokens asked (1 read-write, 1 read-only)");
		assertThat(said + configured).doesNotContain("secret-one-0123", "read-write-token-0123",
				"read-only-token-0123");
	}

	@Test
	void theStartUpLine_logged(CapturedOutput output) {
		// logged once per context start; this class's context may have started before the
		// capture, so start-up is asked of a fresh report
		new AccessReport(this.security, this.context.getEnvironment()).onApplicationEvent(
				new org.springframework.boot.web.server.context.WebServerInitializedEvent(this.context.getWebServer()) {
					@Override
					public WebServerApplicationContext getApplicationContext() {
						return DefaultBindHttpTests.this.context;
					}
				});

		assertThat(output).contains("Listening on 127.0.0.1:");
	}

	/** The address the connector's server socket is bound to. */
	private static InetAddress bound(ServerConnector connector) {
		try {
			return ((InetSocketAddress) ((ServerSocketChannel) connector.getTransport()).getLocalAddress())
				.getAddress();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
