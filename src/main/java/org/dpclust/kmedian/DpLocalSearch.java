package org.dpclust.kmedian;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.ExponentialMechanism;
import org.dpclust.privacy.PrivacyRandom;

/**
 * Differentially private local search of Gupta, Ligett, McSherry, Roth and Talwar (SODA 2010),
 * docs/algorithms.md#dp-local-search, on the privacy core's exact {@link ExponentialMechanism}.
 *
 * <p>Private: the demand set D (through {@link DemandCosts}). Neighbouring relation: add/remove one
 * demand point. Public: the universe U, k, ε, T, the initial centres (they must be public or
 * released under their own budget, e.g. random, k-median++ on U, or {@link DpHstInitializer}).
 *
 * <p>Mechanism. F_1 = the initial centres. For i = 1..T: choose a swap (x ∈ F_i, y ∈ U \ F_i) by
 * the exponential mechanism with utility -cost(F_i - x + y, D), sensitivity Δ^power ({@link
 * DemandCosts#sensitivity()}) and privacy parameter ε/(T+1); F_{i+1} = F_i - x + y. Then choose one
 * of F_1..F_{T+1} by the exponential mechanism with utility -cost(F_j, D), same sensitivity and
 * ε/(T+1), and output it. The exponential mechanism selects with probability ∝ exp(ε_draw u /
 * (2Δ)), i.e. exp(-ε' cost) with Gupta et al.'s ε' = ε/(2Δ(T+1)). The candidate set of each draw
 * (all k(|U| - k) pairs, ordered by y ascending then by the position of x in F_i) depends only on
 * F_i, the previous public output.
 *
 * <p>Guarantee: ε-DP (pure). Adding or removing one demand point changes every cost by at most
 * Δ^power (the point's distance to its nearest centre, power applied), so each draw is ε/(T+1)-DP,
 * and by adaptive sequential composition over T + 1 draws the output (and the whole sequence of
 * iterates) is ε-DP. Remark: under add/remove all costs move in the same direction, so each draw is
 * in fact ε/(2(T+1))-DP (the normaliser and the numerator cannot both move against the output); the
 * statistical tests check this tighter bound, and the factor 2 slack covers replace-one neighbours,
 * for which each draw is ε/(T+1)-DP. k-means: squared costs, sensitivity Δ². Time per swap step:
 * O(|U| (|D| + k)) to evaluate all swaps ({@link SwapState}) plus the exponential mechanism over
 * k(|U| - k) candidates. Costs are exact sums in the mechanism's grid units ({@link
 * DemandCosts#costUnits}; the derivation that one demand point moves them by less than the
 * mechanism's integer sensitivity is in {@link DemandCosts}), so floating-point accumulation never
 * enters a selection.
 */
public final class DpLocalSearch {
    private DpLocalSearch() {}

    /**
     * @param centres the selected iterate F_j (the ε-DP output)
     * @param chosenIterate its index j in 0..T
     * @param iterates F_1..F_{T+1} (all ε-DP together)
     */
    public record Result(int[] centres, int chosenIterate, List<int[]> iterates) {}

    /**
     * @param epsilon total privacy parameter of this local search
     * @param steps T >= 0 swap steps (the paper's experiments: 20; Gupta et al.: 6 k ln n)
     */
    public static Result run(
            DemandCosts costs, int[] initial, double epsilon, int steps, PrivacyRandom rng) {
        if (steps < 0) {
            throw new IllegalArgumentException("steps must be >= 0, got " + steps);
        }
        double perDraw = BudgetSplit.equalShare(epsilon, steps + 1);
        SwapState s = new SwapState(costs, initial, costs.gridExponent());
        List<int[]> iterates = new ArrayList<>();
        iterates.add(s.centres());
        for (int i = 0; i < steps; i++) {
            int[] swap = decode(s, selectSwap(s, perDraw, rng));
            s.swap(swap[0], swap[1]);
            iterates.add(s.centres());
        }
        int j = selectFinal(costs, iterates, perDraw, rng);
        return new Result(iterates.get(j).clone(), j, List.copyOf(iterates));
    }

    /**
     * Costs cost(F - x + y) of every swap candidate in the state's grid units, in the candidate
     * order of the class doc.
     */
    static long[] swapCosts(SwapState s) {
        int k = s.k();
        int n = s.universeSize();
        long[] out = new long[k * (n - k)];
        long[] deltas = new long[k];
        int idx = 0;
        for (int y = 0; y < n; y++) {
            if (s.isCentre(y)) {
                continue;
            }
            s.swapDeltas(y, deltas);
            for (int i = 0; i < k; i++) {
                out[idx++] = s.cost() + deltas[i];
            }
        }
        return out;
    }

    /** One ε_draw-DP swap selection: returns the candidate index (see {@link #decode}). */
    static int selectSwap(SwapState s, double epsilonPerDraw, PrivacyRandom rng) {
        if (s.k() >= s.universeSize()) {
            throw new IllegalArgumentException("no swap possible: k = |U|");
        }
        if (s.unitExponent() != s.costs().gridExponent()) {
            throw new IllegalArgumentException("the swap state must use the mechanism's grid");
        }
        return ExponentialMechanism.selectMinimizingUnits(
                swapCosts(s), s.costs().sensitivity(), epsilonPerDraw, rng);
    }

    /** Candidate index to {position of x in F, y}. */
    static int[] decode(SwapState s, int index) {
        int k = s.k();
        int rank = index / k;
        for (int y = 0; y < s.universeSize(); y++) {
            if (!s.isCentre(y) && rank-- == 0) {
                return new int[] {index % k, y};
            }
        }
        throw new IllegalArgumentException("candidate index out of range: " + index);
    }

    /** The ε_draw-DP final selection among the iterates: returns the chosen index. */
    static int selectFinal(
            DemandCosts costs, List<int[]> iterates, double epsilonPerDraw, PrivacyRandom rng) {
        long[] c = new long[iterates.size()];
        for (int j = 0; j < c.length; j++) {
            c[j] = costs.costUnits(iterates.get(j), costs.gridExponent());
        }
        return ExponentialMechanism.selectMinimizingUnits(
                c, costs.sensitivity(), epsilonPerDraw, rng);
    }
}
