package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.quality.ClusteringMetrics;
import org.dpclust.synthetic.DriftingGaussianMixture;
import org.junit.jupiter.api.Test;

/**
 * The statistics release: noise key, budget split and utility (its statistical DP test is {@link
 * DpClusterStatisticsDpTest}).
 */
class DpClusterStatisticsTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);

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
                        stats,
                        codec,
                        init,
                        new DpClusterStatistics.ReleaseParams(1.0, Double.NaN, 1),
                        TestRandoms.stream("utility"));
        DpClusterStatistics.Release r2 =
                DpClusterStatistics.release(
                        stats,
                        codec,
                        init,
                        new DpClusterStatistics.ReleaseParams(1.0, Double.NaN, 1),
                        TestRandoms.stream("utility"));
        double err =
                ClusteringMetrics.meanMatchedDistance(mix.centers(0), r1.centroids())
                        / box.maxWidth();
        assertTrue(err < 0.02, "matched error " + err);
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(r1.centroids()[i], r2.centroids()[i], 0.0);
        }
        assertEquals(20_000, java.util.Arrays.stream(r1.weights()).sum(), 500);
    }

    @Test
    void releaseParamsRejectWhatNoReleaseCouldUse() {
        double[][] bad = {
            {0, Double.NaN, 1},
            {Double.POSITIVE_INFINITY, Double.NaN, 1},
            {1, 0, 1},
            {1, 1, 1},
            {1, 0.5, 0}
        };
        for (double[] b : bad) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> new DpClusterStatistics.ReleaseParams(b[0], b[1], (int) b[2]),
                    Arrays.toString(b));
        }
        DpClusterStatistics.ReleaseParams ok =
                new DpClusterStatistics.ReleaseParams(0.5, Double.NaN, 2);
        assertEquals(DpClusterStatistics.Update.MEAN, ok.update());
    }
}
