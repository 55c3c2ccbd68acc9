package org.dpclust.kmeans;

/**
 * The upper bound B_max on the number of bags of EPP-KM (docs/algorithms.md#bag-bound) and the
 * number of bags used, {@code B = max(1, ⌊B_max⌋)} capped at {@link #MAX_BAGS}.
 *
 * <p>For point x_r in cluster l and attribute j the adversary's error variance has the form E_inc =
 * V_rj / B + Bias²_rj, and EPP at level ε asks E_inc ≥ e^{−ε} E_exc (E_exc from an {@link
 * ExcludedErrorVariance}). Hence B ≤ V_rj / (e^{−ε} E_exc − Bias²_rj) whenever the denominator is
 * positive (otherwise (r, j) puts no constraint), and B_max is the minimum over all r and j.
 *
 * <ul>
 *   <li><b>Case 1</b> ({@link AdversaryCase#KNOWN_CLUSTER}, estimator (3) x̂_rj = N_l m_lj −
 *       Σ_{i∈C_l, i≠r} x_ij): Bias = 0 and
 *       <ul>
 *         <li>{@link VarianceForm#PER_POINT} (the paper's, only γ_r random): V = x_rj² (1 − 1/N_l);
 *         <li>{@link VarianceForm#JOINT} (γ jointly multinomial, the correct variance): V = N_l
 *             σ²_lj.
 *       </ul>
 *   <li><b>Case 2</b> ({@link AdversaryCase#UNKNOWN_CLUSTER}, docs/algorithms.md#bag-bound, taken
 *       literally): the adversary applies estimator (3) to cluster k with probability π_k = N_k/N.
 *       Given k, the estimate has mean x_rj if k = l and N_k m̄_kj − Σ_{i∈C_k} x_ij = 0 otherwise,
 *       and variance V_k/B with V_k = x_rj² (1 − 1/N_k) (per-point) or N_k σ²_kj (joint). By the
 *       law of total variance V = Σ_k π_k V_k and Bias² = π_l (1 − π_l) x_rj².
 * </ul>
 *
 * <p><b>When B_max &lt; 1</b> (e.g. the per-point form at any x_rj = 0, which every min–max scaled
 * data set has): no number of bags meets the bound; {@link #bags} still returns 1, the most
 * perturbation bagging can give, and {@link Result#feasible()} is false — the EPP inequality is
 * then NOT met at the binding (r, j). When no (r, j) constrains B (B_max = +∞) or B_max ≥ {@link
 * #MAX_BAGS}, B = {@link #MAX_BAGS}.
 *
 * <p>Caveats (docs/algorithms.md#where-epp-is-weak): the bound depends on private values (x_rj in
 * the per-point form, σ² in the joint form), so B itself leaks; N_k is treated as known. EPP is not
 * differential privacy.
 */
public final class BagBound {
    /** The cap on the number of bags (cost is B·N draws per release). */
    public static final int MAX_BAGS = 1000;

    /** Which adversary the bound protects against. */
    public enum AdversaryCase {
        /** Case 1: the adversary knows the cluster of x_r. */
        KNOWN_CLUSTER,
        /** Case 2: the adversary does not know the cluster of x_r. */
        UNKNOWN_CLUSTER
    }

    /** Which variance of the bagged centroid the bound uses. */
    public enum VarianceForm {
        /** The paper's: only γ_r ~ Binomial(B N_k, 1/N_k) random; E_inc = x_rj² (1 − 1/N_k) / B. */
        PER_POINT,
        /** The joint multinomial variance: Var(m_kj) = σ²_kj / (B N_k), E_inc = N_k σ²_kj / B. */
        JOINT
    }

    /**
     * @param bMax the bound (≥ 0, +∞ when nothing constrains B)
     * @param bags B = max(1, ⌊B_max⌋), at most {@link #MAX_BAGS}
     * @param point index r of the binding point, −1 when unconstrained
     * @param attribute index j of the binding attribute, −1 when unconstrained
     */
    public record Result(double bMax, int bags, int point, int attribute) {
        /** Whether B bags meet the EPP inequality for every (r, j), i.e. B_max ≥ 1. */
        public boolean feasible() {
            return bMax >= 1.0;
        }
    }

    private BagBound() {}

    /**
     * B_max and B for the given case, variance form, E_exc and ε over all points and attributes.
     */
    public static Result compute(
            double[][] points,
            PartitionMoments m,
            AdversaryCase adversary,
            VarianceForm form,
            ExcludedErrorVariance exc,
            double epsilon) {
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and >= 0, was " + epsilon);
        }
        double shrink = Math.exp(-epsilon);
        double bMax = Double.POSITIVE_INFINITY;
        int point = -1;
        int attribute = -1;
        for (int r = 0; r < points.length; r++) {
            int l = m.assignment()[r];
            for (int j = 0; j < points[r].length; j++) {
                double slack = shrink * exc.of(m, l, j) - biasSquared(points, m, adversary, r, j);
                if (!(slack > 0)) {
                    continue;
                }
                double bound = varianceTimesBags(points, m, adversary, form, r, j) / slack;
                if (bound < bMax) {
                    bMax = bound;
                    point = r;
                    attribute = j;
                }
            }
        }
        return new Result(bMax, bags(bMax), point, attribute);
    }

    /** B = max(1, ⌊B_max⌋), capped at {@link #MAX_BAGS} (also for B_max = +∞). */
    public static int bags(double bMax) {
        if (Double.isNaN(bMax)) {
            throw new IllegalArgumentException("B_max is NaN");
        }
        return (int) Math.max(1.0, Math.min(MAX_BAGS, Math.floor(bMax)));
    }

    /**
     * V_rj: B times the B-dependent part of E_inc for point r, attribute j (see the class comment).
     */
    public static double varianceTimesBags(
            double[][] points,
            PartitionMoments m,
            AdversaryCase adversary,
            VarianceForm form,
            int r,
            int j) {
        int l = m.assignment()[r];
        if (adversary == AdversaryCase.KNOWN_CLUSTER) {
            return clusterTerm(points, m, form, l, r, j);
        }
        double v = 0.0;
        for (int k = 0; k < m.clusters(); k++) {
            v += m.share(k) * clusterTerm(points, m, form, k, r, j);
        }
        return v;
    }

    /** Bias²_rj: 0 in Case 1, π_l (1 − π_l) x_rj² in Case 2. */
    public static double biasSquared(
            double[][] points, PartitionMoments m, AdversaryCase adversary, int r, int j) {
        if (adversary == AdversaryCase.KNOWN_CLUSTER) {
            return 0.0;
        }
        double pi = m.share(m.assignment()[r]);
        return pi * (1 - pi) * points[r][j] * points[r][j];
    }

    private static double clusterTerm(
            double[][] points, PartitionMoments m, VarianceForm form, int k, int r, int j) {
        int nk = m.sizes()[k];
        if (nk == 0) {
            return 0.0;
        }
        return form == VarianceForm.JOINT
                ? nk * m.withinVariance()[k][j]
                : points[r][j] * points[r][j] * (1.0 - 1.0 / nk);
    }
}
