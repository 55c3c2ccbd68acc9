package org.dpclust.kmedian;

import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.PrivacyRandom;

/**
 * DP-HST local search (docs/algorithms.md#dp-local-search): {@link DpHstInitializer} with ε/2, then
 * {@link DpLocalSearch} from those centres with ε/2 (T swap steps and the final selection, each
 * draw ε/(2(T+1))).
 *
 * <p>Private: the demand set D; neighbouring relation add/remove one demand point; public: U, its
 * metric, the tree (from U and a public seed), k, ε, T. Guarantee: ε-DP (pure) by sequential
 * composition: the initialisation is ε/2 (1 - 2^{-L}) < ε/2, the local search ε/2, and the local
 * search uses the initial centres only as its (already released) starting point. The demand set
 * must be given consistently to both parts: {@code demand} for the tree counts and {@code costs}
 * built from the same demand points.
 */
public final class DpHstLocalSearch {
    private DpHstLocalSearch() {}

    /** The initial centres and the local search's result. */
    public record Result(int[] initialCentres, DpLocalSearch.Result search) {}

    public static Result run(
            Hst tree,
            int[] demand,
            DemandCosts costs,
            int k,
            double epsilon,
            int steps,
            PrivacyRandom rng) {
        return run(tree, demand, costs, k, epsilon, steps, rng, counts -> {});
    }

    /**
     * {@link #run}, handing the released noisy node counts (the initialisation's mechanism output;
     * the initial centres are post-processing of them) to {@code noisyCounts}: with the result's
     * iterates and chosen index this is the whole transcript the composition argument covers, for
     * the statistical tests.
     */
    static Result run(
            Hst tree,
            int[] demand,
            DemandCosts costs,
            int k,
            double epsilon,
            int steps,
            PrivacyRandom rng,
            java.util.function.Consumer<long[]> noisyCounts) {
        if (demand.length != costs.demandSize()) {
            throw new IllegalArgumentException(
                    "costs were built for "
                            + costs.demandSize()
                            + " demand points, got "
                            + demand.length);
        }
        long[] counts =
                DpHstInitializer.noisyCounts(tree, demand, BudgetSplit.equalShare(epsilon, 2), rng);
        noisyCounts.accept(counts);
        int[] init = SubtreeSearch.centres(tree, counts, k);
        return new Result(
                init,
                DpLocalSearch.run(costs, init, BudgetSplit.equalShare(epsilon, 2), steps, rng));
    }
}
