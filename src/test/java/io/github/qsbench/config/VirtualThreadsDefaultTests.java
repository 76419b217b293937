package io.github.qsbench.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class VirtualThreadsDefaultTests {

	private static final String PROPERTY = VirtualThreadsDefault.PROPERTY;

	@Test
	void jdk25_virtualByDefault() {
		assertThat(defaulted(25, Map.of()).getProperty(PROPERTY)).isEqualTo("true");
	}

	@Test
	void jdk17and21_platformByDefault() {
		assertThat(defaulted(17, Map.of()).getProperty(PROPERTY)).isNull();
		assertThat(defaulted(21, Map.of()).getProperty(PROPERTY)).isNull();
	}

	@Test
	void jdk25_explicitSettingWins() {
		assertThat(defaulted(25, Map.of(PROPERTY, "false")).getProperty(PROPERTY)).isEqualTo("false");
	}

	private static StandardEnvironment defaulted(int jdk, Map<String, Object> set) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("set", set));
		new VirtualThreadsDefault(jdk).postProcessEnvironment(environment, new SpringApplication());
		return environment;
	}

}
