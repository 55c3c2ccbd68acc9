package org.dpclust.batch;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.kmeans.CellRule;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code auto}: chooses a {@link org.dpclust.privacy.Guarantee#DP} algorithm and its public
 * parameters from public information only — d, k, ε and a noisy record count — by the rule {@link
 * #choose}, learned from {@code evaluate utility} (docs/results/utility), and runs it.
 *
 * <p>Privacy ({@link org.dpclust.privacy.Guarantee#DP}, ε-DP under add/remove of one unit of at
 * most c records): a share {@value #SIZE_SHARE} of ε releases the record count with two-sided
 * geometric noise (L1 sensitivity c); the choice is a function of that noisy count and public
 * parameters only (post-processing); the chosen algorithm runs at the remaining ε·(1 − {@value
 * #SIZE_SHARE}), which is ε-DP by its own contract. Sequential composition gives ε. The decision
 * never reads the snapshot except through the noisy count: {@link #choose} takes no data.
 *
 * <p>Candidates: {@code public-centre} (the data-free answer, 0-DP: chosen when the data are too
 * thin for the budget, so {@code auto} does not do worse than a release that ignores the data),
 * {@code stats} with a cell count set by the rule, {@code stats-refine}, {@code stats-nested} for
 * many clusters, and {@code stats-proj} and {@code stats-proj-refine} for high dimension.
 */
public final class AutoAlgorithm implements BatchAlgorithm {
    /** Share of ε spent on the noisy record count. */
    public static final double SIZE_SHARE = 0.05;

    /** Below this signal x = n̂·ε/d the data-free answer is released. */
    public static final double X_DATA_FREE = 10;

    /**
     * Below this per-cluster signal y = (n̂/k)·ε/d, with d ≥ {@value #D_PROJ} (where it was
     * measured), the data-free answer is released too: √6. A cluster's noisy mean from sums of L1
     * sensitivity d/2 box widths over about n̂/k records has noise of squared norm about
     * d·2(d/2)²/(ε·n̂/k)² = d/(2y²) box widths², which exceeds d/12, the spread of a uniform point
     * about the box's centre, when y &lt; √6: the release is then mostly noise, and from d = 32 on
     * the shrinkage of {@link org.dpclust.kmeans.CentroidShrinkage} pulls its centroids to the
     * data's mean anyway. Measured on the high-dimensional family
     * (docs/results/utility/high-dim-family.md; n = 10⁴, 5 secrets): in its 10 entries with y =
     * 0.45–1.78 (d = 100 at ε = 0.3; d = 100, k = 64 at ε = 1; d = 32, k = 64 at ε = 0.3) the best
     * of {@code stats-proj}, {@code stats-proj-refine} and {@code stats-nested} had a median
     * 0.90–1.09 times the box centre's (below it by 6–10 % only at d = 32, k = 64), and {@code
     * auto} without this rule 0.99–1.29 times. No cell of docs/results/utility's 24 has x ≥ {@value
     * #X_DATA_FREE} and y below this.
     */
    public static final double Y_DATA_FREE = 2.449489742783178;

    /** stats-refine from this per-cluster signal y = (n̂/k)·ε/d on ... */
    public static final double Y_REFINE = 30;

    /** ... with at least this many records per cluster (n̂/k) and d ≥ {@value #D_REFINE}. */
    public static final double M_REFINE = 100;

    public static final int D_REFINE = 3;

    /**
     * From this many clusters on, {@code stats-nested} with the default coarse cells (measured on
     * tight 64-cluster mixtures, n = 10⁵, d = 10 and 32, ε = 0.3, 1, 3, two seeds each: it beat the
     * rule's other choices in 11 of 12 runs, e.g. relative SSE 2.2–2.6 against 3.8–11 at d = 10, ε
     * = 3; at k = 32 it lost at ε = 0.3, so the threshold sits between). Never reached by the
     * evaluation cells of docs/results/utility (k ≤ 15).
     */
    public static final int K_NESTED = 48;

    /**
     * {@code stats-proj} from this dimension on, with at least {@value #K_PROJ} clusters (measured
     * on tight mixtures, σ = 0.02 per coordinate, n = 10⁵, ε = 0.3, 1, 3, three secrets each;
     * relative SSE medians, docs/algorithms.md#projected-cells): it beat the previous rule's choice
     * in all 12 cells with d ≥ 32 and k ≥ 16 (d = 100, k = 64: 74.7, 11.9, 1.93 against {@code
     * stats-nested}'s 83.9, 22.4, 8.21; d = 32, k = 16: 1.78, 1.08, 1.007 against {@code
     * stats-refine}'s 6.1, 5.6, 5.5). At d = 16, k = 64 it lost to {@code stats-nested} at ε = 0.3
     * (10.1 against 8.0), so the threshold sits above.
     */
    public static final int D_PROJ = 32;

    /**
     * ... and from this many clusters: with k ≤ 8 {@code stats-refine}'s medians were lower (d =
     * 32, k = 8: 1.014, 1.001, 1.000 against 1.18, 1.018, 1.002; d = 100, k = 4), though at d =
     * 100, k = 8 only at ε = 0.3 (1.12 against 2.56; 10.7 and 10.6 against 1.13 and 1.015 at ε = 1,
     * 3).
     */
    public static final int K_PROJ = 16;

    /**
     * {@code stats-proj-refine} from d ≥ {@value #D_PROJ} and this per-cluster signal y =
     * (n̂/k)·ε/d on (ε the part left after the noisy count), whatever k. Measured on tight (σ =
     * 0.02) and loose (σ = 0.1) mixtures, n = 10⁵, ε = 0.3, 1, 3, three secrets, medians: of the 34
     * cells with d ≥ 32 and y ≥ {@value #Y_PROJ_REFINE} it was the best of {@code stats-proj},
     * itself and the previous rule's choice, or within 10 % of it, in 31 (d = 100, k = 64, tight:
     * 6.9 and 1.07 against {@code stats-proj}'s 11.9 and 1.93 at ε = 1, 3, where y = 14.8 and 44.5;
     * d = 100, k = 8, tight: 1.12, 1.003, 1.000 against {@code stats-refine}'s 1.12, 10.7, 10.6).
     * Misses: tight d = 100, k = 24 at ε = 1 (4.5 against 2.2, bimodal: 1.09 for one secret), tight
     * d = 32, k = 64 at ε = 3 (2.1 against 1.4), loose d = 32, k = 16 at ε = 0.3 ({@code
     * stats-refine} 1.22 against 1.65). Below it {@code stats-proj} was the best in the 4 cells
     * where both ran (y = 8.9–13.9; tight d = 32, k = 64, ε = 0.3: 18.1 against 26.6), so the
     * threshold sits between 13.9 and 14.8.
     */
    public static final double Y_PROJ_REFINE = 14.5;

    /** The candidates, in the order of the {@code auto_choice} parameter. */
    public static final List<String> CANDIDATES =
            List.of(
                    "public-centre",
                    "stats",
                    "stats-refine",
                    "stats-nested",
                    "stats-proj",
                    "stats-proj-refine");

    /** A decision: the algorithm and the public parameters it runs with. */
    public record Choice(String algorithm, BatchParams params) {}

    @Override
    public String name() {
        return "auto";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public String mechanism() {
        return "auto-v4";
    }

    @Override
    public void checkParams(BatchParams params) {
        BaselineAlgorithm.requireBoundsAndEpsilon(this, params);
        for (String c : CANDIDATES) {
            BatchAlgorithms.get(c)
                    .checkParams(StatsRefineAlgorithm.withEpsilon(params, params.epsilon() / 2));
        }
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        BaselineAlgorithm.requirePrivateInputs(this, params, rng);
        double epsSize = params.epsilon() * SIZE_SHARE;
        long noisyCount =
                GeometricMechanism.addNoise(
                        snapshot.length, params.contributionBound(), epsSize, rng);
        // ---- the decision: the noisy count and public parameters only ----
        Choice c = choose(params, BudgetSplit.remainder(params.epsilon(), epsSize), noisyCount);
        BatchResult r = BatchAlgorithms.get(c.algorithm()).run(snapshot, c.params(), rng);
        Map<String, Double> p = new HashMap<>(r.parameters());
        p.put("auto_choice", (double) CANDIDATES.indexOf(c.algorithm()));
        p.put("auto_noisy_count", (double) noisyCount);
        p.put("auto_epsilon_count", epsSize);
        if (p.containsKey("epsilon_spent")) {
            // the noisy count is spent too (public-centre alone spends nothing)
            p.put("epsilon_spent", epsSize + p.get("epsilon_spent"));
        }
        p.put("cells", (double) c.params().cells());
        return new BatchResult(r.centroids(), r.weights(), p);
    }

    /**
     * The rule (public inputs only): with x = n̂·ε/d and y = (n̂/k)·ε/d,
     *
     * <ol>
     *   <li>x &lt; {@value #X_DATA_FREE}, or d ≥ {@value #D_PROJ} and y &lt; {@link #Y_DATA_FREE}
     *       (√6): {@code public-centre};
     *   <li>d ≥ {@value #D_PROJ} and y ≥ {@value #Y_PROJ_REFINE}: {@code stats-proj-refine} with
     *       the default coarse cells;
     *   <li>d ≥ {@value #D_PROJ} and k ≥ {@value #K_PROJ}: {@code stats-proj} with the default
     *       coarse cells;
     *   <li>k ≥ {@value #K_NESTED}: {@code stats-nested} with the default coarse cells;
     *   <li>y ≥ {@value #Y_REFINE}, n̂/k ≥ {@value #M_REFINE} and d ≥ {@value #D_REFINE}: {@code
     *       stats-refine} with the default cells (in d = 2 the default cells are already fine, and
     *       halving stats' budget for the refinement lost on s1);
     *   <li>otherwise {@code stats}, with the cells of {@link CellRule#cells}: k·clamp(round(x/25),
     *       1, 16) when d ≤ 8 or x &lt; 15 (few occupied cells carry more signal each), else
     *       clamp(round(x/3), max(64, 16k), {@link CellRule#maxCells}(d)) (finer cells where the
     *       signal supports them).
     * </ol>
     *
     * @param params the run's public parameters (k, bounds, seed ...)
     * @param epsilon the ε left for the chosen algorithm
     * @param noisyCount the released noisy record count n̂
     */
    public static Choice choose(BatchParams params, double epsilon, long noisyCount) {
        int k = params.k();
        int d = params.bounds().dimension();
        double n = Math.max(0, noisyCount) / (double) params.contributionBound();
        double x = n * epsilon / d;
        double perCluster = n / k;
        BatchParams at = StatsRefineAlgorithm.withEpsilon(params, epsilon);
        if (x < X_DATA_FREE || (d >= D_PROJ && perCluster * epsilon / d < Y_DATA_FREE)) {
            return new Choice("public-centre", at);
        }
        if (d >= D_PROJ && perCluster * epsilon / d >= Y_PROJ_REFINE) {
            return new Choice("stats-proj-refine", at.withCells(BatchParams.defaultCells(k)));
        }
        if (d >= D_PROJ && k >= K_PROJ) {
            return new Choice("stats-proj", at.withCells(BatchParams.defaultCells(k)));
        }
        if (k >= K_NESTED) {
            return new Choice("stats-nested", at.withCells(BatchParams.defaultCells(k)));
        }
        if (perCluster * epsilon / d >= Y_REFINE && perCluster >= M_REFINE && d >= D_REFINE) {
            return new Choice("stats-refine", at.withCells(BatchParams.defaultCells(k)));
        }
        return new Choice("stats", at.withCells(CellRule.cells(k, d, epsilon, n)));
    }
}
