package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClusterStatisticsTest {
    private static ClusterStatistics filled(int from, int to, long seed) {
        ClusterStatistics s = new ClusterStatistics(8, 3);
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        for (int i = from; i < to; i++) {
            s.add(
                    rng.nextInt(8),
                    new long[] {rng.nextLong() >> 34, rng.nextLong() >> 34, rng.nextLong() >> 34});
        }
        return s;
    }

    @Test
    void mergeOfPartsEqualsTheWholeExactly() {
        // the same records split in two parts: re-create them from one generator
        ClusterStatistics whole = new ClusterStatistics(8, 3);
        ClusterStatistics a = new ClusterStatistics(8, 3);
        ClusterStatistics b = new ClusterStatistics(8, 3);
        SplittableRandom rng = new SplittableRandom(5); // public randomness (not privacy noise)
        for (int i = 0; i < 1000; i++) {
            int cell = rng.nextInt(8);
            long[] e = {rng.nextLong() >> 34, rng.nextLong() >> 34, rng.nextLong() >> 34};
            whole.add(cell, e);
            (i % 3 == 0 ? a : b).add(cell, e);
        }
        a.merge(b);
        assertArrayEquals(whole.state(), a.state());
        assertArrayEquals(whole.digest(), a.digest());
        assertEquals(1000, a.totalCount());
    }

    @Test
    void subtractUndoesAdd() {
        ClusterStatistics s = filled(0, 100, 9);
        long[] before = s.state().clone();
        s.add(3, new long[] {5, -7, 11});
        s.subtract(3, new long[] {5, -7, 11});
        assertArrayEquals(before, s.state());
    }

    @Test
    void theDigestChangesWithTheContents() {
        ClusterStatistics s = filled(0, 100, 9);
        byte[] d1 = s.digest();
        s.add(0, new long[] {0, 0, 1});
        assertFalse(Arrays.equals(d1, s.digest()));
    }
}
