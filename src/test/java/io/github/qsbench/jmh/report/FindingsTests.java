package io.github.qsbench.jmh.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link Findings} rewrites only its generated blocks of the page and refuses a page that
 * lacks one.
 */
class FindingsTests {

	@Test
	void replacesOnlyTheGeneratedBlocks() {
		String page = "# t\n\nprose $1 stays\n<!-- generated:a -->\nold\n<!-- /generated:a -->\nmore\n"
				+ "<!-- generated:b -->\n<!-- /generated:b -->\n";

		String out = Findings.replaceBlocks(page, Map.of("a", "new $0 table\n", "b", "B\n"));

		assertThat(out).isEqualTo("# t\n\nprose $1 stays\n<!-- generated:a -->\nnew $0 table\n<!-- /generated:a -->\n"
				+ "more\n<!-- generated:b -->\nB\n<!-- /generated:b -->\n");
	}

	@Test
	void refusesAPageWithoutABlock() {
		assertThatThrownBy(() -> Findings.replaceBlocks("<!-- generated:a -->\n<!-- /generated:a -->\n",
				Map.of("a", "x\n", "b", "y\n")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("b");
	}

	@Test
	void everyQuestionComparesTwoStrategies() {
		assertThat(Findings.QUESTIONS).allSatisfy((q) -> assertThat(q.a()).isNotEqualTo(q.b()));
	}

}
