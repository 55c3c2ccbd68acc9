package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.PrivacyUnit;
import org.junit.jupiter.api.Test;

class LedgerHistoryTest {
    private static final String TOPIC = "budget";
    private static final String ID = "topic-A";
    private static final PrivacyLedger.Interval W = new PrivacyLedger.Interval(0, 60_000);

    private static LedgerCharge batch(String run, double eps) {
        return new LedgerCharge(
                "s",
                LedgerCharge.Source.BATCH,
                "stats",
                W,
                run,
                eps,
                1.0,
                86_400_000L,
                PrivacyUnit.RECORD);
    }

    private static LedgerCharge stream(String summary, double eps) {
        return new LedgerCharge(
                "s",
                LedgerCharge.Source.STREAM,
                summary,
                W,
                "",
                eps,
                1.0,
                86_400_000L,
                PrivacyUnit.RECORD);
    }

    /** Decides c against h, records decision and marker in h (what the writer commits). */
    private static PrivacyLedger.Decision decide(LedgerHistory h, LedgerCharge c) {
        PrivacyLedger.Decision d = h.evaluate(c);
        long seq = h.highWater() + 1;
        h.add(LedgerHistory.decisionRecord(c, d, seq, ID));
        h.add(LedgerHistory.markerRecord("s", 1.0, "record", seq, ID, ""));
        return d;
    }

    @Test
    void keysAreUniquePerChargeAndDeterministic() {
        assertEquals("s|stream|stats|0:60000", stream("stats", 0.1).key());
        assertEquals("s|batch|stats|0:60000|r1", batch("r1", 0.1).key());
        assertFalse(batch("r1", 0.1).key().equals(batch("r2", 0.1).key()));
        assertFalse(stream("stats", 0.1).key().equals(stream("ckm", 0.1).key()));
        // a batch interval equal to a window no longer shares the window's key
        assertFalse(stream("stats", 0.1).key().equals(batch("r1", 0.1).key()));
        assertThrows(IllegalArgumentException.class, () -> batch("a|b", 0.1));
        assertThrows(IllegalArgumentException.class, () -> batch("", 0.1));
    }

    /**
     * A writer counts decisions before committing them and goes back to a copy when the commit
     * fails: the copy must not see what the original counted after it, and must decide as the
     * original did before.
     */
    @Test
    void aCopyIsIndependentOfWhatTheOriginalCountsLater() {
        LedgerHistory h = new LedgerHistory("s");
        decide(h, stream("stats", 0.4));
        for (int i = 0; i < LedgerHistory.MAX_DECIDED + 3; i++) { // evictions, sequence numbers
            decide(h, batch("z" + i, 1e-6));
        }
        LedgerHistory copy = h.copy();
        assertTrue(decide(h, batch("r1", 0.5)).accepted());
        assertFalse(h.evaluate(batch("r2", 0.5)).accepted(), "0.9 + 0.5 > 1");
        assertTrue(copy.evaluate(batch("r2", 0.5)).accepted(), "the copy has spent 0.4");
        assertEquals(h.highWater() - 1, copy.highWater());
        assertNull(copy.recorded(batch("r1", 0.5).key()));
        assertEquals(
                h.decisions() - 1,
                copy.decisions(),
                "the copy counts what was committed when it was taken");
        copy.check(TOPIC, ID, new LedgerMark(ID, copy.highWater()));
        // and the copy goes on like the original would have
        decide(copy, batch("r1", 0.5));
        assertEquals(h.evaluate(batch("r2", 0.5)), copy.evaluate(batch("r2", 0.5)));
    }

