package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * Runs of both modes and both orientations, and the baselines' budget rules (SU's split as stated).
 */
class ExpDpKMeansTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final double[][] CENTRES = {{0.2, 0.2}, {0.8, 0.3}, {0.5, 0.8}};

    private static double[][] blobs(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] p = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] c = CENTRES[i % 3];
            p[i] =
                    new double[] {
                        c[0] + 0.05 * (r.nextDouble() - 0.5), c[1] + 0.05 * (r.nextDouble() - 0.5)
                    };
        }
        return p;
    }

    private static double sse(double[][] pts, double[][] c) {
        double s = 0;
        for (int i = 0; i < pts.length; i++) {
            s +=
                    Math.pow(
                            SamplingZone.distance(
                                    pts[i],
                                    c[new org.dpclust.geometry.PublicPointSet(c).nearest(pts[i])]),
                            2);
        }
        return s;
    }

    @Test
    void paperModeConvergesToLloydsSolutionOnSeparatedBlobsAndIsLabelledPaperClaimed() {
        double[][] pts = blobs(3000, 1);
        double[][] init = {pts[0], pts[1], pts[2]};
        LloydResult lloyd = Lloyd.runFrom(pts, init, 300);
        for (ZoneOrientation o : ZoneOrientation.values()) {
            ExpDpKMeans.Result r =
                    ExpDpKMeans.paper(
                            pts, init, o, 1.0, 1.0, 300, TestRandoms.stream("paper-" + o));
            assertEquals(org.dpclust.privacy.Guarantee.PAPER_CLAIMED, r.guarantee());
            assertFalse(r.hitCap(), o + " did not converge");
            assertTrue(r.iterations() >= 1);
            assertEquals(1.0 + r.iterations(), r.epsilon(), 1e-12, "bottom-up claimed total");
            assertEquals(1.0, sse(pts, r.centroids()) / lloyd.sse(), 0.01, o.toString());
        }
    }

    @Test
    void strictModeSpendsTheBudgetUpFrontStaysInTheBoxAndIsLabelledDp() {
        double[][] pts = blobs(3000, 2);
        double[][] init = {{0.1, 0.9}, {0.9, 0.9}, {0.5, 0.1}};
        assertEquals(6, ExpDpKMeans.strictReleases(ZoneOrientation.PAST, 5));
        assertEquals(11, ExpDpKMeans.strictReleases(ZoneOrientation.PAST_FUTURE, 5));
        for (ZoneOrientation o : ZoneOrientation.values()) {
            ExpDpKMeans.Result r =
                    ExpDpKMeans.strict(
                            pts, init, BOX, o, 5.0, 5, TestRandoms.stream("strict-" + o));
            assertEquals(org.dpclust.privacy.Guarantee.DP, r.guarantee());
            assertEquals(5, r.iterations());
            assertEquals(5.0, r.epsilon());
            for (double[] c : r.centroids()) {
                assertTrue(c[0] >= 0 && c[0] <= 1 && c[1] >= 0 && c[1] <= 1);
            }
            assertTrue(
                    sse(pts, r.centroids()) < sse(pts, init),
                    o + " must improve on its initial centroids");
        }
    }

    @Test
    void suSplitIsTheStatedOneNotDiffprivlibsSwappedOne() {
        for (int d : new int[] {1, 2, 4, 10, 50}) {
            double ratio = Math.cbrt(4.0 * d * 0.225 * 0.225);
            double epsT = 0.3;
            double f = NoisyLloyd.suCountFraction(d);
            double epsCount = f * epsT;
            double epsDim = (1 - f) * epsT / d;
            assertEquals(
                    ratio, epsCount / epsDim, 1e-12, "eps_count : eps_dim = cbrt(4 d rho^2) : 1");
            assertEquals(epsT, epsCount + d * epsDim, 1e-12);
            double diffprivlibCount = epsT / (d + ratio); // _split_epsilon's values swapped
            assertNotEquals(diffprivlibCount, epsCount, 1e-6);
        }
        assertEquals(0.74, NoisyLloyd.suRatio(2), 0.01);
    }

    @Test
    void baselineSchedulesFollowTheirPapersRules() {
        assertEquals(2, NoisyLloyd.suIterations(1.0, 150, 3, 4)); // iris: eps_m ~ 8.5
        assertEquals(7, NoisyLloyd.suIterations(1.0, 1_000_000, 3, 2));
        NoisyLloyd.Schedule su = NoisyLloyd.su(1.0, 150, 3, 4);
        assertEquals(1.0, su.total(), 1e-12);
        NoisyLloyd.Schedule dp = NoisyLloyd.dplloyd(1.0);
        assertEquals(5, dp.epsilons().length);
        assertEquals(0.2, dp.epsilons()[4], 1e-12);
        assertEquals(0.5, dp.countFraction());
        NoisyLloyd.Schedule dw = NoisyLloyd.dwork(1.0);
        assertEquals(0.5, dw.epsilons()[0], 1e-12);
        assertEquals(1.0 / 32, dw.epsilons()[4], 1e-12);
        assertTrue(dw.total() < 1.0);
        NoisyLloyd.Schedule noisy =
                NoisyLloyd.suWithNoisySize(1.0, 150, 3, 4, TestRandoms.stream("su-n"));
        assertEquals(1.0 - NoisyLloyd.SU_SIZE_FRACTION, noisy.total(), 1e-12);
        double[][] pts = blobs(3000, 3);
        double[][] c =
                NoisyLloyd.run(
                                pts,
                                new double[][] {{0.1, 0.9}, {0.9, 0.9}, {0.5, 0.1}},
                                BOX,
                                NoisyLloyd.dplloyd(5.0),
                                TestRandoms.stream("dplloyd-run"))
                        .means();
        assertEquals(3, c.length);
    }
}
