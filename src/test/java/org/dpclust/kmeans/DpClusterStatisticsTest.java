package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.eval.ClusteringMetrics;
import org.dpclust.eval.DriftingGaussianMixture;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * Privacy and utility of the statistics release. The DP test uses the privacy-loss variable of the
 * release's noise stage on the worst-case neighbouring pair: an empty cell versus the same cell
 * with one record at the box's corner (the count moves by the count sensitivity, every coordinate
 * sum by half the width). Post-processing is free and not tested here.
 */
class DpClusterStatisticsTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);
    private static final DpTester.Options O = DpTester.Options.defaults();

    /**
     * Privacy loss log p(o|D)/p(o|D') of the noise stage calibrated at {@code epsilon}, for outputs
     * o: the sum over the coordinates that differ of (|o - a| - |o - a'|)/scale. It lies in
     * [-epsilon, epsilon] when the mechanism is calibrated; under halved noise it is the (scaled)
     * optimal test statistic.
     */
    private static double loss(
            DpClusterStatistics.NoisyCells o, DpClusterStatistics.NoisyCells nominal) {
        double l = (Math.abs(o.counts()[0]) - Math.abs(o.counts()[0] - 1.0)) / nominal.countScale();
        for (int j = 0; j < 2; j++) {
            double a = 0;
            double b = FixedPointCodec.HALF_RANGE;
            l += (Math.abs(o.sums()[j] - a) - Math.abs(o.sums()[j] - b)) / nominal.sumScale();
        }
        return l;
    }

    private static DpTester.VoteResult test(double epsMechanism, String label) {
        ClusterStatistics empty = new ClusterStatistics(1, 2);
        ClusterStatistics one = new ClusterStatistics(1, 2);
        long[] corner = new long[2];
        CODEC.encode(BOX.upperCopy(), corner);
        one.add(0, corner);
        PrivacyRandom r = TestRandoms.stream(label);
        DpClusterStatistics.NoisyCells nominal =
                DpClusterStatistics.noise(empty, CODEC, 1.0, Double.NaN, 1, r);
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testScalar(
                                        () ->
                                                loss(
                                                        DpClusterStatistics.noise(
                                                                empty,
                                                                CODEC,
                                                                epsMechanism,
                                                                Double.NaN,
                                                                1,
                                                                r),
                                                        nominal),
                                        () ->
                                                loss(
                                                        DpClusterStatistics.noise(
                                                                one,
                                                                CODEC,
                                                                epsMechanism,
                                                                Double.NaN,
                                                                1,
                                                                r),
                                                        nominal),
                                        1.0,
                                        O));
        System.out.println("DpClusterStatistics " + label + ": " + v.summary());
        return v;
    }

    @Test
    void passesTheDpTestAtCalibratedNoise() {
        assertTrue(test(1.0, "stats-dp").passedByMajority());
    }

    @Test
    void failsTheDpTestWithHalvedNoise() {
        assertFalse(test(2.0, "stats-dp-neg").passedByMajority());
    }

    @Test
    void theBudgetSplitAddsUpAndSensitivitiesComeFromTheBounds() {
        ClusterStatistics s = new ClusterStatistics(4, 2);
        DpClusterStatistics.NoisyCells n =
                DpClusterStatistics.noise(
                        s, CODEC, 0.8, Double.NaN, 3, TestRandoms.stream("split"));
        assertEquals(0.8, n.epsilonCount() + n.epsilonSum(), 1e-15);
        assertEquals(3, n.countSensitivity());
        assertEquals(3L * 2 * FixedPointCodec.HALF_RANGE, n.sumSensitivity());
        assertTrue(n.countScale() >= 3 / n.epsilonCount());
        assertTrue(n.sumScale() >= n.sumSensitivity() / n.epsilonSum());
    }

    @Test
    void recoversSeparatedClustersAndIsDeterministicForTheSameRandomness() {
        DomainBounds box = new DomainBounds(new double[] {-50, 0}, new double[] {50, 100});
        FixedPointCodec codec = new FixedPointCodec(box);
        DriftingGaussianMixture mix =
                new DriftingGaussianMixture(box.lowerCopy(), box.upperCopy(), 4, 0.03, 0.0, 42);
        PublicPointSet cells = PublicPointSet.uniform(box, 64, 11);
        ClusterStatistics stats = new ClusterStatistics(64, 2);
        long[] e = new long[2];
        for (double[] x : mix.sample(0, 20_000)) {
            box.clamp(x, x);
            codec.encode(x, e);
            stats.add(cells.nearest(x), e);
        }
        double[][] init = {
            {-40, 10}, {-39, 11}, {-38, 12}, {-37, 13}
        }; // deliberately bad public start
        DpClusterStatistics.Release r1 =
                DpClusterStatistics.release(
                        stats, codec, init, 1.0, Double.NaN, 1, TestRandoms.stream("utility"));
        DpClusterStatistics.Release r2 =
                DpClusterStatistics.release(
                        stats, codec, init, 1.0, Double.NaN, 1, TestRandoms.stream("utility"));
        double err =
                ClusteringMetrics.meanMatchedDistance(mix.centers(0), r1.centroids())
                        / box.maxWidth();
        assertTrue(err < 0.02, "matched error " + err);
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(r1.centroids()[i], r2.centroids()[i], 0.0);
        }
        assertEquals(20_000, java.util.Arrays.stream(r1.weights()).sum(), 500);
    }
}
