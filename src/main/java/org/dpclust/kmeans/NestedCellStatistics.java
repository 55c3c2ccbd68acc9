package org.dpclust.kmeans;

import org.dpclust.geometry.NestedPointSet;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.ReleaseBudget;

/**
 * The DP release of exact fine-cell statistics over a {@link NestedPointSet}: the partition is
 * refined privately, so fine cells are used only where the noisy counts support them, without a
 * declared record count.
 *
 * <h2>Mechanism</h2>
 *
 * <ol>
 *   <li>Coarse counts: for each coarse cell j, the number of records in its fine cells, with
 *       two-sided geometric noise at ε₁ = {@code splitShare}·ε. Each record lies in exactly one
 *       coarse cell, so one unit of at most c records changes the vector of coarse counts by at
 *       most c in L1 norm: L1 sensitivity c, ε₁-DP.
 *   <li>The frontier (post-processing of step 1 and public inputs): coarse cell j with m_j fine
 *       cells is split into them iff m_j &gt; 1 and ñ_j·ε₂/d ≥ {@link CellRule#X_PER_CELL}·m_j, ε₂
 *       = ε − ε₁ — the {@link CellRule} signal per cell applied to the noisy count of one coarse
 *       cell; otherwise it stays one cell. The frontier is a partition of the box (every record
 *       lies in exactly one frontier cell), chosen from released values only.
 *   <li>Frontier statistics: per frontier cell the count and the fixed-point sum, released by
 *       {@link DpClusterStatistics#noise} at ε₂: count L1 sensitivity c, sum L1 sensitivity
 *       c·d·2^31 units (the derivation of {@link DpClusterStatistics} holds for any public
 *       partition, and given step 1 the frontier is public), ε₂-DP.
 * </ol>
 *
 * By adaptive sequential composition (step 3's partition is a function of step 1's output) the
 * release is ε₁ + ε₂ = ε-DP, pure, add/remove of one unit. Every coarse cell and every frontier
 * cell gets noise, empty or not. Centroids follow from the frontier's noisy cells by {@link
 * DpClusterStatistics#postProcess(DpClusterStatistics.NoisyCells, FixedPointCodec, double[][],
 * PrivacyRandom)} (free).
 *
 * <p>The exact statistics live at the fine level ({@link ClusterStatistics} over {@link
 * NestedPointSet#fineSize} cells): mergeable by addition and bounded by the public partition's
 * size, independent of the number of records.
 */
public final class NestedCellStatistics {
    /** Default share of ε for the coarse counts. */
    public static final double DEFAULT_SPLIT_SHARE = 0.1;

    private NestedCellStatistics() {}

    /**
     * One release's noisy output: the noisy coarse counts, the frontier (frontier cell f covers the
     * fine cells {@code [frontierFrom[f], frontierTo[f])}) and its noisy cells.
     */
    public record Noisy(
            long[] coarseCounts,
            int[] frontierFrom,
            int[] frontierTo,
            DpClusterStatistics.NoisyCells cells) {}

    /** The exact statistics of the frontier cells, summed from the fine cells they cover. */
    static ClusterStatistics frontierStatistics(
            ClusterStatistics fine, int[] frontierFrom, int[] frontierTo) {
        int d = fine.dimension();
        int m = frontierFrom.length;
        ClusterStatistics out = new ClusterStatistics(m, d);
        long[] s = out.state();
        for (int f = 0; f < m; f++) {
            for (int t = frontierFrom[f]; t < frontierTo[f]; t++) {
                s[f] += fine.count(t);
                for (int j = 0; j < d; j++) {
                    s[m + f * d + j] += fine.sum(t, j);
                }
            }
        }
        return out;
    }

    /**
     * The mechanism of the class comment.
     *
     * @param fine exact statistics over the fine cells of {@code partition} (private)
     * @param epsilon ε of the release, finite and &gt; 0
     * @param splitShare ε₁/ε, in (0, 1)
     * @param contributionBound c
     */
    public static Noisy noise(
            ClusterStatistics fine,
            NestedPointSet partition,
            FixedPointCodec codec,
            double epsilon,
            double splitShare,
            int contributionBound,
            PrivacyRandom rng) {
        ReleaseBudget.requireEpsilon(epsilon);
        if (!(splitShare > 0 && splitShare < 1)) {
            throw new IllegalArgumentException("split share must be in (0, 1), was " + splitShare);
        }
        if (fine.cells() != partition.fineSize()) {
            throw new IllegalArgumentException(
                    fine.cells() + " cells for a partition of " + partition.fineSize());
        }
        int coarse = partition.coarseSize();
        int d = fine.dimension();
        double eps1 = epsilon * splitShare;
        double eps2 = BudgetSplit.remainder(epsilon, eps1);
        long[] counts = new long[coarse];
        for (int j = 0; j < coarse; j++) {
            for (int t = partition.from(j); t < partition.to(j); t++) {
                counts[j] += fine.count(t);
            }
        }
        long[] noisyCounts = GeometricMechanism.addNoise(counts, contributionBound, eps1, rng);
        // ---- the frontier: noisy coarse counts and public inputs only ----
        int size = 0;
        boolean[] split = new boolean[coarse];
        for (int j = 0; j < coarse; j++) {
            int m = partition.to(j) - partition.from(j);
            // units, not records: with c records per unit the count noise is c/eps1 (as auto's n/c)
            split[j] =
                    m > 1
                            && (double) noisyCounts[j] / contributionBound * eps2 / d
                                    >= CellRule.X_PER_CELL * m;
            size += split[j] ? m : 1;
        }
        int[] from = new int[size];
        int[] to = new int[size];
        int f = 0;
        for (int j = 0; j < coarse; j++) {
            if (split[j]) {
                for (int t = partition.from(j); t < partition.to(j); t++, f++) {
                    from[f] = t;
                    to[f] = t + 1;
                }
            } else {
                from[f] = partition.from(j);
                to[f] = partition.to(j);
                f++;
            }
        }
        DpClusterStatistics.NoisyCells cells =
                DpClusterStatistics.noise(
                        frontierStatistics(fine, from, to),
                        codec,
                        eps2,
                        Double.NaN,
                        contributionBound,
                        rng);
        return new Noisy(noisyCounts, from, to, cells);
    }
}
