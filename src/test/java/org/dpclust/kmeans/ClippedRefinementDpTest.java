package org.dpclust.kmeans;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.LaplaceMechanism;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of one {@link ClippedRefinement} step, the whole transcript (radius
 * histogram, counts, clipped centred sums; the means are post-processing of it; tier {@code dp}).
 * Pair: D' adds one record at the corner (1, 1) of the box, in centroid 1's cell at L1 distance 0.5
 * from it: it moves one histogram bin by 1, count 1 by 1, and centroid 1's sums by its offset
 * clipped to the released radius R, whose L1 norm is min(0.5, R) — the whole sensitivity R whenever
 * R ≤ 0.5. Statistic: the privacy-loss variable of the three releases at the calibrated scales, the
 * sums' scale computed from the R the output itself carries (the same under D and D').
 */
@Tag("dp")
class ClippedRefinementDpTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final double[][] CENTROIDS = {{0.25, 0.25}, {0.75, 0.75}};
    private static final double[][] D = {
        {0.2, 0.3}, {0.3, 0.1}, {0.7, 0.8}, {0.9, 0.6}, {0.6, 0.7}, {0.8, 0.8}, {0.7, 0.7}
    };
    private static final double[] ADDED = {1, 1};
    private static final double EPS = 1.0;

    @Test
    void oneStepPassesCalibratedAndFailsWithHalvedNoise() {
        double epsRadius = EPS * ClippedRefinement.RADIUS_SHARE;
        double epsCount = EPS * ClippedRefinement.COUNT_SHARE;
        double epsSum = EPS - epsRadius - epsCount;
        double histScale = GeometricMechanism.scale(1, epsRadius);
        double countScale = GeometricMechanism.scale(1, epsCount);
        int addedBin = ClippedRefinement.bin(0.5, 2);
        double[][] dPrime = new double[D.length + 1][];
        System.arraycopy(D, 0, dPrime, 0, D.length);
        dPrime[D.length] = ADDED;
        DpTester.assertCalibratedPassesAndHalvedFails(
                "clipped-refinement-step",
                EPS,
                EPS,
                DpTester.Options.defaults().withSamples(50_000),
                false,
                (neighbour, eps, rng) -> {
                    ClippedRefinement.Step s =
                            ClippedRefinement.step(
                                    neighbour ? dPrime : D, CENTROIDS, BOX, eps, rng);
                    long[] exactHist = histogram(D);
                    double l =
                            DpTester.laplaceLoss(
                                    s.histogram()[addedBin],
                                    exactHist[addedBin],
                                    exactHist[addedBin] + 1,
                                    histScale);
                    l += DpTester.laplaceLoss(s.counts()[1], 5, 6, countScale);
                    double r = s.radius();
                    double sumScale = LaplaceMechanism.scale(r, epsSum, 4);
                    double f = Math.min(1, r / 0.5);
                    for (int j = 0; j < 2; j++) {
                        double exact = clippedSum(r, j);
                        l +=
                                DpTester.laplaceLoss(
                                        s.sums()[2 + j], exact, exact + 0.25 * f, sumScale);
                    }
                    return l;
                });
    }

    /** Exact radius histogram of {@code pts} (all of D lies where the test expects). */
    private static long[] histogram(double[][] pts) {
        long[] h = new long[ClippedRefinement.RADIUS_BINS];
        for (double[] p : pts) {
            double[] c = p[0] + p[1] < 1 ? CENTROIDS[0] : CENTROIDS[1];
            h[ClippedRefinement.bin(Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]), 2)]++;
        }
        return h;
    }

    /** D's exact sum of clipped offsets from centroid 1 in coordinate j, at radius r. */
    private static double clippedSum(double r, int j) {
        double s = 0;
        for (double[] p : D) {
            if (p[0] + p[1] < 1) {
                continue;
            }
            double dx = p[0] - CENTROIDS[1][0];
            double dy = p[1] - CENTROIDS[1][1];
            double norm = Math.abs(dx) + Math.abs(dy);
            double f = norm > r ? r / norm : 1;
            s += (j == 0 ? dx : dy) * f;
        }
        return s;
    }
}
