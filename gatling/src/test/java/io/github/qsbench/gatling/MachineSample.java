package io.github.qsbench.gatling;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * The machine's CPU ticks so far (the first line of {@code /proc/stat}, every process,
 * all CPUs summed, in clock ticks) and this JVM's own CPU time, read at the edges of the
 * load window: how busy the machine was inside the window, and how much of that was
 * neither the service nor Gatling (the study's noisy flag).
 *
 * @param busyTicks user + nice + system + irq + softirq + steal
 * @param totalTicks busy + idle + iowait
 * @param ownCpuNanos this JVM's CPU time (Gatling's, when it runs the simulation), or -1
 */
record MachineSample(long busyTicks, long totalTicks, long ownCpuNanos) {

	/** Now, or null where there is no {@code /proc/stat} (not Linux). */
	static MachineSample now() {
		long own = -1;
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			own = os.getProcessCpuTime();
		}
		try {
			String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
			// cpu user nice system idle iowait irq softirq steal ...
			long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
					+ Long.parseLong(f[7]) + Long.parseLong(f[8]);
			return new MachineSample(busy, busy + Long.parseLong(f[4]) + Long.parseLong(f[5]), own);
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Puts the window's machineBusyTicks, machineTotalTicks and gatlingCpuSeconds.
	 */
	void putSince(MachineSample open, BiConsumer<String, Object> put) {
		put.accept("machineBusyTicks", this.busyTicks - open.busyTicks);
		put.accept("machineTotalTicks", this.totalTicks - open.totalTicks);
		if (this.ownCpuNanos >= 0 && open.ownCpuNanos >= 0) {
			put.accept("gatlingCpuSeconds", (this.ownCpuNanos - open.ownCpuNanos) / 1e9);
		}
	}

}
