package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NonNegativeLeastSquaresTest {

    @Test
    void handCheckedActiveConstraint() {
        // columns a1 = (1,0,1), a2 = (0,1,1), b = (2,-1,1): unconstrained LS gives (2, -1); NNLS
        // fixes x2 = 0
        // and x1 = <a1,b>/<a1,a1> = 3/2; KKT: <a2, b - 1.5 a1> = -1.5 <= 0.
        double[] x =
                NonNegativeLeastSquares.solve(
                        new double[][] {{1, 0, 1}, {0, 1, 1}}, new double[] {2, -1, 1});
        assertArrayEquals(new double[] {1.5, 0.0}, x, 1e-10);
    }

    @Test
    void handCheckedInteriorSolution() {
        // b = (1,2,3): normal equations [[2,1],[1,2]] x = (4,5) give x = (1,2) > 0
        double[] x =
                NonNegativeLeastSquares.solve(
                        new double[][] {{1, 0, 1}, {0, 1, 1}}, new double[] {1, 2, 3});
        assertArrayEquals(new double[] {1.0, 2.0}, x, 1e-10);
    }

    @Test
    void matchesBruteForceOverActiveSets() {
        SplittableRandom rng = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            int p = 4;
            int n = 7;
            double[][] cols = new double[p][n];
            double[] b = new double[n];
            for (int i = 0; i < p; i++) {
                for (int j = 0; j < n; j++) {
                    cols[i][j] = rng.nextDouble(-1, 1);
                }
            }
            for (int j = 0; j < n; j++) {
                b[j] = rng.nextDouble(-1, 1);
            }
            double[] x = NonNegativeLeastSquares.solve(cols, b);
            for (double v : x) {
                assertTrue(v >= 0);
            }
            assertEquals(bruteForce(cols, b), residual(cols, b, x), 1e-9, "trial " + trial);
        }
    }

    /** Minimum residual over all supports whose unconstrained LS solution is non-negative. */
    private static double bruteForce(double[][] cols, double[] b) {
        int p = cols.length;
        double best = Double.POSITIVE_INFINITY;
        for (int mask = 0; mask < (1 << p); mask++) {
            int q = Integer.bitCount(mask);
            int[] idx = new int[q];
            int c = 0;
            for (int i = 0; i < p; i++) {
                if ((mask & (1 << i)) != 0) {
                    idx[c++] = i;
                }
            }
            double[][] g = new double[q][q];
            double[] h = new double[q];
            for (int i = 0; i < q; i++) {
                h[i] = NonNegativeLeastSquares.dot(cols[idx[i]], b);
                for (int j = 0; j < q; j++) {
                    g[i][j] = NonNegativeLeastSquares.dot(cols[idx[i]], cols[idx[j]]);
                }
            }
            double[] sub = q == 0 ? new double[0] : NonNegativeLeastSquares.solveNormal(g, h);
            double[] x = new double[p];
            for (int i = 0; i < q; i++) {
                x[idx[i]] = sub[i];
            }
            best = Math.min(best, residual(cols, b, x));
        }
        return best;
    }

    private static double residual(double[][] cols, double[] b, double[] x) {
        double s = 0;
        for (int j = 0; j < b.length; j++) {
            double v = b[j];
            for (int i = 0; i < cols.length; i++) {
                v -= x[i] * cols[i][j];
            }
            s += v * v;
        }
        return s;
    }
}
