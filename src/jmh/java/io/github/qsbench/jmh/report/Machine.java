package io.github.qsbench.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * What the report can learn about the machine it runs on (Linux's /proc; "unknown"
 * elsewhere).
 */
final class Machine {

	private Machine() {
	}

	static String cpuModel() {
		return procField("/proc/cpuinfo", "model name").orElse("unknown CPU");
	}

	static String memory() {
		return procField("/proc/meminfo", "MemTotal")
			.map(kb -> String.format(Locale.ROOT, "%.1f GiB RAM", Long.parseLong(kb.replaceAll("\\D", "")) / 1048576.0))
			.orElse("unknown RAM");
	}

	private static Optional<String> procField(String file, String name) {
		try {
			return Files.readAllLines(Path.of(file))
				.stream()
				.filter(l -> l.startsWith(name))
				.map(l -> l.substring(l.indexOf(':') + 1).strip())
				.findFirst();
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

}
