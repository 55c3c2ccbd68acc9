package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of one strict-mode iteration (the release of per-cluster noisy counts and
 * sums on the partition by public centroids; the zone and the draw are post-processing of it) on a
 * worst-case neighbouring pair — D' adds one record at a corner of the declared box, which lands in
 * cluster 1 and moves its count by 1 and every centred sum coordinate by half the box width — with
 * a halved-noise negative control. The output is projected onto the noise-whitened difference of
 * the neighbours (docs/privacy.md#testing-the-guarantee).
 */
class ExpDpPrivacyTest {
    private static final DpTester.Options O = DpTester.Options.defaults();
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final double[][] CENTROIDS = {{0.25, 0.25}, {0.75, 0.75}};
    private static final double[][] D = {
        {0.2, 0.3}, {0.3, 0.1}, {0.7, 0.8}, {0.9, 0.6}, {0.6, 0.7}
    };
    private static final double[][] D_PRIME = {
        {0.2, 0.3}, {0.3, 0.1}, {0.7, 0.8}, {0.9, 0.6}, {0.6, 0.7}, {1, 1}
    };

    private static DpTester.VoteResult iteration(
            double epsMechanism, double epsTested, String label) {
        FixedPointCodec codec = new FixedPointCodec(BOX);
        PrivacyRandom r = TestRandoms.stream(label);
        DpClusterStatistics.NoisyCells probe =
                PartitionRelease.release(D, CENTROIDS, codec, epsMechanism, Double.NaN, r);
        // cluster 1's coordinates: count at index 1, sums at indices 2 + 2..3 of the output below
        double[] direction = {
            0,
            1 / sq(probe.countScale()),
            0,
            0,
            (double) FixedPointCodec.HALF_RANGE / sq(probe.sumScale()),
            (double) FixedPointCodec.HALF_RANGE / sq(probe.sumScale())
        };
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testProjected(
                                        () ->
                                                output(
                                                        PartitionRelease.release(
                                                                D,
                                                                CENTROIDS,
                                                                codec,
                                                                epsMechanism,
                                                                Double.NaN,
                                                                r)),
                                        () ->
                                                output(
                                                        PartitionRelease.release(
                                                                D_PRIME,
                                                                CENTROIDS,
                                                                codec,
                                                                epsMechanism,
                                                                Double.NaN,
                                                                r)),
                                        direction,
                                        epsTested,
                                        O));
        System.out.println("strict ExpDP iteration " + label + ": " + v.summary());
        return v;
    }

    private static double sq(double x) {
        return x * x;
    }

    /** (count_0, count_1, sum_0x, sum_0y, sum_1x, sum_1y). */
    private static double[] output(DpClusterStatistics.NoisyCells c) {
        long[] n = c.counts();
        long[] s = c.sums();
        return new double[] {n[0], n[1], s[0], s[1], s[2], s[3]};
    }

    @Test
    void oneStrictIterationPassesAtCalibratedNoise() {
        assertTrue(iteration(1.0, 1.0, "expdp-strict").passedByMajority());
    }

    @Test
    void oneStrictIterationFailsWithHalvedNoise() {
        assertFalse(iteration(2.0, 1.0, "expdp-strict-neg").passedByMajority());
    }
}
