package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.NearestPoint;
import org.dpclust.geometry.PivotListIndex;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;

/** The HST window summary (its statistical DP test is {@link HstWindowSummaryDpTest}). */
class HstWindowSummaryTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});

    static long[] window(HstWindowSummary s, int n, double cx, double cy, long seed) {
        long[] m = new long[s.universeSize()];
        SplittableRandom r = new SplittableRandom(seed); // public randomness (not privacy noise)
        for (int i = 0; i < n; i++) {
            m[
                    s.snap(
                            new double[] {
                                cx + 0.05 * (r.nextDouble() - 0.5),
                                cy + 0.05 * (r.nextDouble() - 0.5)
                            })]++;
        }
        return m;
    }

    @Test
    void everyNodeIsNoisedEvenUnoccupiedOnes() {
        HstWindowSummary s = new HstWindowSummary(BOX, 64, 3, 4);
        long[] empty = new long[s.universeSize()];
        long[] noisy =
                s.release(empty, 2, 1.0, 1, TestRandoms.stream("all-nodes")).noisyNodeCounts();
        int nonZero = 0;
        for (int v = 1; v < noisy.length; v++) {
            nonZero += noisy[v] != 0 ? 1 : 0;
        }
        assertTrue(
                nonZero > noisy.length / 4,
                nonZero + " of " + (noisy.length - 1) + " empty nodes got noise");
    }

    @Test
    void multiplicitiesGiveTheSameNodeCountsAsTheExpandedMultiset() {
        HstWindowSummary s = new HstWindowSummary(BOX, 128, 9, 6);
        long[] m = window(s, 500, 0.3, 0.7, 4);
        int[] demand = new int[500];
        int j = 0;
        for (int x = 0; x < m.length; x++) {
            for (long c = 0; c < m[x]; c++) {
                demand[j++] = x;
            }
        }
        assertArrayEquals(s.tree().counts(demand), s.tree().countsFromMultiplicities(m));
    }

    @Test
    void findsTwoSeparatedClustersAtModerateEpsilon() {
        HstWindowSummary s = new HstWindowSummary(BOX, 1024, 5, 10);
        long[] m = window(s, 5000, 0.2, 0.2, 1);
        long[] other = window(s, 5000, 0.8, 0.7, 2);
        for (int i = 0; i < m.length; i++) {
            m[i] += other[i];
        }
        double[][] c = s.release(m, 2, 1.0, 1, TestRandoms.stream("utility")).centroids();
        double err =
                ClusteringMetrics.meanMatchedDistance(new double[][] {{0.2, 0.2}, {0.8, 0.7}}, c);
        assertTrue(err < 0.1, "matched distance " + err);
    }

    private static HstWindowSummary reference(HstWindowSummary.Snap rule) {
        double[] hi = new double[10];
        Arrays.fill(hi, 1.0);
        return new HstWindowSummary(new DomainBounds(new double[10], hi), 4096, 2026, 12, rule);
    }

    private static double[] query(SplittableRandom r, int q) {
        double[] x = new double[10];
        for (int t = 0; t < 10; t++) {
            x[t] = q % 2 == 0 ? r.nextDouble() : 0.5 + 0.03 * r.nextGaussian();
        }
        return x;
    }

    @Test
    void nearestSnapIsTheBruteForceNearestUniversePointInTheReferenceConfiguration() {
        HstWindowSummary s = reference(HstWindowSummary.Snap.NEAREST);
        assertEquals(HstWindowSummary.Snap.NEAREST, new HstWindowSummary(BOX, 8, 1, 2).snapRule());
        double[] rows = new double[4096 * 10];
        for (int p = 0; p < 4096; p++) {
            System.arraycopy(s.universe().point(p), 0, rows, p * 10, 10);
        }
        SplittableRandom r = new SplittableRandom(17); // public randomness (not privacy noise)
        for (int q = 0; q < 3000; q++) {
            double[] x = query(r, q);
            assertEquals(NearestPoint.of(rows, 10, x), s.snap(x));
        }
    }

    @Test
    void pivotSnapIsThePivotListAnswer() {
        HstWindowSummary s = reference(HstWindowSummary.Snap.PIVOT);
        double[][] pts = new double[4096][];
        for (int p = 0; p < 4096; p++) {
            pts[p] = s.universe().point(p);
        }
        PivotListIndex index = new PivotListIndex(pts);
        SplittableRandom r = new SplittableRandom(17); // public randomness (not privacy noise)
        for (int q = 0; q < 3000; q++) {
            double[] x = query(r, q);
            assertEquals(index.nearest(x), s.snap(x), "query " + q);
        }
    }
}
