package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.dpclust.privacy.PrivacyLedger;
import org.junit.jupiter.api.Test;

class LedgerChangeTest {
    private static final long DAY = 86_400_000L;
    private static final PrivacyLedger.Interval RUN = new PrivacyLedger.Interval(60_000, 120_000);
    private static final PrivacyLedger.Interval OTHER = new PrivacyLedger.Interval(0, 180_000);
    private static final PrivacyLedger.Interval YESTERDAY =
            new PrivacyLedger.Interval(-DAY, -DAY + 60_000);

    @Test
    void aGrownIntervalTotalIsAChargeAndSpentIsTheRunsBudgetPeriodsOverlappingSum() {
        LedgerChange c =
                LedgerChange.between(
                        Map.of(OTHER.key(), 0.5, YESTERDAY.key(), 2.0),
                        Map.of(OTHER.key(), 0.5, YESTERDAY.key(), 2.0, RUN.key(), 1.0),
                        RUN,
                        3.0,
                        DAY);
        assertTrue(c.charged());
        assertEquals(1.0, c.intervalTotal(), 1e-12);
        assertEquals(1.5, c.spent(), 1e-12);
    }

    @Test
    void anUnchangedIntervalIsARefusal() {
        Map<String, Double> ledger = Map.of(RUN.key(), 1.0);
        LedgerChange c = LedgerChange.between(ledger, ledger, RUN, 1.5, DAY);
        assertFalse(c.charged());
        assertEquals(1.0, c.intervalTotal(), 1e-12);
        assertEquals(1.0, c.spent(), 1e-12);
        assertFalse(LedgerChange.between(Map.of(), Map.of(), RUN, 1.5, DAY).charged());
    }
}
