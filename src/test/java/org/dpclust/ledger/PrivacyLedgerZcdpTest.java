package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.ledger.PrivacyLedger.Interval;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.Zcdp;
import org.junit.jupiter.api.Test;

/** zCDP accounting, mixed charges and lifetime caps of {@link PrivacyLedger}. */
class PrivacyLedgerZcdpTest {
    private static final long DAY = 86_400_000L;
    private static final long W = 10_000L;

    private static Interval window(long i) {
        return new Interval(i * W, (i + 1) * W);
    }

    /**
     * Device units, cap from BS16 in closed form (ρ = (√(L+ε) − √L)², L = ln 1/δ, computed here):
     * windows of ρ_w are accepted exactly while their sum stays within it.
     */
    @Test
    void deviceUnitsSumRhoUpToAClosedFormCap() {
        double l = Math.log(1e9);
        double rhoCap = Math.pow(Math.sqrt(l + 10) - Math.sqrt(l), 2); // 0.98 for (10, 1e-9)
        PrivacyLedger ledger =
                new PrivacyLedger(
                        rhoCap, DAY, true, Accounting.ZCDP, 1e-9, Double.POSITIVE_INFINITY);
        double rhoW = 1.0 / 1024; // exact in binary, so the sum is exact
        int accepted = 0;
        for (int i = 0; i < 2000; i++) {
            if (ledger.chargeRho(window(i), rhoW).accepted()) {
                accepted++;
            }
        }
        assertEquals((int) Math.floor(rhoCap / rhoW), accepted);
        assertEquals(accepted * rhoW, ledger.spent(0), 0.0);
        // the spent rho guarantees at most eps = 10 at delta = 1e-9 by BS16 (closed form here)
        double spent = ledger.spent(0);
        assertTrue(spent + 2 * Math.sqrt(spent * l) <= 10);
        assertTrue(ledger.epsilonOf(spent) <= spent + 2 * Math.sqrt(spent * l));
    }

    /** The factory converts (ε, δ) with the tighter conversion: more windows than BS16 allows. */
    @Test
    void factoryCapIsTheConvertedEpsilonDelta() {
        PrivacyLedger ledger = PrivacyLedger.zcdp(10, 1e-9, DAY, true, Double.POSITIVE_INFINITY);
        assertEquals(Zcdp.rhoCap(10, 1e-9), ledger.cap(), 0.0);
        double l = Math.log(1e9);
        assertTrue(ledger.cap() > Math.pow(Math.sqrt(l + 10) - Math.sqrt(l), 2));
        assertTrue(ledger.epsilonOf(ledger.cap()) <= 10);
        assertEquals(Accounting.ZCDP, ledger.accounting());
        assertEquals(1e-9, ledger.delta());
    }

    @Test
    void recordUnitsTakeThePerWindowMaximum() {
        PrivacyLedger ledger = new PrivacyLedger(1, DAY, false, Accounting.ZCDP, 1e-6, 1e9);
        for (int i = 0; i < 100; i++) {
            assertTrue(ledger.chargeRho(window(i), 0.25).accepted());
        }
        assertEquals(0.25, ledger.spent(0), 0.0);
        assertTrue(ledger.chargeRho(window(7), 0.5).accepted());
        assertEquals(0.75, ledger.spent(0), 0.0);
        assertFalse(ledger.chargeRho(window(7), 0.5).accepted());
    }

    /** A pure ε release on a zCDP ledger costs ε²/2; ρ and ε²/2 add. */
    @Test
    void mixedPureAndZcdpChargesAdd() {
        PrivacyLedger ledger = new PrivacyLedger(1, DAY, true, Accounting.ZCDP, 1e-6, 1e9);
        PrivacyLedger.Decision pure = ledger.charge(window(0), 0.5);
        assertTrue(pure.accepted());
        assertEquals(0.125, pure.epsilon(), 0.0);
        assertEquals(0.125, pure.spent(), 0.0);
        assertTrue(ledger.chargeRho(window(1), 0.375).accepted());
        assertEquals(0.5, ledger.spent(0), 0.0);
        // 0.5 more as pure epsilon 1.0 (rho 0.5) fits exactly; any more does not
        assertTrue(ledger.charge(window(2), 1.0).accepted());
        assertFalse(ledger.charge(window(3), 0.01).accepted());
        // epsilon 0.1 is not exact in binary: its rho is rounded up, never down
        PrivacyLedger l2 = new PrivacyLedger(1, DAY, true, Accounting.ZCDP, 1e-6, 1e9);
        double rho = l2.charge(window(0), 0.1).epsilon();
        assertTrue(
                new java.math.BigDecimal(rho)
                                .compareTo(
                                        new java.math.BigDecimal(0.1)
                                                .pow(2)
                                                .divide(java.math.BigDecimal.valueOf(2)))
                        >= 0);
    }

    @Test
    void pureLedgerRefusesRhoCharges() {
        PrivacyLedger ledger = new PrivacyLedger(1, DAY, true);
        assertEquals(Accounting.PURE, ledger.accounting());
        assertThrows(IllegalStateException.class, () -> ledger.chargeRho(window(0), 0.1));
        assertEquals(0.3, ledger.epsilonOf(0.3));
    }

    /** Device units: the lifetime cap binds across periods, also after old entries are dropped. */
    @Test
    void lifetimeCapRefusesAcrossPeriodsInBothModes() {
        for (Accounting mode : Accounting.values()) {
            PrivacyLedger ledger = new PrivacyLedger(1, DAY, true, mode, 1e-6, 2.5);
            long perDay = DAY / W;
            assertTrue(charge(ledger, mode, window(0), 1).accepted());
            assertTrue(charge(ledger, mode, window(perDay), 1).accepted());
            ledger.forgetBefore(DAY);
            assertEquals(1.0, ledger.retired(), 0.0, mode + ": day 0 retired");
            assertTrue(charge(ledger, mode, window(2 * perDay), 0.5).accepted());
            assertEquals(2.5, ledger.lifetimeSpent(), 0.0);
            PrivacyLedger.Decision refused = charge(ledger, mode, window(2 * perDay + 1), 0.25);
            assertFalse(refused.accepted(), mode.configName());
            assertTrue(refused.lifetime());
            assertEquals(2.5, refused.spent(), 0.0);
            assertEquals(2.5, refused.cap(), 0.0);
            assertEquals(0.5, ledger.spent(2 * DAY), 0.0, "the period itself had room");
        }
    }

    @Test
    void recordUnitsLifetimeIsTheLargestCoverage() {
        PrivacyLedger ledger = new PrivacyLedger(10, DAY, false, Accounting.PURE, Double.NaN, 3);
        assertTrue(ledger.charge(window(0), 2).accepted());
        assertTrue(ledger.charge(window(DAY / W), 2).accepted(), "disjoint: lifetime stays 2");
        assertEquals(2.0, ledger.lifetimeSpent(), 0.0);
        assertFalse(ledger.charge(window(0), 1.5).accepted());
        assertTrue(ledger.charge(window(0), 1).accepted());
    }

    private static PrivacyLedger.Decision charge(
            PrivacyLedger l, Accounting mode, Interval i, double amount) {
        // under zcdp charge rho directly; under pure, epsilon
        return mode == Accounting.ZCDP ? l.chargeRho(i, amount) : l.charge(i, amount);
    }
}
