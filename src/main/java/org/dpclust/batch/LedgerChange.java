package org.dpclust.batch;

/**
 * What one batch run did to a stream's ledger, from the decision the fenced writer recorded under
 * the run's own charge key ({@code jobs/BatchJob#chargeKey}): whether it was a CHARGE (else a
 * REFUSED), the interval's charged total after it, and the stream's spend in the budget period of
 * the interval's start as the decision states it (ε; under zcdp accounting the (ε, δ) equivalent at
 * the stream's δ). Reading the run's own decision, rather than comparing interval totals before and
 * after, keeps a concurrent charge of the same interval (the streaming job, another run) from
 * reading as this run's. Everything here is public (the ledger is published).
 *
 * @param charged whether the run's charge was accepted
 * @param intervalTotal the interval's charged total after the decision
 * @param spent the stream's spend in the budget period containing the interval's start, after
 */
public record LedgerChange(boolean charged, double intervalTotal, double spent) {}
