package org.dpclust.batch;

import java.util.Map;
import org.dpclust.kmeans.ClippedRefinement;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.PrivacyRandom;

/**
 * The refinement half of {@code stats-refine} and {@code stats-proj-refine}: {@code steps} clipped,
 * centred noisy Lloyd steps ({@link ClippedRefinement}) from a released start, each at an equal
 * share of the ε left after the start. Each step is ε-DP at its share for record units in a box
 * declared as [0, 1] per coordinate (checked by {@link #checkParams}); every step's partition is by
 * centroids released before it, so the steps compose sequentially with the start.
 */
final class RefinementSteps {
    private RefinementSteps() {}

    /**
     * Refuses what the steps' sensitivities do not cover: missing bounds or ε, and contribution
     * bounds other than one record per unit.
     */
    static void checkParams(BatchAlgorithm a, BatchParams params) {
        BaselineAlgorithm.requireBoundsAndEpsilon(a, params);
        if (params.contributionBound() != 1) {
            throw new IllegalArgumentException(
                    "--contribution-bound: "
                            + a.name()
                            + " supports record units (1) only, was "
                            + params.contributionBound());
        }
    }

    /**
     * Runs the steps from {@code start}'s centroids at {@code epsRest} in all, adding {@code
     * radius_i}, {@code epsilon_per_step} and {@code steps} to {@code parameters}.
     */
    static BatchResult run(
            double[][] snapshot,
            BatchParams params,
            BatchResult start,
            double epsRest,
            int steps,
            Map<String, Double> parameters,
            PrivacyRandom rng) {
        double[][] centroids = start.centroids();
        double[] weights = start.weights();
        double epsStep = BudgetSplit.equalShare(epsRest, steps);
        for (int t = 0; t < steps; t++) {
            ClippedRefinement.Step s =
                    ClippedRefinement.step(snapshot, centroids, params.bounds(), epsStep, rng);
            centroids = s.means();
            weights = new double[s.counts().length];
            for (int i = 0; i < weights.length; i++) {
                weights[i] = s.counts()[i];
            }
            parameters.put("radius_" + (t + 1), s.radius());
        }
        parameters.put("epsilon_per_step", epsStep);
        parameters.put("steps", (double) steps);
        return new BatchResult(centroids, weights, parameters);
    }
}
