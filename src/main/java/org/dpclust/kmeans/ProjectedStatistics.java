package org.dpclust.kmeans;

import java.util.Map;
import java.util.TreeMap;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.NestedPointSet;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.geometry.RandomProjection;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.ReleaseBudget;

/**
 * The {@code stats} summary for high dimension and many clusters: partition privately in a public
 * low-dimensional random projection, then release noisy counts and sums per group in the full
 * dimension. In d ≈ 100 the public cells of {@link NestedCellStatistics} are far too coarse to
 * separate tens of clusters (a cell of C uniform points has a diameter of order C^(−1/d) of the
 * box); in m ≈ log₂ k + 2 dimensions a few thousand cells do, and the m-dimensional sums are cheap
 * (L1 sensitivity m/2 box widths against d/2).
 *
 * <h2>Mechanism</h2>
 *
 * Each record x (clamped into the declared box) has the image y = P(x) under the public {@link
 * RandomProjection} P (seeded from the public seed; y in P's image box [0, 1]^m). With ε₁ = {@code
 * share}·ε and ε₂ = ε − ε₁:
 *
 * <ol>
 *   <li>Projected cells: {@link NestedCellStatistics#noise} at ε₁ on the images, over a {@link
 *       NestedPointSet} of the image box (public): its noisy coarse counts (L1 sensitivity c), the
 *       frontier chosen from them, and the frontier's noisy counts (L1 c) and fixed-point sums of
 *       the images (L1 c·m·2^31 units, each clamped image coordinate contributing at most half the
 *       image box's width). y is a function of the one record x only, so one unit of at most c
 *       records changes these statistics exactly as c records of the image box would: the
 *       derivation of {@link NestedCellStatistics} holds verbatim and step 1 is ε₁-DP.
 *   <li>Projected centres (post-processing of step 1): g public-seeded weighted k-means centres of
 *       the usable noisy frontier cells ({@link DpClusterStatistics#postProcess(
 *       DpClusterStatistics.NoisyCells, FixedPointCodec, double[][], PrivacyRandom)} with g
 *       centres, g = {@code groups}), missing ones public. They define g groups: record x is in the
 *       group of the centre nearest to P(x) — a partition of the declared box that is a function of
 *       released values and public inputs only.
 *   <li>Full-dimension group statistics: per group the count and the fixed-point sum of the clamped
 *       records in all d coordinates, released by {@link DpClusterStatistics#noise} at ε₂: count L1
 *       sensitivity c, sum L1 sensitivity c·d·2^31 units (its derivation holds for any public
 *       partition, and given step 1 the groups are public), ε₂-DP. Every group gets noise, empty or
 *       not.
 * </ol>
 *
 * By adaptive sequential composition the release is ε₁ + ε₂ = ε-DP, pure, add/remove of one unit.
 * The centroids are {@link DpClusterStatistics#postProcess} of the g noisy groups (free): weighted
 * Lloyd in d dimensions from the public initial centroids and greedy k-means++ seedings.
 *
 * <h2>Budget split and sizes</h2>
 *
 * The sum noise of step 3 grows with d, step 1's with m. By the same cube-root rule as {@link
 * DpClusterStatistics#defaultCountFraction} (two costs A/ε₁² + B/ε₂², here A ∝ m² and B ∝ d², are
 * least at ε₁/ε₂ = (A/B)^{1/3}), step 1 gets {@link #defaultShare}(m, d) = r/(1 + r), r =
 * (m/d)^{2/3}: 0.16 at m = 8, d = 100, 0.28 at m = 8, d = 32. Groups: g = {@value
 * #GROUPS_PER_CLUSTER}k, two per cluster, cost about twice the sum noise per cluster but merge
 * fewer clusters whose images share noisy cells. Measured on 64 tight clusters (σ = 0.02), n = 10⁵,
 * relative SSE at ε = 0.3, 1, 3 (medians of 2–3 secrets): d = 100 — share 0.25 with g = 2k: 91, 12,
 * 2.2; 3k: 92, 12, 2.3; 4k: 91, 13, 2.7; share 0.15, g = 2k: 80, 10.4, 1.9; share 0.1: 78, 10.9,
 * 2.5; d = 32 at ε = 0.3, 1 — share 0.15, g = 2k: 26, 3.4; share 0.3: 20, 3.5; g = k: 25 and 5.3
 * (share 0.3), 32 and 9.0 (share 0.15). The same release on the true clusters at the whole ε, a
 * floor for any per-group design: 55, 6.7, 1.6 (d = 100), 8.0, 1.6, 1.07 (d = 32). Step 3 has only
 * g cells, so its noise per cluster is close to that floor's; the clusters' separation is decided
 * in m dimensions, where it is cheap.
 *
 * <p>The exact state is the fine statistics of step 1 (bounded by {@link CellRule#maxCells}(m)
 * cells of 1 + m longs) and g·(1 + d) longs for step 3, independent of the number of records; the
 * method reads the records twice (step 3's groups exist only once step 1 is released).
 */
public final class ProjectedStatistics {
    /**
     * The default share of ε for step 1 with images in m of d dimensions: r/(1 + r), r =
     * (m/d)^{2/3} (class comment).
     */
    public static double defaultShare(int m, int d) {
        double r = Math.cbrt((double) m * m / ((double) d * d));
        return r / (1 + r);
    }

    /** Default groups per cluster, g/k. */
    public static final int GROUPS_PER_CLUSTER = 2;

    /** The largest default projection dimension. */
    public static final int MAX_DIMENSION = 10;

    private ProjectedStatistics() {}

