package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;

/**
 * Checks Lloyd on hand examples, separated blobs, S1 against its ground-truth codebook, and
 * weights.
 */
class LloydTest {

    @Test
    void oneDimensionalHandExample() {
        // points 0, 1, 10, 11 from centroids 0 and 10: assignment {0,1}|{10,11} → means 0.5, 10.5;
        // the next assignment is unchanged, so 1 update; SSE = 4 · 0.5² = 1.
        double[][] points = {{0}, {1}, {10}, {11}};
        LloydResult r = Lloyd.runFrom(points, new double[][] {{0}, {10}}, 100);
        assertArrayEquals(new double[] {0.5}, r.centroids()[0], 1e-12);
        assertArrayEquals(new double[] {10.5}, r.centroids()[1], 1e-12);
        assertArrayEquals(new int[] {0, 0, 1, 1}, r.assignment());
        assertEquals(1.0, r.sse(), 1e-12);
        assertEquals(1, r.iterations());
    }

    @Test
    void emptyClusterIsReseededAtFarthestPoint() {
        // points 0, 1, 2, 10; centroid 100 gets nothing (10 is 10 from 0, 90 from 100).
        // Rule: re-seed at the point farthest from its centroid → 10 (distance 10). Then
        // clusters {0,1,2} and {10}: centroids 1 and 10, SSE = 1 + 0 + 1 + 0 = 2.
        double[][] points = {{0}, {1}, {2}, {10}};
        LloydResult r = Lloyd.runFrom(points, new double[][] {{0}, {100}}, 100);
        assertArrayEquals(new double[] {1}, r.centroids()[0], 1e-12);
        assertArrayEquals(new double[] {10}, r.centroids()[1], 1e-12);
        assertArrayEquals(new int[] {0, 0, 0, 1}, r.assignment());
        assertEquals(2.0, r.sse(), 1e-12);
    }

    @Test
    void maxIterationsZeroOnlyAssigns() {
        double[][] points = {{0}, {4}};
        LloydResult r = Lloyd.runFrom(points, new double[][] {{1}}, 0);
        assertEquals(0, r.iterations());
        assertArrayEquals(new double[] {1}, r.centroids()[0]);
        assertEquals(1 + 9, r.sse(), 1e-12);
    }

    @Test
    void convergesOnSeparatedBlobs() {
        double[][] centres = {{0, 0}, {100, 0}, {0, 100}, {100, 100}};
        int per = 250;
        double[][] points = new double[centres.length * per][];
        int[] truth = new int[points.length];
        SplittableRandom rng = new SplittableRandom(11); // public randomness (not privacy noise)
        for (int c = 0; c < centres.length; c++) {
            for (int i = 0; i < per; i++) {
                points[c * per + i] =
                        new double[] {
                            centres[c][0] + rng.nextDouble(-1, 1),
                            centres[c][1] + rng.nextDouble(-1, 1)
                        };
                truth[c * per + i] = c;
            }
        }
        LloydResult r = Lloyd.run(points, 4, 3, 100, 5);
        assertTrue(r.iterations() < 100, "did not converge: " + r.iterations());
        assertEquals(1.0, ClusteringMetrics.adjustedRandIndex(r.assignment(), truth), 1e-12);
        // each blob is uniform on a 2×2 square: its mean is within 0.2 of the centre
        assertTrue(ClusteringMetrics.meanMatchedDistance(centres, r.centroids()) < 0.2);
        assertEquals(ClusteringMetrics.sse(points, r.centroids()), r.sse(), 1e-6 * r.sse());
    }

    @Test
    void s1CentroidsWithinOnePercentOfDomainWidth() {
        Dataset s1 = DatasetLoader.load("s1");
        double[][] truth = DatasetLoader.load("s1.centroids").points();
        long start = System.nanoTime();
        LloydResult r = Lloyd.best(s1.points(), 15, 2024);
        double seconds = (System.nanoTime() - start) / 1e9;
        double width = 0;
        for (int j = 0; j < s1.dimension(); j++) {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (double[] p : s1.points()) {
                min = Math.min(min, p[j]);
                max = Math.max(max, p[j]);
            }
            width = Math.max(width, max - min);
        }
        double fraction = ClusteringMetrics.meanMatchedDistance(truth, r.centroids()) / width;
        System.out.printf(
                "s1 k=15 Lloyd.best: matched distance %.5f of width, %.3f s, sse %.6g%n",
                fraction, seconds, r.sse());
        assertTrue(fraction < 0.01, "matched distance fraction " + fraction);
    }

