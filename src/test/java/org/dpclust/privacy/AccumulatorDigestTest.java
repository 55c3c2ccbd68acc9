package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AccumulatorDigestTest {
    @Test
    void deterministicAnd32Bytes() {
        byte[] a = new AccumulatorDigest().add(1L).add(new double[] {1.5, -2}).add("x").digest();
        byte[] b = new AccumulatorDigest().add(1L).add(new double[] {1.5, -2}).add("x").digest();
        assertEquals(32, a.length);
        assertArrayEquals(a, b);
    }

    @Test
    void encodingIsInjectiveOnTrickyInputs() {
        byte[][] ds = {
            new AccumulatorDigest().add(1L).digest(),
            new AccumulatorDigest().add(1).digest(),
            new AccumulatorDigest().add(0.0).digest(),
            new AccumulatorDigest().add(-0.0).digest(),
            new AccumulatorDigest().add(new long[] {1, 2}).add(new long[] {3}).digest(),
            new AccumulatorDigest().add(new long[] {1}).add(new long[] {2, 3}).digest(),
            new AccumulatorDigest().add("ab").add("c").digest(),
            new AccumulatorDigest().add("a").add("bc").digest(),
            new AccumulatorDigest().add(new double[] {1.0}).digest(),
            new AccumulatorDigest().add(1.0).digest(),
            new AccumulatorDigest().digest(),
            new AccumulatorDigest().add(new long[0]).digest(),
        };
        for (int i = 0; i < ds.length; i++) {
            for (int j = i + 1; j < ds.length; j++) {
                assertFalse(Arrays.equals(ds[i], ds[j]), i + " vs " + j);
            }
        }
    }

    @Test
    void finishedAfterDigest() {
        AccumulatorDigest d = new AccumulatorDigest().add(3L);
        byte[] first = d.digest();
        assertArrayEquals(first, d.digest());
        assertThrows(IllegalStateException.class, () -> d.add(4L));
    }
}
