package io.github.qsbench.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.QueueServiceApplication;
import io.github.qsbench.core.TestCores;
import io.github.qsbench.redis.LocalRedis;
import io.github.qsbench.config.StrategyProfiles.InvalidStrategyProfileException;
import io.github.qsbench.core.QueueServiceCore;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.http.HttpClientSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Boots the whole service once per profile, on a real port, as
 * {@code --spring.profiles.active} would.
 */
@ExtendWith(OutputCaptureExtension.class)
class StrategyProfilesHttpTests {

	private static final String VALID = "synchronized, read-write-lock, concurrent-pojo, concurrent-atomic";

	@ParameterizedTest
	@EnumSource(Strategy.class)
	void eachProfile_bootsAndServesRoundTrip(Strategy strategy) {
		try (ConfigurableApplicationContext context = start(strategy.profile())) {
			HttpClientSupport http = client(context);

			http.roundTrip("profile-test", "via " + strategy.profile());

			assertThat(http.get("/queues/profile-test/messages").statusCode()).isEqualTo(204);
			String info = http.get("/actuator/info").body();
			assertThat(JsonPath.parse(info).read("$.strategy.name", String.class)).isEqualTo(strategy.profile());
			assertThat(JsonPath.parse(info).read("$.strategy.implementation", String.class))
				.isEqualTo(context.getBean(QueueServiceCore.class).getClass().getSimpleName());
			String scraped = http.get("/actuator/prometheus").body();
			assertThat(scraped).contains("qs_messages_completed_total{application=\"queue-service\",strategy=\""
					+ strategy.profile() + "\"} 1.0");
			Matcher pushTime = Pattern
				.compile("qs_core_seconds_total\\{application=\"queue-service\",operation=\"push\"," + "strategy=\""
						+ strategy.profile() + "\"} (\\S+)")
				.matcher(scraped);
			assertThat(pushTime.find()).as("qs_core_seconds_total of push").isTrue();
			assertThat(Double.parseDouble(pushTime.group(1))).isPositive();
		}
	}

	@Test
	void noProfile_concurrentAtomic() {
		try (ConfigurableApplicationContext context = start()) {
			assertThat(context.getBean(QueueServiceProperties.class).strategy()).isEqualTo(Strategy.CONCURRENT_ATOMIC);
			assertThat(context.getBean(InstantSource.class)).as("the service's time").isInstanceOf(SlewedClock.class);
		}
	}

	@Test
	void unknownProfile_failsListingValidNames() {
		assertThatThrownBy(() -> start("synchronised").close())
			.hasRootCauseInstanceOf(InvalidStrategyProfileException.class)
			.rootCause()
			.hasMessageContaining("Unknown profile synchronised")
			.hasMessageContaining(VALID);
	}

	@Test
	void twoStrategyProfiles_failListingValidNames() {
		assertThatThrownBy(() -> start("synchronized", "concurrent-pojo").close())
			.hasRootCauseInstanceOf(InvalidStrategyProfileException.class)
			.rootCause()
			.hasMessageContaining("More than one strategy profile is active: synchronized, concurrent-pojo")
			.hasMessageContaining(VALID);
	}

	@Test
	void declaredOtherProfile_allowedBesideStrategy() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(QueueServiceApplication.class)
			.profiles("synchronized", "dev")
			.run("--server.port=0", "--qs.other-profiles=dev")) {
			assertThat(context.getBean(QueueServiceProperties.class).strategy()).isEqualTo(Strategy.SYNCHRONIZED);
		}
	}

	@Test
	void strategyVariableDisagreeingWithProfile_failsNamingBoth(CapturedOutput output) {
		// QS_STRATEGY outranks the qs.strategy that
		// application-concurrent-pojo.properties sets
		assertThatThrownBy(() -> startWithVariable("QS_STRATEGY", "synchronized", "concurrent-pojo").close())
			.hasRootCauseInstanceOf(InvalidStrategyProfileException.class)
			.rootCause()
			.hasMessageContaining("The strategy profile concurrent-pojo is active but qs.strategy is synchronized "
					+ "(System Environment Property \"QS_STRATEGY\")")
			.hasMessageContaining(VALID);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("two settings choose different strategies")
			.contains("Choose the strategy in one place");
	}

	@Test
	void strategyArgumentDisagreeingWithProfile_fails() {
		assertThatThrownBy(() -> new SpringApplicationBuilder(QueueServiceApplication.class).profiles("synchronized")
			.run("--server.port=0", "--qs.strategy=read-write-lock")
			.close()).hasRootCauseInstanceOf(InvalidStrategyProfileException.class)
			.rootCause()
			.hasMessageContaining("The strategy profile synchronized is active but qs.strategy is read-write-lock");
	}

	@Test
	void strategyVariableAgreeingWithProfile_starts() {
		try (ConfigurableApplicationContext context = startWithVariable("QS_STRATEGY", "read-write-lock",
				"read-write-lock")) {
			assertThat(context.getBean(QueueServiceProperties.class).strategy()).isEqualTo(Strategy.READ_WRITE_LOCK);
		}
	}

	@Test
	void strategyVariableWithoutProfile_choosesStrategy() {
		try (ConfigurableApplicationContext context = startWithVariable("QS_STRATEGY", "synchronized")) {
			assertThat(context.getBean(QueueServiceProperties.class).strategy()).isEqualTo(Strategy.SYNCHRONIZED);
		}
	}

	/** Starts as if the process environment also held {@code name=value}. */
	private static ConfigurableApplicationContext startWithVariable(String name, String value, String... profiles) {
		Map<String, Object> variables = new HashMap<>(System.getenv());
		variables.put(name, value);
		StandardEnvironment environment = new StandardEnvironment() {

			@Override
			protected void customizePropertySources(MutablePropertySources propertySources) {
				super.customizePropertySources(propertySources);
				propertySources.replace(SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
			}

		};
		return new SpringApplicationBuilder(QueueServiceApplication.class).environment(environment)
			.profiles(profiles)
			.run("--server.port=0");
	}

	/**
	 * Starts the service with those profiles; every start finds the test JVM's own
	 * redis-server, which only the redis strategy uses.
	 */
	private static ConfigurableApplicationContext start(String... profiles) {
		LocalRedis redis = LocalRedis.shared();
		return new SpringApplicationBuilder(QueueServiceApplication.class).profiles(profiles)
			.run("--server.port=0", "--spring.data.redis.host=" + redis.host(),
					"--spring.data.redis.port=" + redis.port(), "--qs.redis.namespace=" + TestCores.newNamespace());
	}

	private static HttpClientSupport client(ConfigurableApplicationContext context) {
		return new HttpClientSupport(Integer.parseInt(context.getEnvironment().getProperty("local.server.port")));
	}

}
