package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link PeriodSpend} against sorted maps of exact amounts (what {@link RunningBudget} kept
 * before): the latest period exact, earlier ones never below the exact amount and at most a few
 * units in the last place above it, and snapshots in the maps' format.
 */
class PeriodSpendTest {

    @Test
    void theLatestPeriodIsExactAndEarlierOnesAreTightUpperBounds() {
        SplittableRandom rnd = new SplittableRandom(7);
        PeriodSpend s = new PeriodSpend(RunningBudget.MAX_PERIODS);
        TreeMap<Long, BigDecimal> spent = new TreeMap<>();
        TreeMap<Long, BigDecimal> collapsed = new TreeMap<>();
        int raisedEarlier = 0;
        for (int op = 0; op < 20_000; op++) {
            long p = 1_000L * (op / 200 + (rnd.nextInt(10) == 0 ? -rnd.nextInt(30) : 0));
            BigDecimal a =
                    new BigDecimal(rnd.nextDouble() / 100); // amounts as the ledger holds them
            raisedEarlier += !spent.isEmpty() && p < spent.lastKey() ? 1 : 0;
            // the ledger raises by what the bound it reads says, so does the reference: its amount
            // is the exact sum of what was charged, the bound's is never below it
            BigDecimal exact = spent.getOrDefault(p, BigDecimal.ZERO).add(a);
            s.setSpent(p, s.spent(p).add(a));
            spent.put(p, exact);
            if (rnd.nextBoolean()) {
                collapsed.merge(p, a, BigDecimal::add);
                s.setCollapsed(p, s.collapsed(p).add(a));
            }
            while (spent.size() > RunningBudget.MAX_PERIODS) {
                assertEquals(spent.firstKey(), s.firstStart());
                long first = spent.firstKey();
                assertTrue(s.pollFirst().compareTo(spent.remove(first)) >= 0);
                collapsed.remove(first);
            }
            assertEquals(spent.size(), s.size());
            assertEquals(0, s.spent(spent.lastKey()).compareTo(spent.lastEntry().getValue()));
            for (Map.Entry<Long, BigDecimal> e : spent.entrySet()) {
                assertBound(e.getValue(), s.spent(e.getKey()), "spent " + e.getKey());
                BigDecimal c = collapsed.getOrDefault(e.getKey(), BigDecimal.ZERO);
                assertBound(c, s.collapsed(e.getKey()), "collapsed " + e.getKey());
            }
        }
        assertTrue(raisedEarlier > 1_000, "earlier periods raised " + raisedEarlier + " times");
    }

    /** {@code bound} ≥ {@code exact}, and above it by less than 10⁻¹² of it. */
    private static void assertBound(BigDecimal exact, BigDecimal bound, String what) {
        assertTrue(bound.compareTo(exact) >= 0, what + " under-counted");
        BigDecimal slack = exact.multiply(new BigDecimal("1e-12"));
        assertTrue(bound.subtract(exact).compareTo(slack) <= 0, what + " too loose");
    }

    @Test
    void aSnapshotReadsBackAsTheSameBoundsAndInTheMapsFormat() throws IOException {
        PeriodSpend s = new PeriodSpend(RunningBudget.MAX_PERIODS);
        BigDecimal tenth = new BigDecimal("0.1"); // not a double: the latest keeps it exactly
        for (long p = 0; p < 5; p++) {
            s.setSpent(p, s.spent(p).add(tenth).add(tenth));
            s.setCollapsed(p, tenth);
        }
        s.setSpent(2, s.spent(2).add(tenth)); // an earlier period raised: rounded up
        PeriodSpend back = roundTrip(s);
        assertEquals(s.size(), back.size());
        for (long p = 0; p < 5; p++) {
            assertEquals(s.spent(p), back.spent(p), "spent " + p);
            assertEquals(s.collapsed(p), back.collapsed(p), "collapsed " + p);
        }
        assertEquals(new BigDecimal("0.2"), back.spent(4));

        // what RunningBudget wrote as two TreeMaps reads as those bounds
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(2);
        out.writeLong(10);
        RunningBudget.writeAmount(out, new BigDecimal("0.3"));
        out.writeLong(20);
        RunningBudget.writeAmount(out, new BigDecimal("0.7"));
        out.writeInt(1);
        out.writeLong(10);
        RunningBudget.writeAmount(out, new BigDecimal("0.1"));
        PeriodSpend old =
                PeriodSpend.read(
                        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
                        RunningBudget.MAX_PERIODS);
        assertBound(new BigDecimal("0.3"), old.spent(10), "earlier");
        assertEquals(new BigDecimal("0.7"), old.spent(20));
        assertBound(new BigDecimal("0.1"), old.collapsed(10), "collapsed");
        assertEquals(BigDecimal.ZERO, old.collapsed(20));
    }

    private static PeriodSpend roundTrip(PeriodSpend s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.write(new DataOutputStream(bytes));
        return PeriodSpend.read(
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
                RunningBudget.MAX_PERIODS);
    }
}
