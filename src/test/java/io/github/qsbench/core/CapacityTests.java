package io.github.qsbench.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

/**
 * What a message is charged: its bytes, or the whole G1 regions a body of half a region
 * or more keeps alive, so that the byte cap still bounds the heap with SQS's 1 MiB
 * messages.
 */
class CapacityTests {

	private static final long MIB = 1024 * 1024;

	@Test
	void heapOf_smallArray_itsBytes_humongousArray_wholeRegions() {
		assertThat(Capacity.heapOf(100, MIB)).isEqualTo(100);
		assertThat(Capacity.heapOf((int) (MIB / 2) - 17, MIB)).as("just under half a region").isEqualTo(MIB / 2 - 17);
		assertThat(Capacity.heapOf((int) (MIB / 2) - 16, MIB)).as("half a region with its header").isEqualTo(MIB);
		assertThat(Capacity.heapOf((int) MIB - 16, MIB)).as("one region exactly").isEqualTo(MIB);
		assertThat(Capacity.heapOf((int) MIB, MIB)).as("1 MiB and its header: two regions").isEqualTo(2 * MIB);
		assertThat(Capacity.heapOf((int) MIB, 2 * MIB)).isEqualTo(2 * MIB);
		assertThat(Capacity.heapOf((int) MIB, 4 * MIB)).as("under half a region of 4 MiB").isEqualTo(MIB);
		assertThat(Capacity.heapOf((int) MIB, 0)).as("no regions").isEqualTo(MIB);
	}

	@Test
	void regionSize_readFromTheRunningJvm() {
		boolean g1 = ManagementFactory.getGarbageCollectorMXBeans()
			.stream()
			.anyMatch(collector -> collector.getName().startsWith("G1"));
		if (g1) {
			assertThat(Capacity.HEAP_REGION_BYTES).isPositive().matches(bytes -> Long.bitCount(bytes) == 1);
		}
		else {
			assertThat(Capacity.HEAP_REGION_BYTES).isZero();
		}
		assertThat(Capacity.charge(new byte[100])).isEqualTo(100 + Capacity.MESSAGE_OVERHEAD_BYTES);
	}

}
