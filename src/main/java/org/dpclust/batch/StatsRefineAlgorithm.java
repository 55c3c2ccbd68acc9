package org.dpclust.batch;

import java.util.HashMap;
import java.util.Map;
import org.dpclust.kmeans.ClippedRefinement;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code stats-refine}: the {@code stats} release ({@link StatsAlgorithm}) at a share {@value
 * #STATS_SHARE} of ε, followed by {@value #STEPS} clipped, centred noisy Lloyd steps ({@link
 * ClippedRefinement}) from its centroids, each at an equal part of the rest. The public cells of
 * {@code stats} give a start that does not depend on a random initialisation; the refinement steps
 * remove the bias of averaging over coarse cells (the stats floor at high ε) and, by clipping the
 * centred offsets to a privately chosen L1 radius, cut the sum noise that dominates in higher
 * dimension.
 *
 * <p>Guarantee {@link org.dpclust.privacy.Guarantee#DP}: ε-DP under add/remove of one record
 * (contribution bound 1; other bounds are refused in {@link #checkParams}), by sequential
 * composition of the {@code stats} release (ε·{@value #STATS_SHARE}, see {@link StatsAlgorithm})
 * and the refinement steps (each ε-DP at its share, see {@link ClippedRefinement}); every step's
 * partition is by centroids released before it. Declared bounds are required.
 */
public final class StatsRefineAlgorithm implements BatchAlgorithm {
    /** Share of ε spent on the stats release. */
    public static final double STATS_SHARE = 0.5;

    /** Refinement steps after it. */
    public static final int STEPS = 2;

    @Override
    public String name() {
        return "stats-refine";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public String mechanism() {
        return "cells-geometric-clipped-refine-v1(steps=" + STEPS + ")";
    }

    @Override
    public void checkParams(BatchParams params) {
        RefinementSteps.checkParams(this, params);
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        checkParams(params); // the refinement's sensitivities assume one record per unit
        BaselineAlgorithm.requirePrivateInputs(this, params, rng);
        double eps = params.epsilon();
        double epsStats = eps * STATS_SHARE;
        BatchResult start = new StatsAlgorithm().run(snapshot, withEpsilon(params, epsStats), rng);
        Map<String, Double> p = new HashMap<>();
        p.put("epsilon_stats", epsStats);
        p.put("cells", (double) params.cells());
        return RefinementSteps.run(
                snapshot, params, start, BudgetSplit.remainder(eps, epsStats), STEPS, p, rng);
    }

    /** {@code params} with ε replaced (the other public parameters unchanged). */
    static BatchParams withEpsilon(BatchParams params, double epsilon) {
        return new BatchParams(
                params.k(),
                epsilon,
                params.bounds(),
                params.seed(),
                params.nInit(),
                params.cells(),
                params.countFraction(),
                params.contributionBound(),
                params.universe());
    }
}
