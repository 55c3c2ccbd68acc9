package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.SyntheticGraph;
import org.dpclust.geometry.VectorMetric;
import org.junit.jupiter.api.Test;

class HstTest {

    static double[][] randomPoints(int n, int d, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] p = new double[n][d];
        for (double[] row : p) {
            for (int t = 0; t < d; t++) {
                row[t] = 100 * rng.nextDouble();
            }
        }
        return p;
    }

    private static void assertDominates(Metric m, boolean beta, long seed) {
        Hst t = Hst.build(m, m.exactDiameter(), new Hst.Options(seed, 60, beta));
        for (int x = 0; x < m.size(); x++) {
            assertEquals(1, t.universeCount(t.leafOf(x)), "leaf of " + x + " is not a singleton");
            for (int y = 0; y < m.size(); y++) {
                double rho = m.distance(x, y);
                assertTrue(
                        t.treeDistance(x, y) >= rho * (1 - 1e-12),
                        "pair " + x + "," + y + ": tree " + t.treeDistance(x, y) + " < " + rho);
            }
        }
    }

    @Test
    void treeDistanceDominatesMetricForAllPairs() {
        double[][] p = randomPoints(150, 3, 1);
        for (long seed = 0; seed < 3; seed++) {
            assertDominates(VectorMetric.l2(p), seed != 1, seed);
            assertDominates(VectorMetric.l1(p), seed != 1, seed);
        }
        assertDominates(SyntheticGraph.generate(120, 4, 0.2, 2, 10, 5).metric(), true, 9);
    }

    @Test
    void treeDistanceFailsWithAnUnderestimatedDiameter() {
        // negative control of the domination property: with Δ far below diam(U) it must break
        Metric m = VectorMetric.l2(randomPoints(80, 2, 2));
        Hst t = Hst.build(m, m.exactDiameter() / 8, new Hst.Options(3, 60, false));
        boolean violated = false;
        for (int x = 0; x < m.size() && !violated; x++) {
            for (int y = 0; y < m.size(); y++) {
                violated |= t.treeDistance(x, y) < m.distance(x, y);
            }
        }
        assertTrue(violated);
    }

    @Test
    void nodeIdsAreStableForTheSameSeed() {
        Metric m = VectorMetric.l1(randomPoints(300, 4, 3));
        double delta = m.diameterUpperBound();
        Hst a = Hst.build(m, delta, new Hst.Options(77, 8, true));
        Hst b = Hst.build(m, delta, new Hst.Options(77, 8, true));
        Hst c = Hst.build(m, delta, new Hst.Options(78, 8, true));
        assertEquals(a.nodeCount(), b.nodeCount());
        assertEquals(a.beta(), b.beta());
        for (int v = 0; v < a.nodeCount(); v++) {
            assertEquals(a.parent(v), b.parent(v));
            assertEquals(a.level(v), b.level(v));
            assertEquals(a.centre(v), b.centre(v));
            assertArrayEquals(a.children(v), b.children(v));
        }
        for (int x = 0; x < m.size(); x++) {
            assertEquals(a.leafOf(x), b.leafOf(x));
        }
        assertFalse(Arrays.equals(a.permutation(), c.permutation()));
    }

    @Test
    void structureLevelsAndCountsAreConsistent() {
        Metric m = VectorMetric.l2(randomPoints(200, 2, 4));
        Hst t = Hst.build(m, m.diameterUpperBound(), new Hst.Options(5, 3, true));
        assertEquals(3, t.levels()); // capped: leaves at level 1 may hold several points
        assertEquals(t.levels() + 1, t.level(t.root()));
        int[] demand = {0, 0, 5, 17, 199};
        long[] counts = t.counts(demand);
        assertEquals(demand.length, counts[t.root()]);
        for (int v = 1; v < t.nodeCount(); v++) {
            assertEquals(t.level(t.parent(v)) - 1, t.level(v));
            assertTrue(v > t.parent(v) && t.level(v) <= t.level(v - 1), "breadth-first ids");
            long sum = 0;
            int size = 0;
            for (int c : t.children(v)) {
                sum += counts[c];
                size += t.universeCount(c);
            }
            if (!t.isLeaf(v)) {
                assertEquals(counts[v], sum);
                assertEquals(t.universeCount(v), size);
            }
            assertTrue(t.isAncestorOrSelf(v, t.leafOf(t.centre(v))), "centre lies in its node");
        }
        assertEquals(t.levels(), t.pathBelowRoot(17).length);
    }
}
