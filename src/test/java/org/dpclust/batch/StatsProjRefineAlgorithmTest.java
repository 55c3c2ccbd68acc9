package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;

/**
 * {@code stats-proj-refine}: on loose clusters, whose images overlap in the projection, the
 * refinement step removes the bias floor of {@code stats-proj}; record units only; a replay with
 * the same randomness is identical.
 */
class StatsProjRefineAlgorithmTest {
    private static final int D = 32;
    private static final int K = 12;
    private static final int N = 40_000;
    private static final double[][] MEANS = new double[K][D];
    private static final double[][] POINTS = new double[N][D];
    private static final DomainBounds BOX;

    static {
        double[] hi = new double[D];
        Arrays.fill(hi, 1);
        BOX = new DomainBounds(new double[D], hi);
        SplittableRandom rng = new SplittableRandom(23); // test data (public)
        for (double[] mu : MEANS) {
            for (int j = 0; j < D; j++) {
                mu[j] = 0.15 + 0.7 * rng.nextDouble();
            }
        }
        for (double[] x : POINTS) {
            double[] mu = MEANS[rng.nextInt(K)];
            for (int j = 0; j < D; j++) {
                x[j] = Math.min(1, Math.max(0, mu[j] + 0.1 * rng.nextGaussian()));
            }
        }
    }

    private static BatchParams params(double epsilon, int contributionBound) {
        return new BatchParams(
                K, epsilon, BOX, 3, 3, BatchParams.defaultCells(K), Double.NaN, contributionBound);
    }

    private static double relativeSse(double[][] centroids) {
        return ClusteringMetrics.sse(POINTS, centroids) / ClusteringMetrics.sse(POINTS, MEANS);
    }

    @Test
    void theStepRemovesTheProjectionsBiasOnLooseClusters() {
        double proj =
                relativeSse(
                        new StatsProjAlgorithm()
                                .run(POINTS, params(4, 1), TestRandoms.stream("loose-proj"))
                                .centroids());
        double refined =
                relativeSse(
                        new StatsProjRefineAlgorithm()
                                .run(POINTS, params(4, 1), TestRandoms.stream("loose-refine"))
                                .centroids());
        assertTrue(refined < 1.05, "stats-proj-refine " + refined);
        assertTrue(refined < proj, "stats-proj " + proj + ", stats-proj-refine " + refined);
    }

    @Test
    void recordUnitsOnlyAndAReplayIsIdentical() {
        StatsProjRefineAlgorithm a = new StatsProjRefineAlgorithm();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> a.checkParams(params(1, 2)));
        assertTrue(e.getMessage().startsWith("--contribution-bound"), e.getMessage());
        BatchResult x = a.run(POINTS, params(1, 1), TestRandoms.stream("replay"));
        BatchResult y = a.run(POINTS, params(1, 1), TestRandoms.stream("replay"));
        for (int i = 0; i < K; i++) {
            assertArrayEquals(x.centroids()[i], y.centroids()[i], 0);
        }
        assertEquals(0.5, x.parameters().get("epsilon_proj"), 0);
        assertEquals(2.0 * K, x.parameters().get("groups"), 0);
    }
}
