package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.config.PrivacyUnit;
import org.junit.jupiter.api.Test;

/** The in-memory ledger keeps the fenced ledger's protocol: keys, replay, marks, history. */
class InMemoryLedgerClientTest {
    private static final long DAY = 86_400_000L;

    private static LedgerCharge window(String summary, long start, double eps) {
        return new LedgerCharge(
                "s",
                LedgerCharge.Source.STREAM,
                summary,
                new PrivacyLedger.Interval(start, start + 60_000),
                "",
                eps,
                1.0,
                DAY,
                PrivacyUnit.DEVICE);
    }

    @Test
    void deviceUnitsSumOverThePeriodAndReplaysAreFree() {
        InMemoryLedgerClient c = new InMemoryLedgerClient("budget", "id-1");
        LedgerDecision a = c.charge(window("stats", 0, 0.5), LedgerMark.NONE);
        LedgerDecision b = c.charge(window("stats", 60_000, 0.5), a.mark());
        assertTrue(a.accepted() && b.accepted());
        assertEquals(new LedgerMark("id-1", 2), b.mark());
        // a third window in the same period exceeds the device-unit sum
        LedgerDecision refused = c.charge(window("stats", 120_000, 0.5), b.mark());
        assertFalse(refused.accepted());
        assertEquals(1.0, refused.decision().spent(), 1e-12);
        // the next period starts afresh
        assertTrue(c.charge(window("stats", DAY, 0.5), refused.mark()).accepted());
        // replays return the recorded decisions and do not move the mark
        LedgerDecision again = c.charge(window("stats", 0, 0.5), LedgerMark.NONE);
        assertTrue(again.replayed() && again.accepted());
        assertEquals(new LedgerMark("id-1", 4), again.mark());
        assertFalse(c.charge(window("stats", 120_000, 0.5), LedgerMark.NONE).accepted());
    }

    @Test
    void aWipedLedgerIsRefusedToAWriterThatSawHistory() {
        InMemoryLedgerClient c = new InMemoryLedgerClient("budget", "id-1");
        LedgerMark seen = c.charge(window("stats", 0, 0.5), LedgerMark.NONE).mark();
        c.wipe("id-2");
        assertThrows(LedgerHistoryException.class, () -> c.charge(window("ckm", 0, 0.5), seen));
    }
}
