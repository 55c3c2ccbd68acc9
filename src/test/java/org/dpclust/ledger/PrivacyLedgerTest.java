package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.ledger.PrivacyLedger.Interval;
import org.junit.jupiter.api.Test;

class PrivacyLedgerTest {
    private static final long DAY = 86_400_000L;
    private static final long W = 10_000L;

    private static Interval window(int i) {
        return new Interval(i * W, (i + 1) * W);
    }

    /** Log lines give an interval in ISO-8601, like every other time; the key stays epoch ms. */
    @Test
    void anIntervalIsPrintedInIso8601AndStoredInEpochMillis() {
        Interval i = new Interval(1_767_225_600_000L, 1_767_225_610_000L);
        assertEquals("[2026-01-01T00:00:00Z, 2026-01-01T00:00:10Z)", i.iso());
        assertEquals("1767225600000:1767225610000", i.key());
        assertEquals(i, Interval.parse(i.key()));
    }

    @Test
    void recordUnitsSpendTheLargestWindowTotal() {
        PrivacyLedger l = new PrivacyLedger(10, DAY, false);
        for (int i = 0; i < 5; i++) {
            assertTrue(l.charge(window(i), 1.0).accepted());
        }
        assertEquals(1.0, l.spent(0), 0.0, "disjoint windows compose in parallel");
        PrivacyLedger.Decision d = l.charge(window(2), 2.0);
        assertTrue(d.accepted());
        assertEquals(3.0, d.intervalTotal(), 0.0);
        assertEquals(3.0, d.spent(), 0.0);
    }

    @Test
    void deviceUnitsSpendTheSumOverThePeriod() {
        PrivacyLedger l = new PrivacyLedger(10, DAY, true);
        for (int i = 0; i < 4; i++) {
            l.charge(window(i), 1.5);
        }
        assertEquals(6.0, l.spent(0), 0.0);
    }

    @Test
    void refusesPastTheCapAndChangesNothing() {
        PrivacyLedger l = new PrivacyLedger(2.5, DAY, true);
        assertTrue(l.charge(window(0), 1.0).accepted());
        assertTrue(l.charge(window(1), 1.0).accepted());
        PrivacyLedger.Decision refused = l.charge(window(2), 1.0);
        assertFalse(refused.accepted());
        assertEquals(2.0, refused.spent(), 0.0);
        assertEquals(2.0, l.spent(0), 0.0);
        assertFalse(l.entries().containsKey(window(2)));
    }

    @Test
    void aBatchIntervalAddsToEveryWindowItCovers() {
        PrivacyLedger l = new PrivacyLedger(3, DAY, false);
        l.charge(window(0), 1.0);
        l.charge(window(5), 2.0);
        // a batch release over windows 0..9 affects every record of windows 0..9
        assertFalse(l.charge(new Interval(0, 10 * W), 1.5).accepted(), "window 5 would reach 3.5");
        assertTrue(l.charge(new Interval(0, 4 * W), 1.5).accepted());
        assertEquals(2.5, l.spent(0), 0.0);
    }

    @Test
    void periodsAreIndependentAndOldOnesCanBeForgotten() {
        PrivacyLedger l = new PrivacyLedger(1, DAY, true);
        assertTrue(l.charge(window(0), 1.0).accepted());
        assertFalse(l.charge(window(1), 1.0).accepted());
        Interval nextDay = new Interval(DAY, DAY + W);
        assertTrue(l.charge(nextDay, 1.0).accepted());
        l.forgetBefore(DAY);
        assertEquals(1, l.entries().size());
    }

    @Test
    void decimalEpsilonsAddUpToTheCap() {
        PrivacyLedger l = new PrivacyLedger(1.0, DAY, true);
        for (int i = 0; i < 10; i++) {
            assertTrue(l.charge(window(i), 0.1).accepted(), "charge " + i);
        }
        assertFalse(l.charge(window(10), 0.1).accepted());
    }

    @Test
    void restoredTotalsCount() {
        PrivacyLedger l = new PrivacyLedger(2, DAY, false);
        l.restore(Interval.parse(window(3).key()), 1.5);
        assertFalse(l.charge(window(3), 1.0).accepted());
        assertTrue(l.charge(window(4), 1.0).accepted());
    }
}
