package io.github.qsbench.application.queues;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The push timeline dates ids never too early: for a cut-off it answers the last id of
 * the latest sample taken at or before it, so every id it answers was pushed by then.
 */
class PushTimelineTests {

	private static final long MINUTE = 60_000;

	private final PushTimeline timeline = new PushTimeline();

	@Test
	void lastIdAtOrBefore_theLatestSampleByThen() {
		this.timeline.sample(1_000, 10, MINUTE);
		this.timeline.sample(2_000, 20, MINUTE);
		this.timeline.sample(3_000, 35, MINUTE);

		assertThat(this.timeline.lastIdAtOrBefore(999)).as("nothing dated yet").isZero();
		assertThat(this.timeline.lastIdAtOrBefore(1_000)).isEqualTo(10);
		assertThat(this.timeline.lastIdAtOrBefore(2_999)).isEqualTo(20);
		assertThat(this.timeline.lastIdAtOrBefore(10_000)).isEqualTo(35);
	}

	@Test
	void sample_atMostOncePerInterval() {
		this.timeline.sample(1_000, 10, MINUTE);
		this.timeline.sample(1_500, 15, MINUTE);

		assertThat(this.timeline.size()).isOne();
		assertThat(this.timeline.lastIdAtOrBefore(1_500)).as("15 is not dated by then: never early").isEqualTo(10);
	}

	@Test
	void longRetention_longerInterval_boundedSamples() {
		long twoWeeks = 14 * 24 * 3_600_000L;
		for (long now = 0; now < twoWeeks * 2; now += 1_000) {
			this.timeline.sample(now, now, twoWeeks);
		}

		assertThat(this.timeline.size()).as("about SAMPLES: samples come a whole second apart")
			.isBetween(PushTimeline.SAMPLES - 10, PushTimeline.SAMPLES + 2);
		long cutoff = twoWeeks * 2 - twoWeeks;
		assertThat(this.timeline.lastIdAtOrBefore(cutoff)).as("at most one interval late")
			.isBetween(cutoff - twoWeeks / PushTimeline.SAMPLES, cutoff);
	}

	@Test
	void oldSamples_droppedButTheOneACutOffStillNeeds() {
		for (long now = 0; now <= 10 * MINUTE; now += 1_000) {
			this.timeline.sample(now, now / 1_000, MINUTE);
		}

		assertThat(this.timeline.size()).isBetween(60, 62);
		assertThat(this.timeline.lastIdAtOrBefore(9 * MINUTE)).isEqualTo(540);
	}

}
