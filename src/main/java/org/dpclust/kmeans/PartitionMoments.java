package org.dpclust.kmeans;

/**
 * Exact first and second moments of a fixed partition: per cluster its size N_k, mean m̄_k and
 * within-cluster (population) variance σ²_kj = (1/N_k) Σ_{i∈C_k} (x_ij − m̄_kj)², and the total
 * (population) variance τ²_j of each attribute over all points.
 *
 * <p>Contract: computed from the private points and a partition of them; nothing here is private or
 * noised — these are the quantities EPP-KM (docs/algorithms.md#bag-bound) plugs into its bounds on
 * the number of bags. An empty cluster has size 0, mean and variance 0.
 */
public record PartitionMoments(
        int[] sizes,
        double[][] means,
        double[][] withinVariance,
        double[] totalVariance,
        int[] assignment) {

    /** Moments of {@code points} partitioned by {@code assignment} (values in 0..k−1). */
    public static PartitionMoments of(double[][] points, int[] assignment, int k) {
        int n = points.length;
        int d = points[0].length;
        int[] sizes = new int[k];
        double[][] means = new double[k][d];
        double[][] within = new double[k][d];
        double[] grand = new double[d];
        double[] total = new double[d];
        for (int i = 0; i < n; i++) {
            sizes[assignment[i]]++;
            for (int j = 0; j < d; j++) {
                means[assignment[i]][j] += points[i][j];
                grand[j] += points[i][j];
            }
        }
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d && sizes[c] > 0; j++) {
                means[c][j] /= sizes[c];
            }
        }
        for (int j = 0; j < d; j++) {
            grand[j] /= n;
        }
        for (int i = 0; i < n; i++) {
            int c = assignment[i];
            for (int j = 0; j < d; j++) {
                double w = points[i][j] - means[c][j];
                double t = points[i][j] - grand[j];
                within[c][j] += w * w;
                total[j] += t * t;
            }
        }
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d && sizes[c] > 0; j++) {
                within[c][j] /= sizes[c];
            }
        }
        for (int j = 0; j < d; j++) {
            total[j] /= n;
        }
        return new PartitionMoments(sizes, means, within, total, assignment.clone());
    }

    /** Number of clusters k. */
    public int clusters() {
        return sizes.length;
    }

    /** Number of points N. */
    public int points() {
        return assignment.length;
    }

    /** π_k = N_k / N, the cluster's share of the points (Case 2's prior on x_r's cluster). */
    public double share(int cluster) {
        return sizes[cluster] / (double) assignment.length;
    }
}
