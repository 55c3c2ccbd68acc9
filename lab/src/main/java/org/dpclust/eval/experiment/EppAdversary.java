package org.dpclust.eval.experiment;

import java.util.List;
import org.dpclust.kmeans.BagBound;
import org.dpclust.kmeans.ExcludedErrorVariance;
import org.dpclust.kmeans.PartitionMoments;

/**
 * The adversary of paper 002 (docs/algorithms.md#bag-bound), by Monte Carlo: given R independent
 * releases of centroids for one fixed partition, every point is re-estimated with estimator (3)
 * x̂_rj = N_k m_kj − Σ_{i∈C_k, i≠r} x_ij, and the variance of the estimate (E_inc) is compared with
 * E_exc = σ²_lj, the within-cluster variance of the point's own cluster l ({@link
 * ExcludedErrorVariance#WITHIN_CLUSTER}, the default the releases' bounds use).
 *
 * <p>Case 1 (cluster known): the estimate's error N_k (m_kj − m̄_kj) is the same for every point of
 * cluster k, so the ratio is per (k, j); {@link #case1} reports it averaged over the attributes of
 * one cluster (attributes with σ² = 0 carry no constraint and are skipped). Case 2 (cluster
 * unknown): the adversary uses cluster k with probability π_k = N_k/N, so E_inc = Σ_k π_k
 * E[(x̂^(k))²] − (Σ_k π_k E[x̂^(k)])² per point and attribute; {@link #case2} measures it at one
 * given (r, j). A single ratio estimated from R releases has relative standard error about
 * sqrt(2/(R − 1)) (normal approximation).
 *
 * <p>This measures EPP's second-moment condition for one linear estimator; it says nothing about
 * differential privacy.
 */
final class EppAdversary {
    private EppAdversary() {}

    /**
     * Case 1: the mean over attributes of the measured E_inc / σ²_kj for cluster {@code cluster},
     * or the smallest over clusters of it when {@code cluster} is −1.
     */
    static double case1(PartitionMoments m, List<double[][]> releases, int cluster) {
        double worst = Double.POSITIVE_INFINITY;
        int d = m.means()[0].length;
        for (int k = cluster < 0 ? 0 : cluster;
                k < (cluster < 0 ? m.clusters() : cluster + 1);
                k++) {
            double sum = 0.0;
            int used = 0;
            for (int j = 0; j < d; j++) {
                double exc = m.withinVariance()[k][j];
                if (!(exc > 0)) {
                    continue;
                }
                double s = 0.0;
                double s2 = 0.0;
                for (double[][] c : releases) {
                    double err = m.sizes()[k] * (c[k][j] - m.means()[k][j]);
                    s += err;
                    s2 += err * err;
                }
                int n = releases.size();
                double mean = s / n;
                sum += (s2 - n * mean * mean) / (n - 1) / exc;
                used++;
            }
            if (used > 0) {
                worst = Math.min(worst, sum / used);
            }
        }
        return worst;
    }

    /** Case 2: measured E_inc / σ²_lj at point r, attribute j (l the point's cluster). */
    static double case2(
            double[][] points, PartitionMoments m, List<double[][]> releases, int r, int j) {
        int l = m.assignment()[r];
        double mixMean = 0.0;
        double mixSecond = 0.0;
        for (int k = 0; k < m.clusters(); k++) {
            double known = m.sizes()[k] * m.means()[k][j] - (k == l ? points[r][j] : 0.0);
            double s = 0.0;
            double s2 = 0.0;
            for (double[][] c : releases) {
                double est = m.sizes()[k] * c[k][j] - known;
                s += est;
                s2 += est * est;
            }
            mixMean += m.share(k) * s / releases.size();
            mixSecond += m.share(k) * s2 / releases.size();
        }
        return (mixSecond - mixMean * mixMean) / m.withinVariance()[l][j];
    }

    /**
     * The (r, j) with the smallest exact E_inc/E_exc for B bags under the joint (true) variance of
     * the bagged centroid: (V_rj / B + Bias²_rj) / σ²_lj, over cells with positive σ²_lj. Returns
     * {r, j} and the ratio.
     */
    static double[] weakestCell(
            double[][] points, PartitionMoments m, BagBound.AdversaryCase adversary, int bags) {
        double best = Double.POSITIVE_INFINITY;
        int br = -1;
        int bj = -1;
        for (int r = 0; r < points.length; r++) {
            for (int j = 0; j < points[r].length; j++) {
                double exc = m.withinVariance()[m.assignment()[r]][j];
                if (!(exc > 0)) {
                    continue;
                }
                double ratio =
                        (BagBound.varianceTimesBags(
                                                        points,
                                                        m,
                                                        adversary,
                                                        BagBound.VarianceForm.JOINT,
                                                        r,
                                                        j)
                                                / bags
                                        + BagBound.biasSquared(points, m, adversary, r, j))
                                / exc;
                if (ratio < best) {
                    best = ratio;
                    br = r;
                    bj = j;
                }
            }
        }
        return new double[] {br, bj, best};
    }
}
