package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A device's reservoir: the c smallest hashes, and exactly what each eviction removes. */
class DeviceReservoirTest {
    private static final DeviceReservoir RESERVOIR = new DeviceReservoir(2, 3);

    /** A record with hash h: event time 100 + h, features (h, -h). */
    private static DeviceReservoir.Offer offer(long[] entries, long h) {
        return RESERVOIR.offer(entries, h, 100 + h, new double[] {h, -h});
    }

    /**
     * Replays offers like an operator would: the multiset of features added minus those evicted.
     */
    private static List<Double> counted(List<Long> hashes) {
        long[] entries = null;
        List<Double> counted = new ArrayList<>();
        for (long h : hashes) {
            DeviceReservoir.Offer o = offer(entries, h);
            if (!o.counts()) {
                assertNull(o.evicted(), "a dropped record evicts nothing");
                continue;
            }
            if (o.evicted() != null) {
                assertTrue(counted.remove(o.evicted().features()[0]), "evicts a counted record");
                assertEquals(100 + (long) o.evicted().features()[0], o.evicted().eventTime());
            }
            counted.add((double) h);
            entries = o.entries();
        }
        Collections.sort(counted);
        assertEquals(counted.size(), RESERVOIR.size(entries));
        return counted;
    }

    @Test
    void countsTheCSmallestHashesWhateverTheOrderAndEvictsExactlyWhatItAdded() {
        List<Long> hashes = new ArrayList<>(List.of(40L, 7L, 23L, 5L, 99L, 12L, 3L, 61L));
        for (int trial = 0; trial < 20; trial++) {
            Collections.shuffle(hashes, new Random(trial)); // public randomness, not privacy noise
            assertEquals(List.of(3.0, 5.0, 7.0), counted(hashes), "order " + trial);
        }
    }

    @Test
    void keepsTheRecordsFieldsBitForBit() {
        double[] x = {0.1, -0.0};
        DeviceReservoir.Offer o = RESERVOIR.offer(null, 9, 1234, x);
        assertTrue(o.counts());
        DeviceReservoir.Kept k = RESERVOIR.kept(o.entries(), 0);
        assertEquals(1234, k.eventTime());
        assertArrayEquals(x, k.features());
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(k.features()[1]));
    }

    @Test
    void aLargerHashThanAllKeptIsDroppedAndLeavesTheReservoirUnchanged() {
        long[] e = null;
        for (long h : new long[] {1, 2, 3}) {
            e = offer(e, h).entries();
        }
        long[] before = e.clone();
        DeviceReservoir.Offer o = offer(e, 50);
        assertFalse(o.counts());
        assertArrayEquals(before, o.entries());
    }

    @Test
    void rejectsAWrongDimensionOrBound() {
        assertThrows(
                IllegalArgumentException.class,
                () -> RESERVOIR.offer(null, 1, 1, new double[] {1, 2, 3}));
        assertThrows(IllegalArgumentException.class, () -> new DeviceReservoir(2, 0));
    }
}
