package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.BudgetAccounting;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.io.AvroCodec;
import org.dpclust.privacy.Accounting;
import org.junit.jupiter.api.Test;

/**
 * A snapshot is the history it was taken from: decoded, it decides every later charge (replays,
 * refusals, lifetime cap, zCDP ρ) exactly as the original, checks the same high-water mark and
 * counts the same decisions — with evicted decisions, stream and batch charges, device and record
 * units.
 */
class LedgerSnapshotTest {
    private static final String ID = "topic-A";
    private static final long DAY = 86_400_000L;
    private static final long W = 60_000L;
    private static final AvroCodec<BudgetStatus> CODEC = AvroCodec.budget();

    private static LedgerCharge charge(
            int i, LedgerCharge.Source source, PrivacyUnit unit, BudgetAccounting a) {
        long start = (i % 500) * W;
        return new LedgerCharge(
                        "s",
                        source,
                        i % 3 == 0 ? "ckm" : "stats",
                        new PrivacyLedger.Interval(start, start + W * (1 + i % 4)),
                        source == LedgerCharge.Source.BATCH ? "r" + i : "",
                        0.01 + (i % 7) * 0.003,
                        2.0,
                        DAY,
                        unit)
                .withAccounting(a);
    }

    /** Decides and counts like the writer: the decision, then its record and marker read back. */
    private static LedgerDecision decide(LedgerHistory h, LedgerCharge c) {
        LedgerHistory.Pending p = h.decide(c, ID);
        if (p.marker() != null) {
            h.add(p.decision().status());
            h.add(p.marker());
        }
        return p.decision();
    }

    private static List<LedgerCharge> charges(PrivacyUnit unit, BudgetAccounting a, int from) {
        List<LedgerCharge> out = new ArrayList<>();
        for (int i = from; i < from + 300; i++) {
            out.add(
                    charge(
                            i,
                            i % 5 == 0 ? LedgerCharge.Source.BATCH : LedgerCharge.Source.STREAM,
                            unit,
                            a));
        }
        return out;
    }

    private static void roundTrip(PrivacyUnit unit, BudgetAccounting a) throws IOException {
        LedgerHistory h = new LedgerHistory("s");
        for (LedgerCharge c : charges(unit, a, 0)) {
            decide(h, c);
        }
        LedgerSnapshot snap = new LedgerSnapshot("s", ID, 3, 12_345, h);
        LedgerSnapshot back = LedgerSnapshot.decode(snap.encode(CODEC), CODEC);
        assertEquals("s", back.stream());
        assertEquals(ID, back.topicId());
        assertEquals(3, back.partition());
        assertEquals(12_345, back.coveredOffset());
        LedgerHistory r = back.history();
        assertEquals(h.highWater(), r.highWater());
        assertEquals(h.decisions(), r.decisions());
        assertEquals(h.lastChargedEnd(), r.lastChargedEnd());
        r.check("budget", ID, new LedgerMark(ID, h.highWater()));
        // replays of held and evicted keys, then new charges up to and past the cap
        List<LedgerCharge> next = new ArrayList<>(charges(unit, a, 280));
        next.addAll(charges(unit, a, 600));
        for (LedgerCharge c : next) {
            LedgerDecision x = decide(h, c);
            LedgerDecision y = decide(r, c);
            assertEquals(x.decision(), y.decision(), c.key());
            assertEquals(x.replayed(), y.replayed(), c.key());
            assertEquals(x.status(), y.status(), c.key());
        }
    }

    @Test
    void aDecodedSnapshotDecidesAsTheHistoryItWasTakenFrom() throws IOException {
        roundTrip(PrivacyUnit.RECORD, BudgetAccounting.PURE);
        roundTrip(PrivacyUnit.DEVICE, BudgetAccounting.PURE);
        roundTrip(PrivacyUnit.RECORD, new BudgetAccounting(Accounting.PURE, Double.NaN, 3.0));
        roundTrip(
                PrivacyUnit.DEVICE,
                new BudgetAccounting(Accounting.ZCDP, 1e-6, Double.POSITIVE_INFINITY));
    }

    @Test
    void bytesThatAreNotASnapshotAreRefused() {
        assertThrows(
                IOException.class, () -> LedgerSnapshot.decode(new byte[] {1, 2, 3, 4, 5}, CODEC));
        byte[] good = new LedgerSnapshot("s", ID, 0, 0, new LedgerHistory("s")).encode(CODEC);
        good[7] = 9; // version 9
        assertThrows(IOException.class, () -> LedgerSnapshot.decode(good, CODEC));
    }
}
