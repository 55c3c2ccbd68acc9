package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class HstInitializerTest {

    /** c well separated clusters of m points each in the plane; label of point i is i / m. */
    static double[][] clusters(int c, int m, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] p = new double[c * m][];
        for (int i = 0; i < p.length; i++) {
            int g = i / m;
            p[i] = new double[] {1000 * g + rng.nextDouble(), 1000 * (g % 2) + rng.nextDouble()};
        }
        return p;
    }

    private static void assertDisjointSubtrees(Hst t, int[] c1, int[] centres, int k) {
        assertEquals(k, centres.length);
        assertEquals(k, Arrays.stream(centres).distinct().count(), "distinct points");
        for (int a = 0; a < c1.length; a++) {
            for (int b = 0; b < c1.length; b++) {
                assertTrue(a == b || !t.isAncestorOrSelf(c1[a], c1[b]), "C1 is an antichain");
            }
        }
        for (int a = 0; a < c1.length; a++) { // FIND-LEAF output a of C1 node a lies below it
            assertTrue(t.isAncestorOrSelf(c1[a], t.leafOf(centres[a])));
        }
    }

    @Test
    void ndpHstReturnsKDistinctPointsInDisjointSubtrees() {
        Metric m = VectorMetric.l1(HstTest.randomPoints(400, 3, 7));
        for (long seed = 0; seed < 4; seed++) {
            Hst t = Hst.build(m, m.diameterUpperBound(), new Hst.Options(seed, 60, true));
            int[] demand = new SplittableRandom(seed).ints(120, 0, 400).toArray();
            for (int k : new int[] {1, 2, 5, 10, 20}) {
                long[] counts = t.counts(demand);
                int[] c1 = SubtreeSearch.subtrees(t, counts, k);
                assertEquals(k, c1.length);
                int[] centres = NdpHstInitializer.initialize(t, demand, k);
                assertDisjointSubtrees(t, c1, centres, k);
            }
        }
    }

    @Test
    void ndpHstFindsOneCentrePerSeparatedCluster() {
        int c = 5;
        Metric m = VectorMetric.l2(clusters(c, 40, 1));
        for (long seed = 0; seed < 5; seed++) {
            Hst t = Hst.build(m, m.diameterUpperBound(), new Hst.Options(seed, 60, true));
            int[] demand = new int[m.size()];
            Arrays.setAll(demand, i -> i);
            int[] centres = NdpHstInitializer.initialize(t, demand, c);
            Set<Integer> clustersHit = new HashSet<>();
            for (int x : centres) {
                clustersHit.add(x / 40);
            }
            assertEquals(c, clustersHit.size(), "seed " + seed + ": " + Arrays.toString(centres));
        }
    }

    @Test
    void fewerLeavesThanKAreFilledInPiOrder() {
        Metric m = VectorMetric.l2(clusters(2, 10, 2));
        Hst t =
                Hst.build(
                        m, m.exactDiameter(), new Hst.Options(4, 1, false)); // one level: 2 leaves
        assertEquals(2, t.nodeCount() - 1);
        int[] demand = {0, 1, 2, 15};
        int[] centres = NdpHstInitializer.initialize(t, demand, 5);
        assertEquals(5, Arrays.stream(centres).distinct().count());
        assertEquals(2, SubtreeSearch.subtrees(t, t.counts(demand), 5).length);
        int[] dp = DpHstInitializer.initialize(t, demand, 5, 1.0, TestRandoms.stream("hst-few"));
        assertEquals(5, Arrays.stream(dp).distinct().count());
    }

    @Test
    void dpHstWithLargeEpsilonMatchesNdpHstAndIsValidAtSmallEpsilon() {
        Metric m = VectorMetric.l2(clusters(4, 30, 3));
        Hst t = Hst.build(m, m.diameterUpperBound(), new Hst.Options(1, 8, true));
        int[] demand = new int[m.size()];
        Arrays.setAll(demand, i -> i);
        var rng = TestRandoms.stream("dp-hst-init");
        // at ε = 10^6 the noise is 0 with overwhelming probability
        assertTrue(
                Arrays.equals(
                        NdpHstInitializer.initialize(t, demand, 4),
                        DpHstInitializer.initialize(t, demand, 4, 1e6, rng)));
        for (int rep = 0; rep < 20; rep++) {
            long[] noisy = DpHstInitializer.noisyCounts(t, demand, 0.1, rng);
            assertEquals(0, noisy[0], "root count is not released");
            int[] c1 = SubtreeSearch.subtrees(t, noisy, 6);
            assertDisjointSubtrees(t, c1, SubtreeSearch.findLeaves(t, noisy, c1, 6), 6);
        }
        double total = 0;
        for (int h = 1; h <= t.levels(); h++) {
            total += DpHstInitializer.levelEpsilon(t, h, 1.0);
        }
        assertEquals(1 - Math.scalb(1.0, -t.levels()), total, 1e-15);
    }
}