    @Test
    void weightedWithIntegerWeightsEqualsReplicatedPoints() {
        SplittableRandom rng = new SplittableRandom(3); // public randomness (not privacy noise)
        int n = 60;
        double[][] points = new double[n][];
        double[] weights = new double[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            points[i] = new double[] {rng.nextDouble(0, 10) + (i % 3) * 20, rng.nextDouble(0, 10)};
            weights[i] = rng.nextInt(4); // 0..3, zeros included
            total += (int) weights[i];
        }
        double[][] replicated = new double[total][];
        int at = 0;
        for (int i = 0; i < n; i++) {
            for (int w = 0; w < weights[i]; w++) {
                replicated[at++] = points[i];
            }
        }
        double[][] init = {points[0], points[1], points[2]};
        LloydResult weighted = Lloyd.runWeighted(points, weights, init, 100);
        LloydResult plain = Lloyd.runFrom(replicated, init, 100);
        for (int j = 0; j < init.length; j++) {
            assertArrayEquals(plain.centroids()[j], weighted.centroids()[j], 1e-9);
        }
        assertEquals(plain.sse(), weighted.sse(), 1e-9 * plain.sse());
        assertEquals(plain.iterations(), weighted.iterations());
    }

    @Test
    void runIsDeterministicForASeedAndKeepsLowestSse() {
        double[][] points = DatasetLoader.load("iris").points();
        LloydResult a = Lloyd.run(points, 3, 4, 100, 99);
        LloydResult b = Lloyd.run(points, 3, 4, 100, 99);
        assertEquals(a.sse(), b.sse());
        assertTrue(Arrays.deepEquals(a.centroids(), b.centroids()));
        LloydResult single = Lloyd.run(points, 3, 1, 100, 99);
        assertTrue(a.sse() <= single.sse());
        // Iris, k = 3: the well-known k-means optimum has SSE (inertia) ≈ 78.85 (scikit-learn docs,
        // KMeans on load_iris); this file carries the UCI rows 35 and 38, which differ slightly.
        assertEquals(78.85, a.sse(), 0.5);
    }

    @Test
    void rejectsInvalidArguments() {
        double[][] points = {{0}, {1}};
        assertThrows(IllegalArgumentException.class, () -> Lloyd.run(points, 3, 1, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> Lloyd.run(points, 1, 0, 10, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> Lloyd.runWeighted(points, new double[] {1, -1}, new double[][] {{0}}, 10));
    }

    /**
     * The bounded assignment step skips only points whose centroid provably did not change, so
     * every run equals the plain loop bit for bit: on mixtures, on integer grids full of exact ties
     * and duplicates, with zero and fractional weights, and with k above the number of distinct
     * points (empty clusters every step).
     */
    @Test
    void equalsThePlainLoopBitForBit() {
        SplittableRandom rng = new SplittableRandom(41);
        for (int trial = 0; trial < 24; trial++) {
            int n = 50 + rng.nextInt(400);
            int d = 1 + rng.nextInt(6);
            int kind = trial % 3;
            double[][] pts = new double[n][d];
            for (int i = 0; i < n; i++) {
                for (int t = 0; t < d; t++) {
                    pts[i][t] =
                            switch (kind) {
                                case 0 -> (i % 5) + 0.3 * rng.nextGaussian();
                                case 1 -> rng.nextInt(4); // a grid: ties and duplicates
                                default -> rng.nextDouble() < 0.9 ? 0.0 : rng.nextDouble();
                            };
                }
            }
            int k = 1 + rng.nextInt(Math.min(n, 12));
            int iterations = rng.nextInt(60);
            long seed = rng.nextLong();
            assertSame(
                    PlainLloyd.run(pts, k, 3, iterations, seed),
                    Lloyd.run(pts, k, 3, iterations, seed));
            double[][] init = PlainLloyd.seed(pts, null, k, new SplittableRandom(seed));
            assertTrue(
                    Arrays.deepEquals(
                            init, KMeansPlusPlus.seed(pts, null, k, new SplittableRandom(seed))));
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                w[i] = rng.nextInt(4) == 0 ? 0.0 : rng.nextDouble() * 3;
            }
            assertSame(
                    PlainLloyd.iterate(pts, w, init, iterations),
                    Lloyd.runWeighted(pts, w, init, iterations));
        }
    }

    private static void assertSame(LloydResult expected, LloydResult actual) {
        assertTrue(Arrays.deepEquals(expected.centroids(), actual.centroids()));
        assertArrayEquals(expected.assignment(), actual.assignment());
        assertEquals(
                Double.doubleToLongBits(expected.sse()), Double.doubleToLongBits(actual.sse()));
        assertEquals(expected.iterations(), actual.iterations());
    }
}
