package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.privacy.testing.TestRandoms;
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

    /**
     * A cell whose fixed-point sums wrap the long range (more than 2^32 records of one window) is
     * released like any other: with the same noise, the neighbour with one more record publishes
     * sums that differ by exactly that record's encoding (modulo 2^64) and a count one higher, pure
     * and zCDP, so what one record can change is its own contribution (saturating noise addition
     * put the two about 2^64 apart).
     */
    @Test
    void aWrappedCellIsReleasedAsTheExactSumModulo2To64() {
        long[] x = {1L << 30, -(1L << 30), 7};
        ClusterStatistics without = new ClusterStatistics(2, 3);
        long[] state = without.state();
        state[0] = (1L << 32) + 5; // cell 0's count, its sums near the top of the long range
        state[2] = Long.MAX_VALUE - 100;
        state[3] = Long.MIN_VALUE + 100;
        state[4] = Long.MAX_VALUE;
        ClusterStatistics with = ClusterStatistics.wrap(2, 3, state.clone());
        with.add(0, x); // wraps sums 0 and 1 and 2
        assertTrue(with.sum(0, 0) < 0 && with.sum(0, 1) > 0 && with.sum(0, 2) < 0, "wrapped");
        org.dpclust.privacy.FixedPointCodec codec =
                new org.dpclust.privacy.FixedPointCodec(
                        new org.dpclust.geometry.DomainBounds(
                                new double[3], new double[] {1, 1, 1}));
        for (DpClusterStatistics.ReleaseParams params :
                java.util.List.of(
                        new DpClusterStatistics.ReleaseParams(1.0, Double.NaN, 1),
                        DpClusterStatistics.ReleaseParams.zcdp(
                                0.5, Double.NaN, 1, DpClusterStatistics.Update.MEAN))) {
            DpClusterStatistics.NoisyCells a =
                    DpClusterStatistics.noisyCells(
                            without, codec, params, TestRandoms.stream("wrap"));
            DpClusterStatistics.NoisyCells b =
                    DpClusterStatistics.noisyCells(with, codec, params, TestRandoms.stream("wrap"));
            assertEquals(1, b.counts()[0] - a.counts()[0]);
            assertEquals(0, b.counts()[1] - a.counts()[1]);
            for (int j = 0; j < 3; j++) {
                assertEquals(x[j], b.sums()[j] - a.sums()[j], "sum " + j + " moves by x_j");
                assertEquals(0, b.sums()[3 + j] - a.sums()[3 + j]);
            }
        }
    }
}
