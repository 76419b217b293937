package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.qsbench.core.Completion;
import io.github.qsbench.core.Peeked;

import org.junit.jupiter.api.Test;

/**
 * The scripts' answer codes and {@link RedisCodes} say the same: each script declares its
 * codes as named locals, and every constant of the enum it answers has its code there and
 * in the table, so neither an enum's order nor a script's numbers can drift apart.
 */
class RedisCodesTests {

	private static final Pattern LOCALS = Pattern
		.compile("(?m)^local ([A-Z_]+(?:, [A-Z_]+)*) = ([0-9]+(?:, [0-9]+)*)$");

	@Test
	void completionCodes_areTheCompleteScripts() throws IOException {
		Map<String, Integer> lua = codes("complete.lua");
		for (Completion completion : Completion.values()) {
			assertThat(lua).as("complete.lua").containsEntry(completion.name(), RedisCodes.COMPLETIONS.get(completion));
			assertThat(RedisCodes.completion(RedisCodes.COMPLETIONS.get(completion))).isEqualTo(completion);
		}
	}

	/**
	 * The fenced completion answers complete.lua's codes (it runs complete.lua, composed)
	 * and one of its own, which is none of them.
	 */
	@Test
	void fencedCompletionCodes_oneOfItsOwn_noneOfTheCompleteScripts() throws IOException {
		Map<String, Integer> lua = codes("move-complete.lua");
		assertThat(lua).as("move-complete.lua").containsExactly(Map.entry("FENCED", RedisCodes.FENCED));
		assertThat(RedisCodes.COMPLETIONS).doesNotContainValue(RedisCodes.FENCED);
		assertThat(codes("complete.lua")).doesNotContainValue(RedisCodes.FENCED);
	}

	@Test
	void stateCodes_areThePeekScripts() throws IOException {
		Map<String, Integer> lua = codes("peek.lua");
		for (Peeked.State state : Peeked.State.values()) {
			assertThat(lua).as("peek.lua").containsEntry(state.name(), RedisCodes.STATES.get(state));
			assertThat(RedisCodes.state(RedisCodes.STATES.get(state))).isEqualTo(state);
		}
	}

	/** The script's upper-case locals with their numbers. */
	private static Map<String, Integer> codes(String script) throws IOException {
		String source;
		try (InputStream in = RedisQS.class.getResourceAsStream(script)) {
			source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		Map<String, Integer> codes = new HashMap<>();
		Matcher locals = LOCALS.matcher(source);
		while (locals.find()) {
			String[] names = locals.group(1).split(", ");
			int[] values = Arrays.stream(locals.group(2).split(", ")).mapToInt(Integer::parseInt).toArray();
			for (int i = 0; i < names.length; i++) {
				codes.put(names[i], values[i]);
			}
		}
		return codes;
	}

}
