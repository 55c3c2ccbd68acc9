package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.config.BudgetAccounting;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.Zcdp;
import org.junit.jupiter.api.Test;

/**
 * zCDP accounting and lifetime caps through the fenced-ledger protocol ({@link LedgerHistory}, here
 * via {@link InMemoryLedgerClient}): what is decided and what the BudgetStatus records carry.
 */
class LedgerZcdpTest {
    private static final long DAY = 86_400_000L;
    private static final long W = 60_000L;

    private static LedgerCharge window(long start, double eps, BudgetAccounting a) {
        return window(start, eps, a, 1.0);
    }

    private static LedgerCharge window(long start, double eps, BudgetAccounting a, double cap) {
        return new LedgerCharge(
                        "s",
                        LedgerCharge.Source.STREAM,
                        "stats",
                        new PrivacyLedger.Interval(start, start + W),
                        "",
                        eps,
                        cap,
                        DAY,
                        PrivacyUnit.DEVICE)
                .withAccounting(a);
    }

    /**
     * Device units, cap (ε, δ) = (10, 1e-6), pure releases of ε = 0.125 (ρ = 1/128 each, exact):
     * accepted while Σρ stays within the ρ cap, which is at least the BS16 closed form (√(L+10) −
     * √L)², L = ln 1e6, computed here; records carry ρ and the (ε, δ) equivalent.
     */
    @Test
    void zcdpDeviceStreamReleasesUntilTheConvertedCap() {
        BudgetAccounting z = new BudgetAccounting(Accounting.ZCDP, 1e-6, Double.POSITIVE_INFINITY);
        InMemoryLedgerClient c = new InMemoryLedgerClient("budget", "id-1");
        LedgerMark mark = LedgerMark.NONE;
        int accepted = 0;
        LedgerDecision last = null;
        for (int i = 0; i < 400; i++) {
            last = c.charge(window(i * W, 0.125, z, 10), mark);
            mark = last.mark();
            if (!last.accepted()) {
                break;
            }
            accepted++;
            assertEquals("zcdp", last.status().getAccounting());
            assertEquals(1.0 / 128, last.status().getRho(), 0.0);
            assertEquals(accepted / 128.0, last.status().getRhoSpent(), 0.0);
            assertEquals(Zcdp.epsilon(accepted / 128.0, 1e-6), last.status().getSpent(), 0.0);
            assertEquals(1e-6, last.status().getDelta());
        }
        double l = Math.log(1e6);
        double rhoBs16 = Math.pow(Math.sqrt(l + 10) - Math.sqrt(l), 2);
        assertEquals((int) Math.floor(Zcdp.rhoCap(10, 1e-6) * 128), accepted);
        assertTrue(accepted >= (int) Math.floor(rhoBs16 * 128), "at least the BS16 cap");
        // pure accounting of the same releases would allow 80 (sum of eps <= 10)
        assertTrue(accepted > 80, "zcdp composes better than pure: " + accepted);
        assertFalse(last.accepted());
        assertTrue(last.status().getSpent() <= 10.0);
        assertEquals(10.0, last.decision().cap());
        assertEquals(Zcdp.rhoCap(10, 1e-6), last.status().getRhoCap(), 0.0);
    }

    @Test
    void lifetimeCapRefusesInTheNextPeriod() {
        BudgetAccounting pure = new BudgetAccounting(Accounting.PURE, Double.NaN, 1.5);
        InMemoryLedgerClient c = new InMemoryLedgerClient("budget", "id-1");
        LedgerMark mark = LedgerMark.NONE;
        for (int i = 0; i < 4; i++) {
            LedgerDecision d = c.charge(window(i * W, 0.25, pure), mark);
            assertTrue(d.accepted());
            mark = d.mark();
        }
        LedgerDecision d1 = c.charge(window(DAY, 0.25, pure), mark);
        LedgerDecision d2 = c.charge(window(DAY + W, 0.25, pure), d1.mark());
        assertTrue(d1.accepted() && d2.accepted());
        LedgerDecision refused = c.charge(window(DAY + 2 * W, 0.25, pure), d2.mark());
        assertFalse(refused.accepted());
        assertTrue(refused.decision().lifetime());
        assertTrue(refused.status().getLifetimeRefused());
        assertEquals(1.5, refused.decision().spent(), 0.0);
        assertEquals(0.5, refused.decision().epsilon() * 2, 0.0);
    }

