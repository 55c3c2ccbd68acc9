package org.dpclust.kmeans;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of the statistics release's noise stage ({@link DpClusterStatistics#noise};
 * tier {@code dp}). Pair: an empty cell versus the same cell with one record at the box's corner —
 * the count moves by the count sensitivity and every centred coordinate sum by half the width, so
 * the whole L1 sensitivity of both mechanisms is used. Statistic: the privacy-loss variable
 * computed with the calibrated scales (count and d sum coordinates), the optimal 1-D statistic for
 * this multi-coordinate output. Post-processing is free and not tested here.
 */
@Tag("dp")
class DpClusterStatisticsDpTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);

    @Test
    void passesCalibratedAndFailsWithHalvedNoise() {
        ClusterStatistics empty = new ClusterStatistics(1, 2);
        ClusterStatistics one = new ClusterStatistics(1, 2);
        long[] corner = new long[2];
        CODEC.encode(BOX.upperCopy(), corner);
        one.add(0, corner);
        DpClusterStatistics.NoisyCells nominal =
                DpClusterStatistics.noise(
                        empty, CODEC, 1.0, Double.NaN, 1, TestRandoms.stream("nominal"));
        DpTester.assertCalibratedPassesAndHalvedFails(
                "stats-cells",
                1.0,
                1.0,
                DpTester.Options.defaults(),
                false,
                (neighbour, eps, rng) -> {
                    DpClusterStatistics.NoisyCells o =
                            DpClusterStatistics.noise(
                                    neighbour ? one : empty, CODEC, eps, Double.NaN, 1, rng);
                    double l = DpTester.laplaceLoss(o.counts()[0], 0, 1, nominal.countScale());
                    for (int j = 0; j < 2; j++) {
                        l +=
                                DpTester.laplaceLoss(
                                        o.sums()[j],
                                        0,
                                        FixedPointCodec.HALF_RANGE,
                                        nominal.sumScale());
                    }
                    return l;
                });
    }
}
