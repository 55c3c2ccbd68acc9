package org.dpclust.kmeans;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.PrivacyRandom;

/**
 * One DP "noisy sums and counts" step against public centroids: the shared iteration of strict
 * ExpDP and of the DPLloyd/SU/DWORK baselines.
 *
 * <p><b>Private:</b> the points. <b>Neighbouring relation:</b> add/remove one record.
 * <b>Mechanism:</b> the points are clamped into the declared bounds and partitioned by the Voronoi
 * cells of {@code centroids}, which must be public (released earlier or drawn from public
 * information); per cell, the count and the fixed-point sum of centred coordinates are released by
 * {@link DpClusterStatistics#noise} (two-sided geometric noise; count L1 sensitivity 1 with ε·f,
 * sum L1 sensitivity d·2^31 units = d/2 box widths with ε·(1 − f), where f is the count fraction).
 * Each record lies in exactly one cell, so by parallel composition over the cells the release is
 * ε-DP (pure) whatever k is. Because the codec scales each dimension by its declared width, the sum
 * noise is the same as per-dimension Laplace-type noise of sensitivity width_j/2 and ε(1 − f)/d per
 * dimension, which is how SU's per-dimension budget is realised. <b>Post-processing:</b> a cell
 * with noisy count ≥ 1 gets mean = mid + noisy centred sum / noisy count, clamped into the box;
 * other cells keep their public centroid.
 */
public final class PartitionRelease {
    private PartitionRelease() {}

    /** The released values of one step: noisy means (k×d) and the noisy counts behind them (k). */
    public record Step(double[][] means, double[] counts) {}

    /**
     * Noisy means and counts of the cells of the public {@code centroids} (new arrays).
     *
     * @param countFraction share f of epsilon for the counts (NaN: {@link
     *     DpClusterStatistics#defaultCountFraction})
     */
    public static Step noisyMeans(
            double[][] points,
            double[][] centroids,
            DomainBounds bounds,
            double epsilon,
            double countFraction,
            PrivacyRandom rng) {
        FixedPointCodec codec = new FixedPointCodec(bounds);
        return means(
                release(points, centroids, codec, epsilon, countFraction, rng), centroids, codec);
    }

    /**
     * Post-processing of one step's noisy cells into means (the rule of the class comment); only
     * released values and public inputs.
     */
    static Step means(
            DpClusterStatistics.NoisyCells noisy, double[][] centroids, FixedPointCodec codec) {
        DomainBounds bounds = codec.bounds();
        int k = centroids.length;
        int d = bounds.dimension();
        double[][] out = new double[k][];
        double[] counts = new double[k];
        for (int i = 0; i < k; i++) {
            long count = noisy.counts()[i];
            counts[i] = count;
            if (count < 1) {
                out[i] = centroids[i].clone();
                continue;
            }
            out[i] = new double[d];
            for (int j = 0; j < d; j++) {
                out[i][j] = codec.decodeMean(j, noisy.sums()[i * d + j], count);
            }
            bounds.clamp(out[i], out[i]);
        }
        return new Step(out, counts);
    }

    /**
     * The mechanism alone: noisy counts and fixed-point sums of the public cells (the DP tests'
     * output).
     */
    static DpClusterStatistics.NoisyCells release(
            double[][] points,
            double[][] centroids,
            FixedPointCodec codec,
            double epsilon,
            double countFraction,
            PrivacyRandom rng) {
        ClusterStatistics stats =
                SnapshotStatistics.accumulate(points, codec, new PublicPointSet(centroids));
        return DpClusterStatistics.noise(stats, codec, epsilon, countFraction, 1, rng);
    }
}
