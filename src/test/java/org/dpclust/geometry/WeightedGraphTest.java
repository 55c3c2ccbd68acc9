package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WeightedGraphTest {

    private static double[][] floydWarshall(int n, int[] from, int[] to, double[] w) {
        double[][] d = new double[n][n];
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(d[i], Double.POSITIVE_INFINITY);
            d[i][i] = 0;
        }
        for (int e = 0; e < from.length; e++) {
            d[from[e]][to[e]] = Math.min(d[from[e]][to[e]], w[e]);
            d[to[e]][from[e]] = Math.min(d[to[e]][from[e]], w[e]);
        }
        for (int m = 0; m < n; m++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    d[i][j] = Math.min(d[i][j], d[i][m] + d[m][j]);
                }
            }
        }
        return d;
    }

    @Test
    void shortestPathsEqualFloydWarshallOnRandomGraphs() {
        SplittableRandom rng = new SplittableRandom(11);
        for (int trial = 0; trial < 40; trial++) {
            int n = 2 + rng.nextInt(30);
            int extra = rng.nextInt(3 * n);
            int m = (n - 1) + extra;
            int[] from = new int[m];
            int[] to = new int[m];
            double[] w = new double[m];
            for (int e = 0; e < m; e++) {
                if (e < n - 1) { // random tree keeps it connected
                    from[e] = e + 1;
                    to[e] = rng.nextInt(e + 1);
                } else {
                    from[e] = rng.nextInt(n);
                    to[e] = rng.nextInt(n);
                }
                w[e] = rng.nextInt(4) == 0 ? 0 : 10 * rng.nextDouble();
            }
            double[][] expected = floydWarshall(n, from, to, w);
            int cacheRows = 1 + rng.nextInt(n); // small caches exercise eviction
            WeightedGraph g = new WeightedGraph(n, from, to, w, cacheRows);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    assertEquals(
                            expected[i][j],
                            g.distance(i, j),
                            1e-9,
                            "trial " + trial + " " + i + "," + j);
                }
                assertArrayEquals(expected[i], g.distancesFrom(i), 1e-9);
            }
        }
    }

    @Test
    void fullCacheComputesEachRowOnce() {
        SyntheticGraph sg = SyntheticGraph.generate(60, 4, 0.3, 2, 5, 3);
        WeightedGraph g = new WeightedGraph(sg.n(), sg.from(), sg.to(), sg.weight(), sg.n());
        for (int rep = 0; rep < 2; rep++) {
            for (int i = 0; i < sg.n(); i++) {
                for (int j = 0; j < sg.n(); j++) {
                    g.distance(i, j);
                }
            }
        }
        assertEquals(sg.n(), g.dijkstraRuns());
    }

    @Test
    void rejectsDisconnectedAndNegative() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new WeightedGraph(3, new int[] {0}, new int[] {1}, new double[] {1}));
        assertThrows(
                IllegalArgumentException.class,
                () -> new WeightedGraph(2, new int[] {0}, new int[] {1}, new double[] {-1}));
    }

    @Test
    void syntheticGraphFollowsThePaperModel() {
        double r = 100;
        SyntheticGraph a = SyntheticGraph.generate(300, 10, 0.2, 3, r, 42);
        SyntheticGraph b = SyntheticGraph.generate(300, 10, 0.2, 3, r, 42);
        assertArrayEquals(a.from(), b.from());
        assertArrayEquals(a.weight(), b.weight());
        int cross = 0;
        for (int e = 0; e < a.from().length; e++) {
            boolean same = a.labels()[a.from()[e]] == a.labels()[a.to()[e]];
            if (same) {
                assertTrue(a.weight()[e] >= 0 && a.weight()[e] < 1);
            } else {
                cross++;
                assertTrue(a.weight()[e] >= 0.5 && a.weight()[e] <= r);
            }
        }
        assertEquals(3 * 45, cross);
        WeightedGraph g = a.metric(); // connected, or the constructor throws
        // well separated at r = 100: same-cluster pairs are much closer than cross-cluster pairs
        double intra = 0;
        double inter = 0;
        int ni = 0;
        int nx = 0;
        for (int i = 0; i < 300; i += 7) {
            for (int j = 0; j < 300; j += 5) {
                if (a.labels()[i] == a.labels()[j]) {
                    intra += g.distance(i, j);
                    ni++;
                } else {
                    inter += g.distance(i, j);
                    nx++;
                }
            }
        }
        assertTrue(intra / ni * 5 < inter / nx, intra / ni + " vs " + inter / nx);
    }

    @Test
    void vectorMetricsComputeL1AndL2() {
        double[][] p = {{0, 0}, {3, 4}};
        assertEquals(7, VectorMetric.l1(p).distance(0, 1), 0);
        assertEquals(5, VectorMetric.l2(p).distance(1, 0), 0);
        assertEquals(10, VectorMetric.l2(p).diameterUpperBound(), 0);
        assertEquals(5, VectorMetric.l2(p).exactDiameter(), 0);
    }
}
