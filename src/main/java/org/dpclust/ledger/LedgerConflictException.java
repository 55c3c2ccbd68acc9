package org.dpclust.ledger;

/**
 * A decision deferred by {@link LedgerClient#decide} no longer holds: another writer of its
 * budget-topic partition committed in between, and the charge, decided again from the latest
 * committed spend, decides otherwise. Nothing of the deferred decisions was committed; the caller
 * must not publish what they paid for (the stream job fails its checkpoint and replays).
 */
public final class LedgerConflictException extends RuntimeException {
    public LedgerConflictException(String message) {
        super(message);
    }
}
