package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NearestPointIndexTest {
    /** 5 and 7 reach every leaf kernel combination (first4 + add, first4 + add2 + add). */
    private static final int[] DIMENSIONS = {1, 2, 3, 5, 7, 10, 20};

    private static final int[] SIZES = {1, 2, 5, 64, 300, 4096};

    /**
     * Every query's answer against {@link NearestPoint#of} on the same points; returns the number
     * of queries.
     */
    private static int check(String label, double[] pts, int d, double[][] queries) {
        NearestPointIndex index = NearestPointIndex.of(pts.clone(), d);
        for (double[] x : queries) {
            assertEquals(NearestPoint.of(pts, d, x), index.nearest(x), label);
        }
        return queries.length;
    }

    private static double[] uniform(SplittableRandom rng, int n, int d) {
        double[] p = new double[n * d];
        for (int i = 0; i < p.length; i++) {
            p[i] = rng.nextDouble();
        }
        return p;
    }

    /** Five tight Gaussian clusters (σ = 0.02) in the unit box. */
    private static double[] clustered(SplittableRandom rng, int n, int d) {
        double[][] centres = new double[5][d];
        for (double[] c : centres) {
            for (int t = 0; t < d; t++) {
                c[t] = rng.nextDouble(0.2, 0.8);
            }
        }
        double[] p = new double[n * d];
        for (int i = 0; i < n; i++) {
            double[] c = centres[rng.nextInt(5)];
            for (int t = 0; t < d; t++) {
                p[i * d + t] = c[t] + 0.02 * rng.nextGaussian();
            }
        }
        return p;
    }

    /** Few distinct points, each repeated many times (equal distances at different indices). */
    private static double[] duplicated(SplittableRandom rng, int n, int d) {
        int distinct = Math.max(1, n / 16);
        double[] base = uniform(rng, distinct, d);
        double[] p = new double[n * d];
        for (int i = 0; i < n; i++) {
            System.arraycopy(base, rng.nextInt(distinct) * d, p, i * d, d);
        }
        return p;
    }

    /**
     * Points on the integer grid {0..3}^d (random cells, repeats allowed): half-integer queries tie
     * exactly.
     */
    private static double[] grid(SplittableRandom rng, int n, int d) {
        double[] p = new double[n * d];
        for (int i = 0; i < p.length; i++) {
            p[i] = rng.nextInt(4);
        }
        return p;
    }

    /**
     * In the box, on and next to the points, on the half-integer lattice and far outside the box.
     */
    private static double[][] queries(SplittableRandom rng, double[] pts, int d, int count) {
        int n = pts.length / d;
        double[][] q = new double[count][d];
        for (int i = 0; i < count; i++) {
            int p = rng.nextInt(n);
            int kind = i % 5;
            for (int t = 0; t < d; t++) {
                double v = pts[p * d + t];
                q[i][t] =
                        switch (kind) {
                            case 0 -> rng.nextDouble(-0.1, 1.1);
                            case 1 -> v;
                            case 2 -> v + 1e-3 * rng.nextGaussian();
                            case 3 -> rng.nextInt(9) * 0.5 - 0.5;
                            default -> rng.nextDouble(-1e3, 1e3);
                        };
            }
        }
        return q;
    }

    @Test
    void agreesWithNearestPointOnEveryKindOfSetDimensionAndSize() {
        SplittableRandom rng = new SplittableRandom(20261122);
        int total = 0;
        for (int d : DIMENSIONS) {
            for (int n : SIZES) {
                int count = n >= 4096 ? 600 : 1200;
                double[] p = uniform(rng, n, d);
                total += check("uniform d=" + d + " n=" + n, p, d, queries(rng, p, d, count));
                double[] c = clustered(rng, n, d);
                total += check("clustered d=" + d + " n=" + n, c, d, queries(rng, c, d, count));
                double[] u = duplicated(rng, n, d);
                total += check("duplicated d=" + d + " n=" + n, u, d, queries(rng, u, d, count));
                double[] g = grid(rng, n, d);
                total += check("grid d=" + d + " n=" + n, g, d, queries(rng, g, d, count));
            }
        }
        assertTrue(total >= 100_000, "queries checked: " + total);
    }

    @Test
    void exactTiesGoToTheLowestIndexWhereverTheTreePutsThem() {
        // 4096 points in 2-d: pairs mirrored about x = 0.5 (equal distances from every query on
        // that line,
        // bit for bit: (0.5 - a)^2 == (0.5 - (1 - a))^2 when 1 - a is exact), the mirror at the
        // lower index half
        // the time.
        SplittableRandom rng = new SplittableRandom(5);
        int n = 4096;
        double[] pts = new double[n * 2];
        for (int i = 0; i < n; i += 2) {
            double a = rng.nextInt(1 << 20) / (double) (1 << 21); // in [0, 0.5), a and 1 - a exact
            double y = rng.nextDouble();
            boolean flip = rng.nextBoolean();
            pts[i * 2] = flip ? 1 - a : a;
            pts[i * 2 + 1] = y;
            pts[(i + 1) * 2] = flip ? a : 1 - a;
            pts[(i + 1) * 2 + 1] = y;
        }
        double[][] q = new double[5000][];
        for (int i = 0; i < q.length; i++) {
            q[i] = new double[] {0.5, rng.nextDouble(-0.2, 1.2)};
        }
        check("mirrored pairs", pts, 2, q);
    }

    @Test
    void nonFiniteQueriesAndPointsBehaveAsThePlainLoop() {
        SplittableRandom rng = new SplittableRandom(9);
        double[] pts = uniform(rng, 500, 3);
        double inf = Double.POSITIVE_INFINITY;
        double[][] q = {
            {Double.NaN, 0.5, 0.5},
            {inf, 0.5, 0.5},
            {-inf, inf, 0},
            {1e200, 0, 0},
            {1e-200, 1e-200, 1e-200},
            {Double.MAX_VALUE, -Double.MAX_VALUE, 0},
            {Double.MIN_VALUE, 0, 0}
        };
        check("non-finite queries", pts, 3, q);
        pts[7] = Double.NaN; // a point with a NaN coordinate: the index falls back to the plain
        // search
        check("NaN point", pts, 3, queries(rng, pts, 3, 500));
        pts[7] = inf;
        check("infinite point", pts, 3, queries(rng, pts, 3, 500));
    }

    @Test
    void pruningNeedsABoundStrictlyAboveTheBestWithRoom() {
        assertFalse(NearestPointIndex.prunable(1.0, 1.0));
        assertFalse(NearestPointIndex.prunable(Math.nextUp(1.0), 1.0));
        assertTrue(NearestPointIndex.prunable(1.001, 1.0));
        assertFalse(NearestPointIndex.prunable(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
        assertFalse(NearestPointIndex.prunable(Double.NaN, 1.0));
        assertFalse(NearestPointIndex.prunable(1e-310, 0.0));
        assertTrue(NearestPointIndex.prunable(1e-299, 0.0));
    }
}
