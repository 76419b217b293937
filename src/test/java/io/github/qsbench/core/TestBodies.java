package io.github.qsbench.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Message bodies for tests, which write them as text. */
public final class TestBodies {

	private TestBodies() {
	}

	/** The texts' UTF-8 bytes, in order, as a batch push takes them. */
	public static List<byte[]> utf8(String... texts) {
		return Arrays.stream(texts).map(text -> text.getBytes(StandardCharsets.UTF_8)).toList();
	}

}
