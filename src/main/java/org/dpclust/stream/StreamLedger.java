package org.dpclust.stream;

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
 */
final class StreamLedger implements AutoCloseable {
    private final LedgerClient client;
    private final KeyedWindowState state;

    StreamLedger(LedgerClient client, KeyedWindowState state) {
        this.client = client;
        this.state = state;
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
        LedgerDecision d = client.charge(c, state.ledgerMark());
        state.ledgerMark(d.mark());
        return WindowRelease.Charged.of(d); // WindowRelease.paid checks it is for budget
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
