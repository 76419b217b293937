/**
 * The frameworks that keep messages in flight apart from ready ones (thesis 5.2.3.1): the
 * outline AbstractLanesQS with its Ledger and one in-flight record (a locked and a
 * lock-free variant), the lock-free split lanes (AbstractSplitQS) and the lanes under a
 * lock per queue (AbstractLaneLockedQS), their messages, and the strategies on them. Why
 * each is exactly-once: docs/design/exactly-once.md and docs/design/lanes.md.
 *
 * <p>
 * May import: core, core.shared; org.agrona, org.jctools.
 */
package io.github.qsbench.core.lanes;
