/**
 * The thesis's framework, kept as the thesis built it (section 3.1.3) so its study can
 * always be rerun: AbstractQS, its Lockable map and queues, QSConfiguration, the message
 * classes (PojoMessage, AtomicMessage), and every strategy on that framework. A leaf:
 * only the catalogue (core.strategy) imports it; what the lanes share with it is in
 * core.shared.
 *
 * <p>
 * May import: core, core.shared; org.agrona, org.jctools.
 */
package io.github.qsbench.core.thesis;
