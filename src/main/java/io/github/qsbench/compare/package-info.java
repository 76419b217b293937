/**
 * A comparison of strategies started from the live page ({@code POST /compare}): one
 * child JVM per strategy from the jar this service runs from, each driven in turn by a
 * lean in-process load in an order shuffled per round from a recorded seed, and each
 * strategy's messages/s and CPU per message over the first chosen as paired ratios with
 * 95% t-intervals and verdicts. One at a time, bounded in time and load; nothing here
 * runs or costs anything until a comparison is started.
 *
 * <p>
 * May import: core.strategy; org.springframework, io.swagger, jakarta.servlet, org.slf4j.
 */
package io.github.qsbench.compare;
