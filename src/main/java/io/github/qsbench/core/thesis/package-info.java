/**
 * The thesis's framework, kept as the thesis built it (section 3.1.3) so its study can
 * always be rerun: AbstractQS, its Lockable map and queues, QSConfiguration, the message
 * classes (PojoMessage, AtomicMessage), and every strategy on that framework. The lanes
 * frameworks reuse its messages' base, Lockable and id index.
 *
 * <p>
 * May import: core; org.agrona, org.jctools.
 */
package io.github.qsbench.core.thesis;
