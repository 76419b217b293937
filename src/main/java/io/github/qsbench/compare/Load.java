package io.github.qsbench.compare;

import java.io.IOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Drives one instance for one window ({@link SocketLoad}; a fake in tests).
 */
interface Load {

	/**
	 * Loads the instance for the window, or until {@code cancelled}.
	 */
	Window run(Instances.Instance instance, Workload workload, Duration window, BooleanSupplier cancelled)
			throws IOException, InterruptedException;

	/**
	 * What a window measured.
	 *
	 * @param completed messages completed (204) inside the window
	 * @param nanos the window's length
	 * @param errors answers other than the expected ones (pushes refused included)
	 */
	record Window(long completed, long nanos, long errors) {

		double perSecond() {
			return this.completed * 1e9 / this.nanos;
		}

	}

}
