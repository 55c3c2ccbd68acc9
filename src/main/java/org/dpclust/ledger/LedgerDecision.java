package org.dpclust.ledger;

import org.dpclust.avro.BudgetStatus;

/**
 * The committed outcome of one charge: the ledger's decision, the record that holds it on the
 * budget topic (CHARGE or REFUSED, already committed there by the ledger writer: the caller must
 * not publish it again), and the stream's high-water mark after it. {@code replayed} is true when
 * the charge's key had already been decided and this is the recorded decision returned again.
 */
public record LedgerDecision(
        PrivacyLedger.Decision decision, BudgetStatus status, LedgerMark mark, boolean replayed) {
    public boolean accepted() {
        return decision.accepted();
    }
}
