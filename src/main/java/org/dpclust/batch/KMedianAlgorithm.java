package org.dpclust.batch;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.PublicPermutation;
import org.dpclust.kmedian.DemandCosts;
import org.dpclust.kmedian.DpHstLocalSearch;
import org.dpclust.kmedian.DpLocalSearch;
import org.dpclust.kmedian.Hst;
import org.dpclust.kmedian.KMedianPlusPlus;
import org.dpclust.kmedian.LocalSearch;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * Fan et al.'s k-median algorithms (docs/algorithms.md#k-median) over a PUBLIC universe U ({@link
 * BatchParams#universe()}, see {@link KMedianUniverse}); the snapshot is the PRIVATE demand set D,
 * each record snapped to its point of U. Output: k distinct points of U (their coordinates, or
 * {@code {node id}} for a graph universe).
 *
 * <ul>
 *   <li>{@code kmedian++} ({@link org.dpclust.privacy.Guarantee#NONE}): k-median++ (D sampling)
 *       over the demand points.
 *   <li>{@code local-search} ({@link org.dpclust.privacy.Guarantee#NONE}): Arya et al. single-swap
 *       local search with α = {@value #ALPHA}, at most {@value #STEPS} swaps, from the k-median++
 *       seeding above.
 *   <li>{@code dp-local-search} ({@link org.dpclust.privacy.Guarantee#DP}): Gupta et al.'s DP local
 *       search ({@link DpLocalSearch}) with ε from k public random points of U, T = {@value #STEPS}
 *       steps.
 *   <li>{@code dp-hst-local-search} ({@link org.dpclust.privacy.Guarantee#DP}): DP-HST
 *       initialisation with ε/2 on a 2-HST of U of depth at most {@value #DP_TREE_LEVELS} (public
 *       seed), then DP local search with ε/2 ({@link DpHstLocalSearch}).
 * </ul>
 *
 * Privacy of the {@code dp} ones: ε-DP (pure) under adding or removing one record of the snapshot
 * (one demand point; record units, contribution bound 1). Public: U, its metric, k, ε, T, the seed
 * (random initial centres, the tree's permutation and β). The sensitivity of every clustering cost
 * is Δ = diam(U), the exact diameter of the public universe ({@link KMedianUniverse#diameter()}).
 * Weights: the exact cluster sizes for the non-private ones; 0 for the {@code dp} ones (cluster
 * sizes are not released: they would need their own budget). The DP outputs' parameters hold only
 * public values (never a cost, which is a function of D).
 */
public final class KMedianAlgorithm implements BatchAlgorithm {
    /** Swap steps of every local search (the paper's experiments: 20). */
    public static final int STEPS = 20;

    /** α of the non-private local search (the paper's 10^-3). */
    public static final double ALPHA = 1e-3;

    /** Depth cap of the DP tree (the paper's L = 8). */
    public static final int DP_TREE_LEVELS = 8;

    private final String name;
    private final Guarantee guarantee;

    private KMedianAlgorithm(String name, Guarantee guarantee) {
        this.name = name;
        this.guarantee = guarantee;
    }

    public static KMedianAlgorithm kmedianPlusPlus() {
        return new KMedianAlgorithm("kmedian++", Guarantee.NONE);
    }

    public static KMedianAlgorithm localSearch() {
        return new KMedianAlgorithm("local-search", Guarantee.NONE);
    }

    public static KMedianAlgorithm dpLocalSearch() {
        return new KMedianAlgorithm("dp-local-search", Guarantee.DP);
    }

    public static KMedianAlgorithm dpHstLocalSearch() {
        return new KMedianAlgorithm("dp-hst-local-search", Guarantee.DP);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Guarantee guarantee() {
        return guarantee;
    }

    /**
     * A universe with at least k points and a positive diameter (computed here, before any charge),
     * and for the dp forms a finite ε &gt; 0.
     */
    @Override
    public void checkParams(BatchParams params) {
        KMedianUniverse u = params.universe();
        if (u == null) {
            throw new IllegalArgumentException(
                    "--universe: algorithm "
                            + name
                            + " needs the public universe"
                            + " (--universe CSV with --metric l1|l2, or --metric graph with --graph EDGES)");
        }
        int k = params.k();
        if (k > u.size()) {
            throw new IllegalArgumentException(
                    "--k: " + k + " exceeds the universe's " + u.size() + " points");
        }
        if (isPrivate() && (!(params.epsilon() > 0) || Double.isInfinite(params.epsilon()))) {
            throw new IllegalArgumentException(
                    "--epsilon: algorithm "
                            + name
                            + " needs a finite epsilon > 0, was "
                            + params.epsilon());
        }
        u.diameter(); // public; throws (naming --universe) for a universe of diameter 0
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        checkParams(params);
        KMedianUniverse u = params.universe();
        int k = params.k();
        if (isPrivate() && rng == null) {
            throw new IllegalArgumentException(
                    "algorithm " + name + " needs the release's privacy randomness");
        }
        if (snapshot.length == 0 && !isPrivate()) {
            throw new IllegalArgumentException("--input: the demand set is empty");
        }
        Metric metric = u.metric();
        int[] demand = u.snap(snapshot);
        double delta = u.diameter();
        DemandCosts costs = DemandCosts.of(metric, demand, 1, delta);
        SplittableRandom pub =
                new SplittableRandom(params.seed()); // public randomness (not privacy noise)
        Map<String, Double> out = new HashMap<>();
        out.put("universe_size", (double) u.size());
        out.put("delta", delta);
        int[] centres;
        switch (name) {
            case "kmedian++" -> centres = KMedianPlusPlus.select(metric, demand, k, 1, pub);
            case "local-search" -> {
                LocalSearch.Result r =
                        LocalSearch.run(
                                costs,
                                KMedianPlusPlus.select(metric, demand, k, 1, pub),
                                ALPHA,
                                STEPS);
                centres = r.centres();
                out.put("initial_cost", r.initialCost());
                out.put("iterations", (double) r.iterations());
            }
            case "dp-local-search" -> {
                int[] init = Arrays.copyOf(PublicPermutation.of(u.size(), pub), k);
                centres = DpLocalSearch.run(costs, init, params.epsilon(), STEPS, rng).centres();
                out.put("steps", (double) STEPS);
            }
            case "dp-hst-local-search" -> {
                Hst tree =
                        Hst.build(
                                metric,
                                delta,
                                new Hst.Options(params.seed(), DP_TREE_LEVELS, true));
                centres =
                        DpHstLocalSearch.run(tree, demand, costs, k, params.epsilon(), STEPS, rng)
                                .search()
                                .centres();
                out.put("steps", (double) STEPS);
                out.put("tree_levels", (double) tree.levels());
            }
            default -> throw new IllegalStateException("unknown k-median algorithm " + name);
        }
        double[] weights = new double[k];
        if (!isPrivate()) {
            out.put("cost", costs.cost(centres));
            for (int j = 0; j < demand.length; j++) {
                int best = 0;
                for (int i = 1; i < k; i++) {
                    if (costs.cost(j, centres[i]) < costs.cost(j, centres[best])) {
                        best = i;
                    }
                }
                weights[best]++;
            }
        }
        double[][] coords = new double[k][];
        for (int i = 0; i < k; i++) {
            coords[i] = u.coordinates(centres[i]);
        }
        return new BatchResult(coords, weights, out);
    }
}
