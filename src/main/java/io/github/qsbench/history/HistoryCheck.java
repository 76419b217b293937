package io.github.qsbench.history;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.github.qsbench.core.Delivery;
import io.github.qsbench.core.Eviction;
import io.github.qsbench.core.strategy.Strategy;
import io.github.qsbench.core.strategy.Strategy.Framework;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks history files from the command line, as the fault scripts do, from the packaged
 * jar:
 *
 * <pre>
 * java -cp target/queue-service-*.jar -Dloader.main=io.github.qsbench.history.HistoryCheck \
 *   org.springframework.boot.loader.launch.PropertiesLauncher \
 *   --strategy lane-locked [--eviction lazy] [--measure-loss] [--delivery at-least-once] history-*.jsonl
 * </pre>
 *
 * The strategy's guarantee is read from {@link Strategy} (with the service's eviction,
 * lazy unless given), unless {@code --delivery} names the one the run's service settings
 * keep across its fault (a redis service that acknowledges pushes only keeps
 * at-least-once across a failover: it may undo a lease or a completion). Prints the
 * strategy, its framework and the report as one JSON line, then each anomaly found on its
 * own line, and exits 1 when the history breaks the guarantee (a loss too, unless
 * {@code --measure-loss}: a run that measures what a fault loses), 2 on bad arguments.
 */
public final class HistoryCheck {

	private HistoryCheck() {
	}

	/** What the command prints first. */
	record Checked(String strategy, Framework framework, HistoryReport report) {

	}

	public static void main(String[] args) {
		Strategy strategy = null;
		Eviction eviction = Eviction.LAZY;
		boolean measureLoss = false;
		Delivery delivery = null;
		List<Path> files = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--strategy" -> strategy = Strategy.ofProfile(args[++i]).orElse(null);
				case "--eviction" -> eviction = Eviction.valueOf(args[++i].toUpperCase(Locale.ROOT));
				case "--measure-loss" -> measureLoss = true;
				case "--delivery" -> delivery = Delivery.valueOf(args[++i].replace('-', '_').toUpperCase(Locale.ROOT));
				default -> files.add(Path.of(args[i]));
			}
		}
		if (strategy == null || files.isEmpty()) {
			System.err.println("usage: HistoryCheck --strategy PROFILE [--eviction lazy|eager] [--measure-loss] "
					+ "[--delivery exactly-once|at-least-once] FILE...");
			System.exit(2);
		}
		Delivery guarantee = (delivery != null) ? delivery : strategy.delivery(eviction);
		HistoryReport report = HistoryChecker.check(History.read(files), guarantee);
		System.out.println(JsonMapper.builder()
			.build()
			.writeValueAsString(new Checked(strategy.profile(), strategy.framework(), report)));
		report.anomalies().forEach(System.out::println);
		if (!report.valid(measureLoss)) {
			System.err.println("history check failed: " + strategy.profile() + " (" + guarantee + ")");
			System.exit(1);
		}
	}

}
