/**
 * What the core's frameworks share: the messages' completion contract
 * (CompletableMessage), the id index (IdIndex) and the compare-and-set field handles
 * (VarHandles). The thesis's framework and the lanes frameworks both build on it, and
 * neither imports the other.
 *
 * <p>
 * May import: core; org.agrona, org.jctools.
 */
package io.github.qsbench.core.shared;
