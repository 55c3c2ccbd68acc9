package org.dpclust.kmedian;

import java.math.BigInteger;
import org.dpclust.privacy.GaussianMechanism;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.ReleaseBudget;

/**
 * DP-HST initialisation (docs/algorithms.md#dp-hst) with the budget constant fixed so that the
 * total is below ε.
 *
 * <p>Private: the demand set D (a multiset of points of the public universe U). Neighbouring
 * relation: D' = D plus or minus one demand point. Public: U, its metric, the tree (built from U
 * and a public seed only), k and ε.
 *
 * <p>Mechanism. For every level h = L, L-1, ..., 1 the vector of counts N_v = |D ∩ T(v)| over ALL
 * nodes v at level h (empty ones included, so which nodes are occupied is not revealed) is released
 * with the integer two-sided geometric mechanism ({@link GeometricMechanism}, discrete Laplace,
 * exact) at ε_h = ε / 2^{L-h+1}, i.e. noise scale >= 2^{L-h+1}/ε. (Integer noise, not {@code
 * LaplaceMechanism}: the counts are integers.) The root's count |D| is not released (the root is
 * never scored, see {@link SubtreeSearch}). The subtree search and FIND-LEAF then use only the
 * noisy counts: post-processing.
 *
 * <p>Privacy derivation. Each demand point lies in exactly one node per level (the nodes of a level
 * partition the points of U reaching that depth), so adding or removing one point changes the count
 * vector of level h by 1 in at most one coordinate: L1 sensitivity 1. Level h is therefore ε_h-DP,
 * and by sequential composition over the L levels the release is Σ_{h=1}^{L} ε/2^{L-h+1} = ε (1/2 +
 * 1/4 + ... + 1/2^L) = ε (1 - 2^{-L}) < ε -DP (pure). The paper's scale 2^{L-h}/ε would give ε(2 -
 * 2^{1-L}), up to 2ε. The guarantee assumes ideal random bits; see {@link PrivacyRandom}.
 */
public final class DpHstInitializer {
    private DpHstInitializer() {}

    /**
     * Squared L2 sensitivity of ONE level's node-count vector when one unit contributes at most c
     * demand points: c². Each point lies in exactly one node per level; with n_v of the unit's
     * points in node v of the level, Σ n_v <= c and ‖Δ‖₂² = Σ n_v² <= c² (all c points in one
     * node).
     */
    public static BigInteger levelL2SensitivitySquared(int contributionBound) {
        if (contributionBound < 1) {
            throw new IllegalArgumentException(
                    "contributionBound must be >= 1, got " + contributionBound);
        }
        return BigInteger.valueOf(contributionBound).pow(2);
    }

    /**
     * Squared L2 sensitivity of the node counts of all L released levels together (the root, level
     * L + 1, is not released): L·c², the sum of the per-level bounds (the levels' count vectors are
     * disjoint coordinates of one vector). A Gaussian release of every level with one σ is thus
     * ρ-zCDP with ρ = L·c²/(2σ²); equivalently, σ_h per level gives ρ = Σ_h c²/(2σ_h²).
     */
    public static BigInteger allLevelsL2SensitivitySquared(Hst tree, int contributionBound) {
        return levelL2SensitivitySquared(contributionBound)
                .multiply(BigInteger.valueOf(tree.levels()));
    }

    /** The privacy parameter used at level h (1 <= h <= L): ε / 2^{L-h+1}. */
    public static double levelEpsilon(Hst tree, int h, double epsilon) {
        return Math.scalb(epsilon, -(tree.levels() - h + 1));
    }

    /**
     * Noisy counts of every non-root node (index = node id); entry 0 (the root) is 0 and is not a
     * release. Draws are made level by level from L down to 1, nodes in id order.
     */
    public static long[] noisyCounts(Hst tree, int[] demand, double epsilon, PrivacyRandom rng) {
        return noisyNodeCounts(tree, tree.counts(demand), 1, epsilon, rng);
    }

    /**
     * The same mechanism on exact node counts, when one privacy unit can contribute up to {@code
     * sensitivity} demand points (a device with c records): each level's count vector then has L1
     * sensitivity c, and the level's noise scale grows to c/ε_h.
     */
    public static long[] noisyNodeCounts(
            Hst tree, long[] exact, long sensitivity, double epsilon, PrivacyRandom rng) {
        ReleaseBudget.requireEpsilon(epsilon);
        if (exact.length != tree.nodeCount()) {
            throw new IllegalArgumentException(
                    "expected " + tree.nodeCount() + " node counts, got " + exact.length);
        }
        long[] noisy = new long[exact.length];
        // Node ids are breadth-first, so each level is a contiguous id range, levels descending.
        int start = 1;
        while (start < exact.length) {
            int h = tree.level(start);
            int end = start;
            while (end < exact.length && tree.level(end) == h) {
                end++;
            }
            long[] level = new long[end - start];
            System.arraycopy(exact, start, level, 0, level.length);
            long[] released =
                    GeometricMechanism.addNoise(
                            level, sensitivity, levelEpsilon(tree, h, epsilon), rng);
            System.arraycopy(released, 0, noisy, start, released.length);
            start = end;
        }
        return noisy;
    }

    /**
     * The ρ-zCDP version of {@link #noisyNodeCounts}: discrete Gaussian noise ({@link
     * GaussianMechanism}) with one σ on every non-root node, σ² >= L·c²/(2ρ) from {@link
     * #allLevelsL2SensitivitySquared} (each record lies on one node per level, so a unit with c
     * records moves the L released levels' vector by at most L·c² in squared L2). Entry 0 (the
     * root) is 0. Draws are made in node id order.
     */
    public static long[] gaussianNodeCounts(
            Hst tree, long[] exact, int contributionBound, double rho, PrivacyRandom rng) {
        if (exact.length != tree.nodeCount()) {
            throw new IllegalArgumentException(
                    "expected " + tree.nodeCount() + " node counts, got " + exact.length);
        }
        long[] released = new long[exact.length - 1];
        System.arraycopy(exact, 1, released, 0, released.length);
        released =
                GaussianMechanism.addNoise(
                        released, allLevelsL2SensitivitySquared(tree, contributionBound), rho, rng);
        long[] noisy = new long[exact.length];
        System.arraycopy(released, 0, noisy, 1, released.length);
        return noisy;
    }

    /**
     * ε-DP initial centres: k distinct universe points (post-processing of {@link #noisyCounts}).
     */
    public static int[] initialize(
            Hst tree, int[] demand, int k, double epsilon, PrivacyRandom rng) {
        return SubtreeSearch.centres(tree, noisyCounts(tree, demand, epsilon, rng), k);
    }
}
