package org.dpclust.ledger;

/**
 * The budget topic does not hold the history a writer expects (emptied, recreated, records missing,
 * or not compacted): nothing may be charged or released until it is restored. The message is one
 * line naming the topic, the stream and how to restore (docs/operations.md).
 */
public final class LedgerHistoryException extends IllegalStateException {
    public LedgerHistoryException(String message) {
        super(message);
    }
}
