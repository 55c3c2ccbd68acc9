package org.dpclust.kmeans;

import org.dpclust.privacy.PrivacyRandom;

/**
 * The bagged centroids of EPP-KM's final step (Algorithm 1, docs/algorithms.md#bagging): for each
 * cluster k with N_k points, B bags of N_k draws with replacement from the cluster, each bag's
 * mean, and the average of the B bag means, m_k = (1/(B N_k)) Σ_{i∈C_k} γ_i x_i with γ ~
 * Multinomial(B N_k; 1/N_k…).
 *
 * <p>Contract: E[m_k] = m̄_k (unbiased) and Var(m_kj) = σ²_kj / (B N_k) (joint multinomial
 * variance, σ² the within-cluster population variance). The draws come from the release's {@link
 * PrivacyRandom} (exact uniform indices, {@link PrivacyRandom#nextLong(long)}), so a replay of the
 * same snapshot gives the same release. An empty cluster keeps its fallback centroid. Not
 * differential privacy: see {@link BagBound}.
 */
public final class BaggedCentroids {
    private BaggedCentroids() {}

    /**
     * @param points the clustered points (n x d); not modified
     * @param assignment cluster of each point (0..k−1)
     * @param fallback k x d centroids kept for empty clusters (e.g. Lloyd's); not modified
     * @param bags B ≥ 1
     * @param rng the release's privacy randomness
     * @return fresh k x d bagged centroids
     */
    public static double[][] compute(
            double[][] points, int[] assignment, double[][] fallback, int bags, PrivacyRandom rng) {
        if (bags < 1) {
            throw new IllegalArgumentException("bags must be >= 1, was " + bags);
        }
        if (rng == null) {
            throw new IllegalArgumentException("bagging needs the release's PrivacyRandom");
        }
        int k = fallback.length;
        int d = points[0].length;
        int[][] members = members(assignment, k);
        double[][] out = new double[k][];
        for (int c = 0; c < k; c++) {
            int[] idx = members[c];
            if (idx.length == 0) {
                out[c] = fallback[c].clone();
                continue;
            }
            double[] sum = new double[d];
            long draws = (long) bags * idx.length;
            for (long t = 0; t < draws; t++) {
                double[] p = points[idx[(int) rng.nextLong(idx.length)]];
                for (int j = 0; j < d; j++) {
                    sum[j] += p[j];
                }
            }
            for (int j = 0; j < d; j++) {
                sum[j] /= draws;
            }
            out[c] = sum;
        }
        return out;
    }

    /** Indices of the points of each cluster, in increasing order. */
    static int[][] members(int[] assignment, int k) {
        int[] count = new int[k];
        for (int a : assignment) {
            count[a]++;
        }
        int[][] members = new int[k][];
        for (int c = 0; c < k; c++) {
            members[c] = new int[count[c]];
        }
        int[] fill = new int[k];
        for (int i = 0; i < assignment.length; i++) {
            members[assignment[i]][fill[assignment[i]]++] = i;
        }
        return members;
    }
}
