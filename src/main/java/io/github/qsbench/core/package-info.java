/**
 * The core's API: QueueServiceCore (the thesis's QueueService plus batches, leases,
 * completion by id, discard, the end of a delay) over QueueServiceView (counts, a browse,
 * has-ready, caps), and their value types. Plain Java: JMH, jcstress and Lincheck build a
 * strategy without Spring, and nothing here knows an adapter, the application or a store.
 *
 * <p>
 * May import: nothing; nothing.
 */
package io.github.qsbench.core;
