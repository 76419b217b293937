/**
 * The core's API: QueueServiceCore (the thesis's QueueService plus batches, leases,
 * completion by id, a browse, counts and caps) and its value types. Plain Java: JMH,
 * jcstress and Lincheck build a strategy without Spring, and nothing here knows an
 * adapter, the application or a store.
 *
 * <p>
 * May import: nothing; nothing.
 */
package io.github.qsbench.core;
