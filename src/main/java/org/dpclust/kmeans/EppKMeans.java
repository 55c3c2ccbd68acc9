package org.dpclust.kmeans;

import org.dpclust.privacy.PrivacyRandom;

/**
 * EPP-KM (Nguyen, Gupta, Rana, Venkatesh 2016; docs/algorithms.md#epp-km): a non-private Lloyd
 * partition run to convergence, then the final centroids replaced by {@link BaggedCentroids} with B
 * = {@link BagBound#bags}(B_max) bags, B_max from {@link BagBound} for the chosen adversary case,
 * variance form and E_exc.
 *
 * <p>Guarantee: error-preserving privacy (label {@code epp}) in the paper's sense only — for the
 * one linear estimator (3), the adversary's error variance with x_r is at least e^{−ε} times the
 * one without it, when {@link BagBound.Result#feasible()}. <b>EPP is not differential privacy</b>:
 * the partition, the cluster sizes (released as weights) and every Lloyd iteration but the last are
 * exact, and B depends on private data. Batch only; never mixed with a stream's {@code dp}
 * releases.
 */
public final class EppKMeans {
    /**
     * @param centroids the released (bagged) centroids, k x d
     * @param sizes N_k, the exact cluster sizes (treated as known by the paper)
     * @param bound B_max, B and the binding (r, j)
     * @param moments the partition's moments the bound was computed from (not released)
     */
    public record Release(
            double[][] centroids,
            double[] sizes,
            BagBound.Result bound,
            PartitionMoments moments) {}

    private EppKMeans() {}

    /**
     * The EPP release of a converged partition.
     *
     * @param points the points (n x d, private); not modified
     * @param partition a converged Lloyd run on {@code points}
     * @param rng the release's privacy randomness (the bags)
     */
    public static Release release(
            double[][] points,
            LloydResult partition,
            double epsilon,
            BagBound.AdversaryCase adversary,
            BagBound.VarianceForm form,
            ExcludedErrorVariance exc,
            PrivacyRandom rng) {
        int k = partition.centroids().length;
        PartitionMoments m = PartitionMoments.of(points, partition.assignment(), k);
        BagBound.Result bound = BagBound.compute(points, m, adversary, form, exc, epsilon);
        double[][] centroids =
                BaggedCentroids.compute(
                        points, partition.assignment(), partition.centroids(), bound.bags(), rng);
        double[] sizes = new double[k];
        for (int c = 0; c < k; c++) {
            sizes[c] = m.sizes()[c];
        }
        return new Release(centroids, sizes, bound, m);
    }
}
