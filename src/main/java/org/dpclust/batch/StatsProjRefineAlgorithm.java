package org.dpclust.batch;

import java.util.HashMap;
import java.util.Map;
import org.dpclust.kmeans.ClippedRefinement;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code stats-proj-refine}: {@code stats-proj} ({@link StatsProjAlgorithm}) at a share {@value
 * #PROJ_SHARE} of ε, then {@value #STEPS} clipped, centred noisy Lloyd step ({@link
 * ClippedRefinement}) from its centroids at the rest — what {@code stats-refine} is to {@code
 * stats}. The groups of {@code stats-proj} are decided in the projection, so clusters whose images
 * overlap are averaged together whatever ε (a bias floor: loose clusters, σ = 0.1, d = 32, k = 16:
 * relative SSE 1.38 at ε = 3); and their sums carry noise at the box's sensitivity d/2. The step
 * reassigns every record to its nearest centroid in all d dimensions and clips its offset to a
 * privately chosen L1 radius, so both shrink (the same data: 1.000).
 *
 * <p>Guarantee {@link org.dpclust.privacy.Guarantee#DP}: ε-DP under add/remove of one record
 * (contribution bound 1, as {@link ClippedRefinement} assumes; other bounds are refused in {@link
 * #checkParams}), by sequential composition of {@code stats-proj} (ε·{@value #PROJ_SHARE}, see
 * {@link StatsProjAlgorithm}) and the step (the rest, see {@link ClippedRefinement}), whose
 * partition is by the centroids released before it. Declared bounds are required.
 */
public final class StatsProjRefineAlgorithm implements BatchAlgorithm {
    /** Share of ε spent on the stats-proj release. */
    public static final double PROJ_SHARE = 0.5;

    /** Refinement steps after it. */
    public static final int STEPS = 1;

    @Override
    public String name() {
        return "stats-proj-refine";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public String mechanism() {
        return "projected-cells-geometric-clipped-refine-v1(steps=" + STEPS + ")";
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
        double epsProj = eps * PROJ_SHARE;
        BatchResult start =
                new StatsProjAlgorithm()
                        .run(snapshot, StatsRefineAlgorithm.withEpsilon(params, epsProj), rng);
        Map<String, Double> p = new HashMap<>(start.parameters());
        p.put("epsilon_proj", epsProj);
        return RefinementSteps.run(
                snapshot, params, start, BudgetSplit.remainder(eps, epsProj), STEPS, p, rng);
    }
}
