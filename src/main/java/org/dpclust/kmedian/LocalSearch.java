package org.dpclust.kmedian;

/**
 * Local search of Arya et al. 2004 (docs/algorithms.md#local-search): repeatedly take the best
 * single swap (x ∈ F, y ∈ U \ F) and apply it if cost(F - x + y) <= (1 - α/k) cost(F) (and strictly
 * below cost(F)); stop when no swap qualifies (a local optimum in that sense) or after {@code
 * maxIterations} swaps. Not private. One iteration scans all k(|U| - k) swaps in O(|U| (|D| + k))
 * time through {@link SwapState}, plus O(|D| k) to apply the chosen swap. Works for k-median and,
 * with squared costs in {@link DemandCosts}, for k-means. Swap decisions compare exact sums on
 * {@link DemandCosts}'s fine grid (2^-30 of the private grid); the reported costs are {@link
 * DemandCosts#cost(int[])}.
 */
public final class LocalSearch {
    private LocalSearch() {}

    /**
     * @param centres final centres
     * @param initialCost cost of the initial centres
     * @param cost cost of the final centres
     * @param iterations swaps applied
     * @param converged true if it stopped because no swap qualified
     */
    public record Result(
            int[] centres, double initialCost, double cost, int iterations, boolean converged) {}

    /** The best swap for the current state: {i, y} (or null if there is no non-centre point). */
    static int[] bestSwap(SwapState s, long[] bestDelta) {
        int n = s.universeSize();
        long[] deltas = new long[s.k()];
        int[] best = null;
        bestDelta[0] = Long.MAX_VALUE;
        for (int y = 0; y < n; y++) {
            if (s.isCentre(y)) {
                continue;
            }
            s.swapDeltas(y, deltas);
            for (int i = 0; i < deltas.length; i++) {
                if (deltas[i] < bestDelta[0]) {
                    bestDelta[0] = deltas[i];
                    best = new int[] {i, y};
                }
            }
        }
        return best;
    }

    /**
     * @param alpha the improvement parameter α > 0 (the paper's experiments: 10^-3)
     * @param maxIterations cap on applied swaps (the paper: 20)
     */
    public static Result run(DemandCosts costs, int[] initial, double alpha, int maxIterations) {
        if (!(alpha > 0) || alpha >= initial.length + 0.0 || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("alpha must be in (0, k), got " + alpha);
        }
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must be >= 0, got " + maxIterations);
        }
        SwapState s = new SwapState(costs, initial, costs.fineExponent());
        double initialCost = costs.cost(initial);
        double factor = 1 - alpha / s.k();
        long[] delta = new long[1];
        for (int it = 0; it < maxIterations; it++) {
            int[] swap = bestSwap(s, delta);
            if (swap == null || !qualifies(s.cost(), delta[0], factor)) {
                return new Result(s.centres(), initialCost, costs.cost(s.centres()), it, true);
            }
            s.swap(swap[0], swap[1]);
        }
        int[] swap = bestSwap(s, delta);
        boolean local = swap == null || !qualifies(s.cost(), delta[0], factor);
        return new Result(s.centres(), initialCost, costs.cost(s.centres()), maxIterations, local);
    }

    /** The swap improves strictly and by the factor: cost + delta <= factor * cost, delta < 0. */
    private static boolean qualifies(long cost, long delta, double factor) {
        return delta < 0 && (double) (cost + delta) <= factor * cost;
    }
}
