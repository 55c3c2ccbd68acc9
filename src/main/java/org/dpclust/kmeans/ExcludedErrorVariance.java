package org.dpclust.kmeans;

/**
 * E_exc(x̂_rj): the variance of the adversary's error on attribute j of x_r when x_r did NOT take
 * part (paper 002 eq. (1), docs/algorithms.md#epp-definition). The paper's text does not define it
 * recoverably, so it is pluggable; it is evaluated for the cluster {@code cluster} the point
 * belongs to.
 *
 * <ul>
 *   <li>{@link #WITHIN_CLUSTER} (default): σ²_kj, the within-cluster variance of attribute j —
 *       without x_r the adversary's best guess is its cluster's mean, whose error variance is
 *       σ²_kj.
 *   <li>{@link #TOTAL}: τ²_j, the variance of attribute j over all points — the error of guessing
 *       the overall mean when even the cluster is unknown (docs/algorithms.md#epp-definition). It
 *       is at least as large as the pooled within-cluster variance, so it gives tighter bounds
 *       (fewer bags).
 * </ul>
 *
 * Other choices (e.g. a public prior variance) plug in as a lambda. A value of 0 means attribute j
 * puts no constraint on the number of bags (E_inc ≥ 0 always holds).
 *
 * <p>EPP constrains one second moment of one linear estimator; it is not differential privacy.
 */
@FunctionalInterface
public interface ExcludedErrorVariance {
    /** Within-cluster variance σ²_kj of attribute j (the default). */
    ExcludedErrorVariance WITHIN_CLUSTER =
            (m, cluster, attribute) -> m.withinVariance()[cluster][attribute];

    /** Total variance τ²_j of attribute j over all points. */
    ExcludedErrorVariance TOTAL = (m, cluster, attribute) -> m.totalVariance()[attribute];

    /** E_exc for a point of cluster {@code cluster}, attribute {@code attribute}; ≥ 0. */
    double of(PartitionMoments moments, int cluster, int attribute);
}
