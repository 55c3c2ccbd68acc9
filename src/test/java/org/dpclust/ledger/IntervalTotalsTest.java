package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IntervalTotalsTest {
    /** The map it replaces, as the reference: insertion order, oldest dropped first. */
    @Test
    void holdsWhatAnInsertionOrderedMapOfTheLatestIntervalsWouldHold() throws IOException {
        SplittableRandom r = new SplittableRandom(3);
        IntervalTotals t = new IntervalTotals(16);
        LinkedHashMap<Long, Double> ref = new LinkedHashMap<>();
        for (int i = 0; i < 5_000; i++) {
            long start = r.nextLong(0, 40) * 10; // revisits some intervals, so updates in place
            double total = r.nextDouble();
            long dropped = t.put(start, start + 10, total);
            boolean held = ref.containsKey(start);
            ref.put(start, total);
            long expectDropped = Long.MIN_VALUE;
            if (!held && ref.size() > 16) {
                expectDropped = ref.keySet().iterator().next();
                ref.remove(expectDropped);
            }
            assertEquals(expectDropped, dropped, "dropped at " + i);
            assertEquals(ref.size(), t.size());
            for (long s = 0; s < 400; s += 10) {
                Double e = ref.get(s);
                double got = t.get(s, s + 10);
                assertEquals(e == null ? Double.NaN : e, got, "interval " + s + " at " + i);
            }
            assertTrue(Double.isNaN(t.get(start, start + 20)), "another end is another interval");
        }
        // written oldest first and read back: the same entries, the same next eviction
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        t.write(new DataOutputStream(bytes));
        IntervalTotals back =
                IntervalTotals.read(
                        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 16);
        for (Map.Entry<Long, Double> e : ref.entrySet()) {
            assertEquals(e.getValue(), back.get(e.getKey(), e.getKey() + 10));
        }
        assertEquals(ref.keySet().iterator().next(), back.put(1_000, 1_010, 1.0));
        assertEquals(ref.keySet().iterator().next(), t.copy().put(1_000, 1_010, 1.0));
        assertEquals(Long.MIN_VALUE, back.droppedOnRead());
    }

    /** A list longer than the bound keeps its newest entries and reports what it dropped. */
    @Test
    void aLongerListReadUnderASmallerBoundReportsWhatItDropped() throws IOException {
        IntervalTotals wide = new IntervalTotals(32);
        for (long s = 0; s < 20; s++) {
            wide.put(s * 10, s * 10 + 10, s);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        wide.write(new DataOutputStream(bytes));
        IntervalTotals narrow =
                IntervalTotals.read(
                        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 16);
        assertEquals(16, narrow.size());
        assertEquals(30, narrow.droppedOnRead(), "intervals 0, 10, 20, 30 dropped");
        assertTrue(Double.isNaN(narrow.get(30, 40)));
        assertEquals(4.0, narrow.get(40, 50));
    }
}
