package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.eval.ClusteringMetrics;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.NearestPoint;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * The HST window summary. Its DP test is the neighbouring pair: two windows that differ in
 * one record in an otherwise EMPTY region, so the whole difference is on nodes that are unoccupied
 * in D; the statistic is the privacy-loss variable of the noisy node counts along that record's
 * path (the other nodes cancel), which is the optimal test statistic, so halved noise is detected.
 */
class HstWindowSummaryTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final DpTester.Options O = DpTester.Options.defaults().withSamples(20_000);

    private static long[] window(HstWindowSummary s, int n, double cx, double cy, long seed) {
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

    private static DpTester.VoteResult dpTest(double epsMechanism, String label) {
        HstWindowSummary s = new HstWindowSummary(BOX, 32, 3, 3);
        Hst t = s.tree();
        long[] d = window(s, 200, 0.1, 0.1, 1);
        // the extra record: a universe point whose leaf is empty in D, with the longest path (most
        // levels)
        long[] countsD = t.countsFromMultiplicities(d);
        int far = -1;
        for (int x = 0; x < s.universeSize(); x++) {
            if (countsD[t.leafOf(x)] == 0
                    && (far < 0 || t.pathBelowRoot(x).length > t.pathBelowRoot(far).length)) {
                far = x;
            }
        }
        assertTrue(t.pathBelowRoot(far).length >= 2, "a multi-level path");
        long[] dPrime = d.clone();
        dPrime[far]++;
        long[] a = t.countsFromMultiplicities(d);
        int[] path = t.pathBelowRoot(far);
        double[] scale = new double[path.length];
        double pathEpsilon =
                0; // the pair's exact loss bound: the levels its path crosses (< epsilon)
        for (int i = 0; i < path.length; i++) {
            double e = DpHstInitializer.levelEpsilon(t, t.level(path[i]), 1.0);
            scale[i] = GeometricMechanism.scale(1, e);
            pathEpsilon += e;
        }
        assertTrue(pathEpsilon <= 1.0);
        double tested = pathEpsilon;
        PrivacyRandom rng = TestRandoms.stream(label);
        java.util.function.Function<long[], Double> loss =
                o -> {
                    double l = 0;
                    for (int i = 0; i < path.length; i++) {
                        long x = o[path[i]];
                        l += (Math.abs(x - a[path[i]]) - Math.abs(x - a[path[i]] - 1.0)) / scale[i];
                    }
                    return l;
                };
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testScalar(
                                        () ->
                                                loss.apply(
                                                        s.release(d, 2, epsMechanism, 1, rng)
                                                                .noisyNodeCounts()),
                                        () ->
                                                loss.apply(
                                                        s.release(dPrime, 2, epsMechanism, 1, rng)
                                                                .noisyNodeCounts()),
                                        tested,
                                        O));
        System.out.println(
                "HstWindowSummary " + label + " (tested at " + tested + "): " + v.summary());
        return v;
    }

    @Test
    void aRecordInAnEmptyRegionIsHiddenByTheNoise() {
        assertTrue(dpTest(1.0, "hst-window").passedByMajority());
    }

    @Test
    void halvedNoiseIsDetected() {
        assertFalse(dpTest(2.0, "hst-window-neg").passedByMajority());
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

    @Test
    void snapIsTheBruteForceNearestUniversePointInTheReferenceConfiguration() {
        double[] hi = new double[10];
        Arrays.fill(hi, 1.0);
        HstWindowSummary s =
                new HstWindowSummary(new DomainBounds(new double[10], hi), 4096, 2026, 12);
        double[] rows = new double[4096 * 10];
        for (int p = 0; p < 4096; p++) {
            System.arraycopy(s.universe().point(p), 0, rows, p * 10, 10);
        }
        SplittableRandom r = new SplittableRandom(17); // public randomness (not privacy noise)
        for (int q = 0; q < 3000; q++) {
            double[] x = new double[10];
            for (int t = 0; t < 10; t++) {
                x[t] = q % 2 == 0 ? r.nextDouble() : 0.5 + 0.03 * r.nextGaussian();
            }
            assertEquals(NearestPoint.of(rows, 10, x), s.snap(x));
        }
    }
}
