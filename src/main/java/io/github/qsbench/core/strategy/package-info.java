/**
 * The catalogue of strategies: the Strategy enum, which builds every strategy from one
 * small context and records what each promises (framework, delivery guarantee, how its
 * threads wait).
 *
 * <p>
 * May import: core, core.thesis, core.lanes; nothing.
 */
package io.github.qsbench.core.strategy;
