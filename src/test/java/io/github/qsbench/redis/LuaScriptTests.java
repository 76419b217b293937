package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.qsbench.core.CapacityExceededException;

import org.junit.jupiter.api.Test;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * How a Redis error is read: its code leading the message (Redis 7, and a script's own
 * errors), or behind the script's location, as Redis 6.2 wraps an error of a command a
 * script called. The messages are Redis's own, as Lettuce hands them on.
 */
class LuaScriptTests {

	@Test
	void said_codeLeadingTheError() {
		var ex = new InvalidDataAccessApiUsageException("wrapped",
				new RuntimeException("OOM command not allowed when used memory > 'maxmemory'."));
		assertThat(LuaScript.said(ex, "OOM")).isTrue();
		assertThat(LuaScript.said(ex, "CAP")).isFalse();
	}

	@Test
	void said_codeOfACommandInAScript_asRedis62WrapsIt() {
		var ex = new InvalidDataAccessApiUsageException("wrapped", new RuntimeException(
				"ERR Error running script (call to f_5c3c): @user_script:27: -OOM command not allowed when used memory > 'maxmemory'."));
		assertThat(LuaScript.said(ex, "OOM")).isTrue();
		assertThat(LuaScript.refusal(ex)).isInstanceOf(CapacityExceededException.class);
	}

	@Test
	void said_notACodeThatOnlyAppearsInText() {
		var ex = new RuntimeException("ERR unknown command 'OOMX', with args beginning with: ");
		assertThat(LuaScript.said(ex, "OOM")).isFalse();
	}

}