    @Test
    void chargesOfOneIntervalAddUpAndTheCapRefuses() {
        LedgerHistory h = new LedgerHistory("s");
        assertTrue(decide(h, stream("stats", 0.4)).accepted());
        assertTrue(decide(h, batch("r1", 0.4)).accepted());
        PrivacyLedger.Decision refused = decide(h, batch("r2", 0.4));
        assertFalse(refused.accepted());
        assertEquals(0.8, refused.spent(), 1e-12);
        assertEquals(3, h.highWater());
        assertEquals(BudgetEventKind.REFUSED, h.recorded(batch("r2", 0.4).key()).getKind());
        h.check(TOPIC, ID, new LedgerMark(ID, 3));
    }

    @Test
    void aRecordReadTwiceCountsOnce() {
        LedgerHistory h = new LedgerHistory("s");
        decide(h, stream("stats", 0.4));
        BudgetStatus first = h.recorded(stream("stats", 0.4).key());
        h.add(first);
        assertSame(first, h.recorded(stream("stats", 0.4).key()));
        assertEquals(0.5, h.evaluate(batch("x", 0.1)).spent(), 1e-12);
    }

    @Test
    void legacyTotalsAreAddedToFencedChargesNeverDropped() {
        LedgerHistory h = new LedgerHistory("s");
        BudgetStatus v1 = LedgerHistory.decisionRecord(stream("stats", 0.3), decision(0.3), 0, "");
        v1.setChargeKey("");
        h.add(v1);
        v1 = LedgerHistory.decisionRecord(stream("stats", 0.3), decision(0.5), 0, "");
        v1.setChargeKey("");
        h.add(v1); // the latest legacy total of the interval: 0.5
        decide(h, batch("r1", 0.2));
        assertEquals(0.8, h.evaluate(batch("x", 0.1)).spent(), 1e-12);
        assertFalse(decide(h, batch("r2", 0.4)).accepted());
    }

    private static PrivacyLedger.Decision decision(double total) {
        return new PrivacyLedger.Decision(true, W, 0.3, total, total, 1.0, 0, 86_400_000L);
    }

    @Test
    void otherStreamsAreIgnored() {
        LedgerHistory h = new LedgerHistory("t");
        LedgerHistory s = new LedgerHistory("s");
        decide(s, batch("r1", 0.5));
        h.add(s.recorded(batch("r1", 0.5).key()));
        h.add(s.marker());
        assertEquals(0, h.highWater());
        assertNull(h.marker());
    }

    @Test
    void anEmptyTopicIsFineForANewWriterAndRefusedForOneThatSawHistory() {
        LedgerHistory h = new LedgerHistory("s");
        h.check(TOPIC, ID, LedgerMark.NONE);
        LedgerHistoryException e =
                assertThrows(
                        LedgerHistoryException.class,
                        () -> h.check(TOPIC, ID, new LedgerMark(ID, 7)));
        assertEquals(
                "budget topic 'budget' lost ledger history of stream 's': it is empty (no ledger"
                        + " marker), but this writer has seen its history up to sequence 7 on"
                        + " topic id topic-A; nothing is charged or released until it is"
                        + " restored: see docs/operations.md, \"Restoring the budget topic\"",
                e.getMessage());
    }

    @Test
    void aMarkerOfAnotherTopicIdIsRefusedUntilAdopted() {
        LedgerHistory h = new LedgerHistory("s");
        decide(h, batch("r1", 0.2));
        assertTrue(
                assertThrows(
                                LedgerHistoryException.class,
                                () -> h.check(TOPIC, "topic-B", LedgerMark.NONE))
                        .getMessage()
                        .contains(
                                "was recreated: its ledger marker was written to topic id topic-A"));
        h.add(LedgerHistory.markerRecord("s", 1.0, "record", 1, "topic-B", "topic-A"));
        h.check(TOPIC, "topic-B", new LedgerMark("topic-A", 1));
        assertTrue(
                assertThrows(
                                LedgerHistoryException.class,
                                () -> h.check(TOPIC, "topic-B", new LedgerMark("topic-C", 1)))
                        .getMessage()
                        .contains("was not adopted from it"));
    }