    /**
     * The default projection dimension: min(d, clamp(⌈log₂ k⌉ + 2, 2, {@value #MAX_DIMENSION})).
     */
    public static int defaultDimension(int k, int d) {
        int log = 32 - Integer.numberOfLeadingZeros(Math.max(1, k - 1));
        return Math.min(d, Math.max(2, Math.min(MAX_DIMENSION, log + 2)));
    }

    /** The public inputs of one release. */
    public record Plan(
            RandomProjection projection, NestedPointSet cells, int groups, long publicSeed) {
        public Plan {
            if (groups < 1) {
                throw new IllegalArgumentException("groups must be >= 1, was " + groups);
            }
        }

        /**
         * The default plan for k clusters in {@code bounds}: projection to {@link
         * #defaultDimension}, {@code coarse} coarse cells with {@link CellRule#maxCells}(m) fine
         * cells (at least {@code coarse}), g = {@value #GROUPS_PER_CLUSTER}k groups.
         */
        public static Plan of(DomainBounds bounds, int k, int coarse, long publicSeed) {
            int m = defaultDimension(k, bounds.dimension());
            RandomProjection p = new RandomProjection(bounds, m, publicSeed);
            NestedPointSet cells =
                    NestedPointSet.uniform(
                            p.image(), coarse, Math.max(coarse, CellRule.maxCells(m)), publicSeed);
            return new Plan(p, cells, GROUPS_PER_CLUSTER * k, publicSeed);
        }
    }

    /** The mechanism's output: step 1's release, step 2's centres and step 3's noisy groups. */
    public record Noisy(
            NestedCellStatistics.Noisy projected,
            double[][] centres,
            DpClusterStatistics.NoisyCells groups) {}

    /** The images of {@code points} (clamped into the declared box first; not modified). */
    static double[][] project(double[][] points, RandomProjection p) {
        double[][] y = new double[points.length][];
        for (int i = 0; i < points.length; i++) {
            y[i] = p.apply(points[i]);
        }
        return y;
    }

    /** Step 3's exact statistics: the records grouped by the centre nearest to their image. */
    static ClusterStatistics groupStatistics(
            double[][] points, FixedPointCodec codec, RandomProjection p, double[][] centres) {
        PublicPointSet c = new PublicPointSet(centres);
        double[] y = new double[p.dimension()];
        return SnapshotStatistics.accumulate(
                points,
                codec,
                centres.length,
                x -> {
                    p.apply(x, y);
                    return c.nearest(y);
                });
    }

    /**
     * The mechanism of the class comment.
     *
     * @param points the records (private; clamped into {@code codec}'s box here; not modified)
     * @param codec fixed-point codec of the declared box
     * @param plan the public projection, cells and number of groups
     * @param epsilon ε of the release, finite and &gt; 0
     * @param share ε₁/ε, in (0, 1)
     * @param contributionBound c
     */
    public static Noisy noise(
            double[][] points,
            FixedPointCodec codec,
            Plan plan,
            double epsilon,
            double share,
            int contributionBound,
            PrivacyRandom rng) {
        ReleaseBudget.requireEpsilon(epsilon);
        if (!(share > 0 && share < 1)) {
            throw new IllegalArgumentException("projection share must be in (0, 1), was " + share);
        }
        RandomProjection p = plan.projection();
        DomainBounds image = p.image();
        FixedPointCodec imageCodec = new FixedPointCodec(image);
        double eps1 = epsilon * share;
        double eps2 = BudgetSplit.remainder(epsilon, eps1);
        NestedPointSet cells = plan.cells();
        ClusterStatistics fine =
                SnapshotStatistics.accumulate(
                        project(points, p), imageCodec, cells.fineSize(), cells::fine);
        NestedCellStatistics.Noisy projected =
                NestedCellStatistics.noise(
                        fine,
                        cells,
                        imageCodec,
                        eps1,
                        NestedCellStatistics.DEFAULT_SPLIT_SHARE,
                        contributionBound,
                        rng);
        // ---- step 2: released values and public inputs only ----
        double[][] centres =
                DpClusterStatistics.postProcess(
                                projected.cells(),
                                imageCodec,
                                SnapshotStatistics.publicInitialCentroids(
                                        image, plan.groups(), plan.publicSeed()),
                                rng,
                                false)
                        .centroids();
        // ---- step 3: the records again, grouped by the released centres ----
        DpClusterStatistics.NoisyCells groups =
                DpClusterStatistics.noise(
                        groupStatistics(points, codec, p, centres),
                        codec,
                        eps2,
                        Double.NaN,
                        contributionBound,
                        rng);
        return new Noisy(projected, centres, groups);
    }

    /**
     * One release: {@link #noise}, then k centroids from the noisy groups by {@link
     * DpClusterStatistics#postProcess} (free), missing ones from {@code initial} (public).
     */
    public static DpClusterStatistics.Release release(
            double[][] points,
            FixedPointCodec codec,
            Plan plan,
            double[][] initial,
            double epsilon,
            double share,
            int contributionBound,
            PrivacyRandom rng) {
        Noisy noisy = noise(points, codec, plan, epsilon, share, contributionBound, rng);
        DpClusterStatistics.Release r =
                DpClusterStatistics.postProcess(noisy.groups(), codec, initial, rng);
        Map<String, Double> params = new TreeMap<>(r.parameters());
        params.put("epsilon_projected", epsilon * share);
        params.put("projection_dimension", (double) plan.projection().dimension());
        params.put("projected_coarse_cells", (double) plan.cells().coarseSize());
        params.put("projected_fine_cells", (double) plan.cells().fineSize());
        params.put("projected_frontier_cells", (double) noisy.projected().frontierFrom().length);
        params.put("groups", (double) plan.groups());
        return new DpClusterStatistics.Release(r.centroids(), r.weights(), params);
    }
}
