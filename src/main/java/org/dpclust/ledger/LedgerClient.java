package org.dpclust.ledger;

import java.util.Collection;

/**
 * Charges a stream's privacy ledger (docs/ledger.md). {@link #charge} returns a decision only once
 * it is committed (a refusal is then on the budget topic); {@link #decide} may return it before,
 * and its caller lets what it pays for become visible only after a successful {@link #flush}.
 * Callers release only after an accepted decision. Implementations: {@link KafkaLedgerClient} (the
 * fenced writer per budget-topic partition).
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

    /**
     * Decides {@code charge} like {@link #charge} but may defer committing it to {@link #flush}:
     * the caller must let what the decision pays for become visible only after a successful {@link
     * #flush} (the stream job flushes before each checkpoint, and its releases become visible when
     * the checkpoint completes). Committing at once, as this default does, is always allowed.
     */
    default LedgerDecision decide(LedgerCharge charge, LedgerMark seen) {
        return charge(charge, seen);
    }

    /**
     * Commits every decision deferred by {@link #decide}.
     *
     * @throws LedgerConflictException if a deferred decision no longer holds against the latest
     *     committed spend (another writer charged in between): nothing it paid for may be published
     */
    default void flush() {}

    /**
     * Announces the streams this client will charge, so their histories are read together (a hint;
     * charging an unannounced stream works too).
     */
    default void register(Collection<String> streams) {}

    @Override
    void close();
}