    @Test
    void aLowerHighWaterMarkOrAGapIsRefused() {
        LedgerHistory h = new LedgerHistory("s");
        decide(h, batch("r1", 0.2));
        decide(h, batch("r2", 0.2));
        assertTrue(
                assertThrows(
                                LedgerHistoryException.class,
                                () -> h.check(TOPIC, ID, new LedgerMark(ID, 3)))
                        .getMessage()
                        .contains("lower high-water mark (2) than this writer has seen (3)"));

        // decision 1 deleted (retention), decision 2 and the marker kept
        LedgerHistory gap = new LedgerHistory("s");
        gap.add(h.recorded(batch("r2", 0.2).key()));
        gap.add(h.marker());
        assertTrue(
                assertThrows(
                                LedgerHistoryException.class,
                                () -> gap.check(TOPIC, ID, LedgerMark.NONE))
                        .getMessage()
                        .contains("holds 1 of the charge decisions 1..2"));

        // decisions without a marker
        LedgerHistory noMarker = new LedgerHistory("s");
        noMarker.add(h.recorded(batch("r1", 0.2).key()));
        assertThrows(
                LedgerHistoryException.class, () -> noMarker.check(TOPIC, ID, LedgerMark.NONE));
    }

    /** Decides c on h the way a ledger client does, recording what it would commit. */
    private static LedgerDecision charge(LedgerHistory h, LedgerCharge c) {
        LedgerHistory.Pending p = h.decide(c, ID);
        if (p.marker() != null) {
            h.add(p.decision().status());
            h.add(p.marker());
        }
        return p.decision();
    }

    @Test
    void aReplayWithAnotherReleaseFingerprintIsChargedAsANewRelease() {
        LedgerHistory h = new LedgerHistory("s");
        LedgerDecision first = charge(h, stream("stats", 0.4).withFingerprint("aa"));
        assertFalse(first.replayed());
        assertEquals("s|stream|stats|0:60000", first.status().getChargeKey());
        assertTrue(charge(h, stream("stats", 0.4).withFingerprint("aa")).replayed());
        assertTrue(charge(h, stream("stats", 0.4)).replayed(), "no fingerprint: a replay");

        LedgerDecision other = charge(h, stream("stats", 0.4).withFingerprint("bb"));
        assertFalse(other.replayed(), "other contents are another release");
        assertTrue(other.accepted());
        assertEquals("s|stream|stats|0:60000|bb", other.status().getChargeKey());
        assertEquals(0.8, other.decision().intervalTotal(), 1e-12);
        assertEquals(2, other.mark().seq());
        LedgerDecision otherAgain = charge(h, stream("stats", 0.4).withFingerprint("bb"));
        assertTrue(otherAgain.replayed());
        assertEquals(other.decision(), otherAgain.decision());
        assertFalse(charge(h, stream("stats", 0.4).withFingerprint("cc")).accepted());
        h.check(TOPIC, ID, new LedgerMark(ID, 3));
    }

    @Test
    void aRecordedDecisionReadsBackAsTheLedgerDecision() {
        LedgerHistory h = new LedgerHistory("s");
        PrivacyLedger.Decision d = decide(h, batch("r1", 0.25));
        assertEquals(d, LedgerHistory.decisionOf(h.recorded(batch("r1", 0.25).key())));
        BudgetStatus m = h.marker();
        assertEquals(1, m.getSeq());
        assertEquals(ID, m.getTopicId());
        assertEquals(Instant.EPOCH, m.getWindowStart());
    }

