package org.dpclust.stream;

import org.dpclust.config.StreamSpec;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerClient;
import org.dpclust.ledger.LedgerDecision;
import org.dpclust.ledger.PrivacyLedger;
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

    /** The stream's charges: a pure ε release when {@code rho} is NaN, else its zCDP ρ. */
    WindowRelease.Charger charger(StreamSpec s) {
        return (summary, interval, epsilon, rho, fingerprint) ->
                charge(s, summary, interval, rho, fingerprint);
    }

    private WindowRelease.Charged charge(
            StreamSpec s,
            String summary,
            PrivacyLedger.Interval interval,
            double rho,
            String fingerprint)
            throws Exception {
        LedgerCharge c =
                LedgerCharge.stream(s, summary, interval.start(), interval.end())
                        .withFingerprint(fingerprint);
        LedgerDecision d =
                client.charge(Double.isNaN(rho) ? c : c.withRho(rho), state.ledgerMark());
        state.ledgerMark(d.mark());
        return WindowRelease.Charged.of(d);
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
