package io.github.qsbench.gatling;

/**
 * Prints every preset's name ({@link LoadSettings.Preset#ALL}), one a line, so that the
 * end-to-end study (scripts/e2e-study.sh) takes the valid presets from LoadSettings
 * instead of copying the list, as {@code io.github.qsbench.config.StrategyList} does for
 * the strategies:
 * {@code java -cp gatling/target/test-classes io.github.qsbench.gatling.PresetList}.
 */
public final class PresetList {

	private PresetList() {
	}

	public static void main(String[] args) {
		LoadSettings.Preset.ALL.forEach(preset -> System.out.println(preset.name()));
	}

}
