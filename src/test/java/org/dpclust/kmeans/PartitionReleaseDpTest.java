package org.dpclust.kmeans;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of one strict-mode ExpDP iteration, {@link PartitionRelease#release} (the
 * release of per-cluster noisy counts and sums on the partition by public centroids; the zone and
 * the draw are post-processing of it; tier {@code dp}). Pair: D' adds one record at a corner of the
 * declared box, which lands in cluster 1 and moves its count by 1 and every centred sum coordinate
 * by half the box width — the whole sensitivity. Statistic: the output projected onto the
 * noise-whitened difference of the neighbours (the other cluster's coordinates are orthogonal to
 * it). The full schedules that iterate this step are tested in {@link NoisyLloydDpTest}.
 */
@Tag("dp")
class PartitionReleaseDpTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final double[][] CENTROIDS = {{0.25, 0.25}, {0.75, 0.75}};
    private static final double[][] D = {
        {0.2, 0.3}, {0.3, 0.1}, {0.7, 0.8}, {0.9, 0.6}, {0.6, 0.7}
    };
    private static final double[][] D_PRIME = {
        {0.2, 0.3}, {0.3, 0.1}, {0.7, 0.8}, {0.9, 0.6}, {0.6, 0.7}, {1, 1}
    };

    @Test
    void oneStrictIterationPassesCalibratedAndFailsWithHalvedNoise() {
        FixedPointCodec codec = new FixedPointCodec(BOX);
        DpClusterStatistics.NoisyCells probe =
                PartitionRelease.release(
                        D, CENTROIDS, codec, 1.0, Double.NaN, TestRandoms.stream("probe"));
        // (count_0, count_1, sum_0x, sum_0y, sum_1x, sum_1y): cluster 1's coordinates differ
        double[] direction = {
            0,
            1 / sq(probe.countScale()),
            0,
            0,
            (double) FixedPointCodec.HALF_RANGE / sq(probe.sumScale()),
            (double) FixedPointCodec.HALF_RANGE / sq(probe.sumScale())
        };
        DpTester.assertCalibratedPassesAndHalvedFails(
                "expdp-strict-iteration",
                1.0,
                1.0,
                DpTester.Options.defaults(),
                false,
                (neighbour, eps, rng) -> {
                    DpClusterStatistics.NoisyCells c =
                            PartitionRelease.release(
                                    neighbour ? D_PRIME : D,
                                    CENTROIDS,
                                    codec,
                                    eps,
                                    Double.NaN,
                                    rng);
                    long[] n = c.counts();
                    long[] s = c.sums();
                    return DpTester.project(
                            new double[] {n[0], n[1], s[0], s[1], s[2], s[3]}, direction);
                });
    }

    private static double sq(double x) {
        return x * x;
    }
}
