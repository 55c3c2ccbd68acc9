package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * The stats summary's convergent-zone update: its output lies in each cluster's convergent zone
 * (the ball around the cluster's noisy mean through the previous released centroid), it is not the
 * plain mean, and the noise it post-processes is the plain update's.
 */
class ConvergentZoneUpdateTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);
    private static final double[][] PREVIOUS = {{0.1, 0.9}, {0.8, 0.2}, {0.5, 0.5}};

    private static ClusterStatistics threeBlobs() {
        java.util.SplittableRandom g = new java.util.SplittableRandom(2); // public test data
        double[][] centres = {{0.2, 0.7}, {0.7, 0.3}, {0.6, 0.8}};
        double[][] pts = new double[3000][];
        for (int i = 0; i < pts.length; i++) {
            double[] c = centres[i % 3];
            pts[i] = new double[] {c[0] + 0.05 * g.nextGaussian(), c[1] + 0.05 * g.nextGaussian()};
        }
        return SnapshotStatistics.accumulate(pts, CODEC, PublicPointSet.uniform(BOX, 32, 9));
    }

    @Test
    void theUpdateLiesInEveryClustersConvergentZoneAndIsNotThePlainMean() {
        ClusterStatistics stats = threeBlobs();
        double minRatio = 1;
        double maxRatio = 0;
        for (int rep = 0; rep < 200; rep++) {
            var rng = TestRandoms.stream("zone-" + rep);
            DpClusterStatistics.NoisyCells noisy =
                    DpClusterStatistics.noise(stats, CODEC, 1.0, Double.NaN, 1, rng);
            ConvergentZoneUpdate.ClusterMeans cm =
                    ConvergentZoneUpdate.clusterMeans(noisy, CODEC, PREVIOUS);
            double[][] out =
                    ConvergentZoneUpdate.apply(noisy, CODEC, PREVIOUS, 1.0, rng).centroids();
            for (int i = 0; i < PREVIOUS.length; i++) {
                double radius = SamplingZone.distance(PREVIOUS[i], cm.means()[i]);
                double moved = SamplingZone.distance(out[i], cm.means()[i]);
                assertTrue(radius > 0.05, "cluster " + i + " has a zone to sample in");
                assertTrue(
                        moved <= radius,
                        "rep " + rep + " cluster " + i + ": " + moved + " > " + radius);
                minRatio = Math.min(minRatio, moved / radius);
                maxRatio = Math.max(maxRatio, moved / radius);
            }
        }
        System.out.println(
                "zone update: distance to the noisy mean / zone radius in ["
                        + minRatio
                        + ", "
                        + maxRatio
                        + "]");
        assertTrue(
                minRatio > 0 && maxRatio > 0.5,
                "a draw in the zone, not the mean: [" + minRatio + ", " + maxRatio + "]");
    }

    @Test
    void theNoiseIsThePlainUpdatesOnlyThePostProcessingDiffers() {
        ClusterStatistics stats = threeBlobs();
        DpClusterStatistics.Release mean =
                DpClusterStatistics.release(
                        stats,
                        CODEC,
                        PREVIOUS,
                        new DpClusterStatistics.ReleaseParams(
                                1.0, Double.NaN, 1, DpClusterStatistics.Update.MEAN),
                        TestRandoms.stream("same-key"));
        DpClusterStatistics.Release zone =
                DpClusterStatistics.release(
                        stats,
                        CODEC,
                        PREVIOUS,
                        new DpClusterStatistics.ReleaseParams(
                                1.0, Double.NaN, 1, DpClusterStatistics.Update.EXPDP_ZONE),
                        TestRandoms.stream("same-key"));
        Map<String, Double> p = new TreeMap<>(zone.parameters());
        assertEquals(1.0, p.remove("expdp_zone_update"));
        assertEquals(mean.parameters(), p);
        DpClusterStatistics.NoisyCells noisy =
                DpClusterStatistics.noise(
                        stats, CODEC, 1.0, Double.NaN, 1, TestRandoms.stream("same-key"));
        double[] counts = ConvergentZoneUpdate.clusterMeans(noisy, CODEC, PREVIOUS).counts();
        assertEquals(
                counts[0] + counts[1] + counts[2],
                mean.weights()[0] + mean.weights()[1] + mean.weights()[2],
                1e-9,
                "both weigh the same usable noisy cells");
        assertTrue(SamplingZone.distance(mean.centroids()[0], zone.centroids()[0]) > 0);
    }
}
