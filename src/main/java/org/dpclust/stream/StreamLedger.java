package org.dpclust.stream;

import java.util.Collection;
import org.dpclust.config.StreamSpec;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerClient;
import org.dpclust.ledger.LedgerDecision;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.window.WindowRelease;

/**
 * The keyed release function's side of the budget: every charge of a stream's window (each summary,
 * and the running tree's ρ) goes through the ledger client (the fenced writer on the budget topic)
 * with the stream's ledger mark from keyed state, and the mark the decision returns is kept there.
 * Must be used on the current key's stream (inside {@code onTimer}).
 *
 * <p>Charges are decided without waiting for their commit ({@link LedgerClient#decide}): the
 * releases go to the exactly-once sink and become visible only when a checkpoint completes, and
 * {@link #flush} — called from the operator's {@code snapshotState}, before that checkpoint can
 * complete — commits every decision taken since the last one. A flush that fails (the budget topic
 * unavailable, or {@link org.dpclust.ledger.LedgerConflictException}: another writer's charge
 * changed a decision) fails the checkpoint, so nothing paid for by an uncommitted decision is ever
 * published; the job restarts from its last checkpoint and replays.
 */
final class StreamLedger implements AutoCloseable {
    private final LedgerClient client;
    private final KeyedWindowState state;

    StreamLedger(LedgerClient client, KeyedWindowState state, Collection<String> streams) {
        this.client = client;
        this.state = state;
        client.register(streams);
    }

    /**
     * Commits every decision taken so far (before the checkpoint that publishes their releases).
     */
    void flush() {
        client.flush();
    }

    /** The stream's charges, each for exactly the budget its release is calibrated from. */
    WindowRelease.Charger charger(StreamSpec s) {
        return (summary, interval, budget, fingerprint) ->
                charge(s, summary, interval, budget, fingerprint);
    }

    private WindowRelease.Charged charge(
            StreamSpec s,
            String summary,
            PrivacyLedger.Interval interval,
            ReleaseBudget budget,
            String fingerprint)
            throws Exception {
        LedgerCharge c =
                LedgerCharge.stream(s, summary, interval, budget).withFingerprint(fingerprint);
        LedgerDecision d = client.decide(c, state.ledgerMark());
        state.ledgerMark(d.mark());
        return WindowRelease.Charged.of(d); // WindowRelease.paid checks it is for budget
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
