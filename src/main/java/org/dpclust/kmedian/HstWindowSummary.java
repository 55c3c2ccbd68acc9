package org.dpclust.kmedian;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PivotListIndex;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.privacy.GaussianMechanism;
import org.dpclust.privacy.PrivacyRandom;

/**
 * HST node counts as window summary of vector streams (docs/algorithms.md#hst-stream-summary), and
 * their DP-HST release.
 *
 * <p>Public: a universe U of {@code universeSize} points drawn uniformly in the declared box from
 * the stream's public seed, and a 2-HST over U (l2 metric, Δ = the box's diameter, which bounds
 * diam(U)), both built once from public inputs only. Each record is counted at one point of U, its
 * snap, chosen by the {@link Snap} rule — either way a public function of the record alone (of no
 * other record, no arrival order), the same on every JVM:
 *
 * <ul>
 *   <li>{@link Snap#PIVOT} (the default, {@code hst.snap: pivot}): an approximate nearest point of
 *       U ({@link PivotListIndex}: the nearest point of the list of the {@value
 *       PivotListIndex#LIST} points of U around the record's nearest of {@value
 *       PivotListIndex#PIVOTS} pivots); usually the nearest point itself, at a fraction of its
 *       cost. |U| is at most {@value PivotListIndex#MAX_UNIVERSE}.
 *   <li>{@link Snap#NEAREST} ({@code hst.snap: nearest}): the nearest point of U, through U's exact
 *       k-d tree index ({@link PublicPointSet#nearest}: the brute-force answer bit for bit; built
 *       with the summary), for universes above the pivot rule's cap and as its exact reference.
 * </ul>
 *
 * <p>The window keeps one count per point of U: state O(|U|), independent of the number of records
 * (node counts, O(|U| · levels), are derived at release).
 *
 * <p>Private: the window's multiset of snapped records. Release ({@link DpHstInitializer}):
 * two-sided geometric noise on the count of EVERY node of every level, occupied or not, at ε_h =
 * ε/2^{L−h+1} per level with L1 sensitivity c per level (a unit contributes at most c records; a
 * record's leaf depends on that record only, so adding or removing it changes the counts on exactly
 * one root-to-leaf path, one node per level, by 1 each, and no other record's leaf moves), so the
 * release is ε(1 − 2^{−L}) < ε -DP for add/remove of one unit, and which nodes are occupied is not
 * revealed beyond the noise. The k centres (points of U) come from the noisy counts by the subtree
 * search and FIND-LEAF: post-processing.
 */
public final class HstWindowSummary {
    /** How a record picks the point of U it is counted at (see the class comment). */
    public enum Snap {
        NEAREST,
        PIVOT
    }

    private final PublicPointSet universe;
    private final Hst tree;
    private final Snap rule;
    private final PivotListIndex pivots;

    /**
     * Released centres, the noisy node counts they were chosen from, and public parameters
     * (sorted).
     */
    public record Release(
            double[][] centroids, long[] noisyNodeCounts, Map<String, Double> parameters) {}

    /** A summary with the exact {@link Snap#NEAREST} rule. */
    public HstWindowSummary(DomainBounds bounds, int universeSize, long publicSeed, int maxLevels) {
        this(bounds, universeSize, publicSeed, maxLevels, Snap.NEAREST);
    }

    public HstWindowSummary(
            DomainBounds bounds, int universeSize, long publicSeed, int maxLevels, Snap rule) {
        this.rule = Objects.requireNonNull(rule, "rule");
        this.universe = PublicPointSet.uniform(bounds, universeSize, publicSeed ^ 0x4853544CL);
        double[][] pts = new double[universeSize][];
        for (int i = 0; i < universeSize; i++) {
            pts[i] = universe.point(i);
        }
        this.tree =
                Hst.build(
                        VectorMetric.l2(pts),
                        bounds.diameter(),
                        new Hst.Options(publicSeed, maxLevels, true));
        this.pivots = rule == Snap.PIVOT ? new PivotListIndex(pts) : null;
        if (rule == Snap.NEAREST) {
            universe.nearest(pts[0]); // builds U's index now rather than on the first record
        }
    }

    /**
     * Index of the universe point a (clamped) record is counted at, by the summary's {@link Snap}
     * rule (see the class comment).
     */
    public int snap(double[] x) {
        return rule == Snap.PIVOT ? pivots.nearest(x) : universe.nearest(x);
    }

    /** The snap rule. */
    public Snap snapRule() {
        return rule;
    }

    /** The public universe U. */
    public PublicPointSet universe() {
        return universe;
    }

    public int universeSize() {
        return universe.size();
    }

    public Hst tree() {
        return tree;
    }

    /**
     * The ρ-zCDP release of one window's per-universe-point counts: {@link
     * DpHstInitializer#gaussianNodeCounts} (one σ on every released level, L2 sensitivity √L·c),
     * then the same post-processing as {@link #release}.
     */
    public Release releaseGaussian(
            long[] multiplicities, int k, double rho, int contributionBound, PrivacyRandom rng) {
        long[] noisy =
                DpHstInitializer.gaussianNodeCounts(
                        tree,
                        tree.countsFromMultiplicities(multiplicities),
                        contributionBound,
                        rho,
                        rng);
        Map<String, Double> params = new TreeMap<>();
        params.put("rho", rho);
        params.put("levels", (double) tree.levels());
        params.put("universe_size", (double) universe.size());
        params.put("count_l2_sensitivity_per_level", (double) contributionBound);
        params.put(
                "node_noise_sd",
                Math.sqrt(
                        GaussianMechanism.exactVariance(
                                        DpHstInitializer.allLevelsL2SensitivitySquared(
                                                tree, contributionBound),
                                        rho)
                                .value()));
        return new Release(centres(noisy, k), noisy, params);
    }

    private double[][] centres(long[] noisy, int k) {
        int[] centres = SubtreeSearch.centres(tree, noisy, k);
        double[][] c = new double[centres.length][];
        for (int i = 0; i < centres.length; i++) {
            c[i] = universe.point(centres[i]);
        }
        return c;
    }

    /** The DP release of one window's per-universe-point counts (see the class comment). */
    public Release release(
            long[] multiplicities,
            int k,
            double epsilon,
            int contributionBound,
            PrivacyRandom rng) {
        long[] noisy =
                DpHstInitializer.noisyNodeCounts(
                        tree,
                        tree.countsFromMultiplicities(multiplicities),
                        contributionBound,
                        epsilon,
                        rng);
        double[][] c = centres(noisy, k);
        Map<String, Double> params = new TreeMap<>();
        params.put("epsilon_total_bound", epsilon * (1 - Math.scalb(1.0, -tree.levels())));
        params.put("levels", (double) tree.levels());
        params.put("universe_size", (double) universe.size());
        params.put("count_sensitivity_per_level", (double) contributionBound);
        params.put(
                "leaf_level_noise_scale",
                contributionBound / DpHstInitializer.levelEpsilon(tree, 1, epsilon));
        return new Release(c, noisy, params);
    }
}
