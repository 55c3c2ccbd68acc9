package org.dpclust.kmeans;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.LaplaceMechanism;
import org.dpclust.privacy.PrivacyRandom;

/**
 * Paper 002's DP-KM baseline reconstructed in docs/algorithms.md#dp-km (SuLQ-style last step): the
 * final centroids of a NON-PRIVATE Lloyd partition replaced by noisy means, each cluster's noisy
 * centred sum divided by its noisy count.
 *
 * <p>Mechanism (chosen over per-coordinate Lap(range_j/(N_k ε)), which treats N_k as public):
 * points are clamped into the declared bounds; for each cluster, the sum of (x − mid) has L1
 * sensitivity Σ_j width_j / 2 under adding or removing one point, and gets {@link LaplaceMechanism}
 * noise with ε/2; the count has sensitivity 1 and gets ε/2. Centroid = mid + s̃ / max(1, ñ),
 * clamped into the bounds (post-processing); weight = max(0, ñ). The noise shrinks as N_k grows, as
 * the paper describes.
 *
 * <p>Guarantee: label {@code paper-claimed}. For a FIXED partition the sums and counts are ε-DP
 * (one point lies in one cluster: parallel composition). But the partition comes from exact Lloyd
 * on the private data, so adding a point can move others between clusters: the release as a whole
 * is not differentially private.
 */
public final class NoisyFinalCentroids {
    /** The released centroids (k x d) and noisy counts clipped at 0 (k). */
    public record Release(double[][] centroids, double[] weights) {}

    private NoisyFinalCentroids() {}

    /**
     * @param points the points (n x d, private), already clamped into {@code bounds}; not modified
     * @param partition a Lloyd run on {@code points}
     * @param bounds the declared bounds the sensitivities come from
     * @param rng the release's privacy randomness (Laplace noise)
     */
    public static Release release(
            double[][] points,
            LloydResult partition,
            DomainBounds bounds,
            double epsilon,
            PrivacyRandom rng) {
        int k = partition.centroids().length;
        int d = bounds.dimension();
        double sumSensitivity = 0.0;
        for (int j = 0; j < d; j++) {
            sumSensitivity += bounds.width(j) / 2.0;
        }
        double[][] sums = new double[k][d];
        double[] counts = new double[k];
        double[] clamped = new double[d];
        for (int i = 0; i < points.length; i++) {
            int c = partition.assignment()[i];
            bounds.clamp(points[i], clamped);
            for (int j = 0; j < d; j++) {
                sums[c][j] += clamped[j] - bounds.mid(j);
            }
            counts[c]++;
        }
        double[][] centroids = new double[k][d];
        double[] weights = new double[k];
        for (int c = 0; c < k; c++) {
            double[] noisySum =
                    LaplaceMechanism.addNoise(sums[c], sumSensitivity, epsilon / 2, rng);
            double noisyCount = LaplaceMechanism.addNoise(counts[c], 1.0, epsilon / 2, rng);
            double denominator = Math.max(1.0, noisyCount);
            for (int j = 0; j < d; j++) {
                centroids[c][j] =
                        Math.max(
                                bounds.lower(j),
                                Math.min(
                                        bounds.upper(j),
                                        bounds.mid(j) + noisySum[j] / denominator));
            }
            weights[c] = Math.max(0.0, noisyCount);
        }
        return new Release(centroids, weights);
    }
}