    @Test
    void aPureChargeCannotFollowZcdpCharges() {
        BudgetAccounting z = new BudgetAccounting(Accounting.ZCDP, 1e-6, Double.POSITIVE_INFINITY);
        InMemoryLedgerClient c = new InMemoryLedgerClient("budget", "id-1");
        LedgerDecision a = c.charge(window(0, 0.25, z, 10), LedgerMark.NONE);
        assertTrue(a.accepted());
        assertThrows(
                IllegalStateException.class,
                () -> c.charge(window(W, 0.25, BudgetAccounting.PURE, 10), a.mark()));
        // and a zcdp ledger counts earlier pure charges as eps^2/2
        InMemoryLedgerClient c2 = new InMemoryLedgerClient("budget", "id-2");
        LedgerDecision p = c2.charge(window(0, 0.5, BudgetAccounting.PURE, 10), LedgerMark.NONE);
        LedgerDecision q = c2.charge(window(W, 0.5, z, 10), p.mark());
        assertEquals(0.25, q.status().getRhoSpent(), 0.0);
    }

    /** A Gaussian release charges its ρ as is; its ε label is the ε that ρ implies at δ. */
    @Test
    void rhoChargesAreChargedAsIs() {
        BudgetAccounting z = new BudgetAccounting(Accounting.ZCDP, 1e-6, Double.POSITIVE_INFINITY);
        InMemoryLedgerClient c = new InMemoryLedgerClient("budget", "id-1");
        LedgerDecision a = c.charge(window(0, 1, z, 10).withRho(0.5), LedgerMark.NONE);
        LedgerDecision b = c.charge(window(W, 1, z, 10).withRho(0.25), a.mark());
        assertTrue(a.accepted() && b.accepted());
        assertEquals(0.5, a.status().getRho(), 0.0);
        assertEquals(0.75, b.status().getRhoSpent(), 0.0);
        assertEquals(Zcdp.epsilon(0.25, 1e-6), b.status().getEpsilon(), 0.0);
        // replay: the same charge gets the recorded decision
        LedgerDecision again = c.charge(window(W, 1, z, 10).withRho(0.25), b.mark());
        assertTrue(again.replayed());
        // over the cap (rhoCap(10, 1e-6) = 1.54): refused
        assertFalse(c.charge(window(2 * W, 1, z, 10).withRho(1.0), b.mark()).accepted());
        assertThrows(
                IllegalArgumentException.class,
                () -> window(0, 1, BudgetAccounting.PURE, 10).withRho(0.5));
    }

    /**
     * A replay must be the same charge in ρ too: a pure release of the ε a recorded ρ release
     * implies costs ε²/2, not that ρ, so it is a conflict, not the recorded decision; so is the
     * same ε label with another ρ.
     */
    @Test
    void aReplayWithTheSameEpsilonButAnotherRhoIsAConflict() {
        BudgetAccounting z = new BudgetAccounting(Accounting.ZCDP, 1e-6, Double.POSITIVE_INFINITY);
        InMemoryLedgerClient c = new InMemoryLedgerClient("budget", "id-1");
        LedgerDecision a = c.charge(window(0, 1, z, 10).withRho(0.25), LedgerMark.NONE);
        double eps = a.status().getEpsilon();
        assertEquals(Zcdp.epsilon(0.25, 1e-6), eps, 0.0);
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () -> c.charge(window(0, eps, z, 10), a.mark()));
        assertTrue(e.getMessage().contains("rho 0.25"), e.getMessage());
        // the same ρ again is the replay
        assertTrue(c.charge(window(0, 1, z, 10).withRho(0.25), a.mark()).replayed());
    }
}
