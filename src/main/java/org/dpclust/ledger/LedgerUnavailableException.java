package org.dpclust.ledger;

/**
 * A charge could not be committed within the ledger's timeout (budget topic or transaction
 * coordinator unavailable). Nothing was decided: the caller must not release; a Flink job fails and
 * restarts, and the replayed charge gets the recorded decision if the commit did happen after all.
 */
public final class LedgerUnavailableException extends IllegalStateException {
    public LedgerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