    @Test
    void replaysOlderThanTheHeldDecisionsAreLookedUpAndNewWindowsAreNot() {
        LedgerHistory h = new LedgerHistory("s");
        java.util.Map<String, BudgetStatus> topic = new java.util.HashMap<>();
        int[] lookups = {0};
        java.util.function.Function<String, BudgetStatus> lookUp =
                k -> {
                    lookups[0]++;
                    return topic.get(k);
                };
        int n = LedgerHistory.MAX_DECIDED + 100;
        for (int i = 0; i < n; i++) {
            LedgerCharge c = window(i).withFingerprint("f" + i);
            LedgerHistory.Pending p = h.decide(c, ID, lookUp);
            assertFalse(p.decision().replayed());
            topic.put(p.decision().status().getChargeKey(), p.decision().status());
            h.add(p.decision().status());
            h.add(p.marker());
        }
        assertEquals(0, lookups[0], "a window after every held one is new: no look-up");
        LedgerHistory.Pending old = h.decide(window(3).withFingerprint("f3"), ID, lookUp);
        assertTrue(old.decision().replayed(), "the recorded decision of an evicted key");
        assertNull(old.marker());
        assertEquals(topic.get(window(3).key()), old.decision().status());
        assertTrue(lookups[0] > 0);
        LedgerHistory.Pending other = h.decide(window(3).withFingerprint("zz"), ID, lookUp);
        assertFalse(other.decision().replayed(), "another release of an evicted window");
        assertEquals(window(3).key() + "|zz", other.decision().status().getChargeKey());
        assertEquals(n + 1, other.decision().status().getSeq());
        h.check(TOPIC, ID, new LedgerMark(ID, n));
    }

    private static LedgerCharge window(int i) {
        return new LedgerCharge(
                "s",
                LedgerCharge.Source.STREAM,
                "stats",
                new PrivacyLedger.Interval(i * 10_000L, (i + 1) * 10_000L),
                "",
                0.1,
                1.0,
                86_400_000L,
                PrivacyUnit.RECORD);
    }

    @Test
    void decisionsOutOfSequenceOrderAreCheckedForGapsToo() {
        LedgerHistory h = new LedgerHistory("s");
        for (long seq : new long[] {2, 1, 4}) {
            BudgetStatus d =
                    LedgerHistory.decisionRecord(window((int) seq), decision(0.1), seq, ID);
            d.setChargeKey(window((int) seq).key());
            h.add(d);
        }
        h.add(LedgerHistory.markerRecord("s", 1.0, "record", 4, ID, ""));
        assertThrows(LedgerHistoryException.class, () -> h.checkComplete(TOPIC));
        BudgetStatus three = LedgerHistory.decisionRecord(window(3), decision(0.1), 3, ID);
        three.setChargeKey(window(3).key());
        h.add(three);
        h.checkComplete(TOPIC);
    }

    /** Review: a NaN legacy total hid every later legacy total of its interval. */
    @Test
    void aNonFiniteOrNegativeLegacyTotalIsRefused() {
        for (double bad : new double[] {Double.NaN, -0.5, Double.POSITIVE_INFINITY}) {
            LedgerHistory h = new LedgerHistory("s");
            BudgetStatus v1 =
                    LedgerHistory.decisionRecord(stream("stats", 0.3), decision(bad), 0, "");
            v1.setChargeKey("");
            assertThrows(LedgerHistoryException.class, () -> h.add(v1), "total " + bad);
        }
    }

    /** Review: a second copy of an evicted decision broke the completeness check. */
    @Test
    void aSecondCopyOfAnEvictedDecisionIsFoldedAgainButNotCountedTwice() {
        LedgerHistory h = new LedgerHistory("s");
        BudgetStatus first = null;
        for (int i = 0; i < LedgerHistory.MAX_DECIDED + 5; i++) {
            LedgerHistory.Pending p = h.decide(window(i), ID, k -> null);
            if (i == 0) {
                first = p.decision().status();
            }
            h.add(p.decision().status());
            h.add(p.marker());
        }
        assertNull(h.recorded(first.getChargeKey()), "evicted");
        h.add(first); // the copier ran twice
        assertEquals(1, h.duplicates());
        h.check(TOPIC, ID, new LedgerMark(ID, LedgerHistory.MAX_DECIDED + 5));
    }
}
