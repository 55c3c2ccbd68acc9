package org.dpclust.ledger;

/**
 * Charges a stream's privacy ledger and returns the decision only once it is committed
 * (docs/ledger.md). Callers release only after an accepted decision; a refused one is already
 * published (the REFUSED status is on the budget topic). Implementations: {@link KafkaLedgerClient}
 * (the fenced single writer per stream on the budget topic).
 */
public interface LedgerClient extends AutoCloseable {

    /**
     * Charges {@code charge} against the latest committed spend of its stream, or returns the
     * recorded decision if the charge's key was decided before (idempotent replay).
     *
     * @param seen the high-water mark the caller has seen for this stream (Flink state), or {@link
     *     LedgerMark#NONE}
     * @throws LedgerHistoryException if the budget topic lost history the caller or the topic's own
     *     marker expects
     * @throws LedgerUnavailableException if the charge could not be committed in time
     */
    LedgerDecision charge(LedgerCharge charge, LedgerMark seen);

    @Override
    void close();
}
