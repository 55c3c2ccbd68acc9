package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NearestPointTest {
    /** The plain loop NearestPoint must reproduce bit for bit. */
    private static int plain(double[] points, int d, double[] x) {
        int best = 0;
        double bestD = Double.POSITIVE_INFINITY;
        for (int p = 0; p < points.length / d; p++) {
            double s = 0;
            for (int t = 0; t < d; t++) {
                double e = x[t] - points[p * d + t];
                s += e * e;
            }
            if (s < bestD) {
                bestD = s;
                best = p;
            }
        }
        return best;
    }

    @Test
    void agreesWithThePlainLoopForEveryRemainderAndDimension() {
        SplittableRandom rng = new SplittableRandom(11);
        for (int d : new int[] {1, 2, 3, 10}) {
            for (int n = 1; n <= 13; n++) {
                double[] pts = new double[n * d];
                for (int i = 0; i < pts.length; i++) {
                    pts[i] = rng.nextDouble();
                }
                for (int q = 0; q < 200; q++) {
                    double[] x = new double[d];
                    for (int t = 0; t < d; t++) {
                        x[t] = rng.nextDouble(-0.2, 1.2);
                    }
                    int got = NearestPoint.of(pts, d, x);
                    assertEquals(plain(pts, d, x), got, "d=" + d + " n=" + n);
                    assertEquals(
                            Double.doubleToRawLongBits(
                                    NearestPoint.squaredDistance(pts, d, got, x)),
                            Double.doubleToRawLongBits(distance(pts, d, got, x)));
                }
            }
        }
    }

    private static double distance(double[] pts, int d, int p, double[] x) {
        double s = 0;
        for (int t = 0; t < d; t++) {
            double e = x[t] - pts[p * d + t];
            s += e * e;
        }
        return s;
    }

    @Test
    void tiesGoToTheLowestIndexAcrossAndWithinBlocksOfFour() {
        // points 1, 2, 5 and 6 are all at distance 1 from the origin; the rest farther
        double[] pts = {3, 0, 1, 0, 0, 1, 2, 2, 0, 3, -1, 0, 0, -1, 5, 5};
        assertEquals(1, NearestPoint.of(pts, 2, new double[] {0, 0}));
        double[] late = {3, 0, 4, 0, 0, 4, 2, 2, 0, 3, -1, 0, 0, -1, 5, 5};
        assertEquals(5, NearestPoint.of(late, 2, new double[] {0, 0}));
    }
}
