/**
 * What a load's history says about the service: reads the operations a history load
 * client recorded ({@code scripts/faults/HistoryLoad.java}, one JSON line each) and
 * checks them after the run's final drain, as Jepsen's {@code total-queue} checker does
 * (lost, unexpected, duplicated, recovered, indeterminate) and as a lease queue must hold
 * for a strategy that promises exactly-once delivery (no delivery while another's lease
 * is certainly alive, none after an acknowledged completion, no two acknowledged
 * completions). A tool for the fault scripts ({@code scripts/faults/}), run from the
 * packaged jar; the service never calls it.
 *
 * <p>
 * May import: core, core.strategy; tools.jackson, com.fasterxml.jackson.annotation.
 */
package io.github.qsbench.history;
