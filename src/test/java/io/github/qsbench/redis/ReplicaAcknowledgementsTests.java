package io.github.qsbench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.lettuce.core.cluster.SlotHash;

/** The marker a cluster's push writes beside the id counter, on the counter's slot. */
class ReplicaAcknowledgementsTests {

	@Test
	void besideOnItsSlot_aKeyWithoutAHashTag_becomesTheTag() {
		byte[] marker = ReplicaAcknowledgements.besideOnItsSlot("qs:ids", ":replicated");

		assertThat(RedisStore.utf8(marker)).isEqualTo("{qs:ids}:replicated");
		assertThat(SlotHash.getSlot(marker)).isEqualTo(SlotHash.getSlot("qs:ids"));
	}

	@Test
	void besideOnItsSlot_aKeyWithAHashTag_keepsIt() {
		byte[] marker = ReplicaAcknowledgements.besideOnItsSlot("{app}:ids", ":replicated");

		assertThat(RedisStore.utf8(marker)).isEqualTo("{app}:ids:replicated");
		assertThat(SlotHash.getSlot(marker)).isEqualTo(SlotHash.getSlot("{app}:ids"));
	}

	@Test
	void besideOnItsSlot_bracesThatLeaveNoSuchName_areRefused() {
		assertThatThrownBy(() -> ReplicaAcknowledgements.besideOnItsSlot("a}b:ids", ":replicated"))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("namespace whose braces are a hash tag");
	}

}
