package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class BaggedCentroidsTest {
    /** Cluster 0: {0, 1, 2, 3, 10} x {5, 5, 5, 5, 7}; cluster 1: {20, 24} x {0, 2}. */
    private static final double[][] POINTS = {
        {0, 5}, {20, 0}, {1, 5}, {2, 5}, {24, 2}, {3, 5}, {10, 7}
    };

    private static final int[] ASSIGNMENT = {0, 1, 0, 0, 1, 0, 0};
    private static final double[][] FALLBACK = {{-1, -1}, {-1, -1}};

    @Test
    void baggedCentroidIsUnbiasedWithTheJointMultinomialVariance() {
        int bags = 4;
        int reps = 20_000;
        PartitionMoments m = PartitionMoments.of(POINTS, ASSIGNMENT, 2);
        PrivacyRandom rng = TestRandoms.stream("bagged-centroids");
        double[][] sum = new double[2][2];
        double[][] sumSq = new double[2][2];
        for (int t = 0; t < reps; t++) {
            double[][] c = BaggedCentroids.compute(POINTS, ASSIGNMENT, FALLBACK, bags, rng);
            for (int k = 0; k < 2; k++) {
                for (int j = 0; j < 2; j++) {
                    sum[k][j] += c[k][j];
                    sumSq[k][j] += c[k][j] * c[k][j];
                }
            }
        }
        for (int k = 0; k < 2; k++) {
            for (int j = 0; j < 2; j++) {
                double mean = sum[k][j] / reps;
                double var = (sumSq[k][j] - reps * mean * mean) / (reps - 1);
                double expectedVar = m.withinVariance()[k][j] / (bags * m.sizes()[k]);
                // the mean of `reps` releases has standard error sqrt(Var/reps); allow 5 of them
                assertEquals(
                        m.means()[k][j],
                        mean,
                        5 * Math.sqrt(expectedVar / reps),
                        "mean " + k + "," + j);
                // m is the mean of B N_k i.i.d. uniform draws from the cluster, so the sample
                // variance has relative
                // standard error sqrt((2 + excess kurtosis) / reps) ~ 0.01 for reps = 20000 here;
                // 6% tolerance
                // (~5 standard errors) still fails if the variance were the per-bag σ²/N_k or half
                // the formula
                assertEquals(1.0, var / expectedVar, 0.06, "variance ratio " + k + "," + j);
            }
        }
        // sanity: the hand-computed moments of cluster 0, attribute 0: mean 16/5, variance (Σx² − N
        // m̄²)/N
        assertEquals(3.2, m.means()[0][0], 1e-12);
        assertEquals((0 + 1 + 4 + 9 + 100) / 5.0 - 3.2 * 3.2, m.withinVariance()[0][0], 1e-12);
    }

    @Test
    void sameRandomnessGivesTheSameReleaseAndAnEmptyClusterKeepsItsFallback() {
        double[][] fallback = {{-1, -1}, {-1, -1}, {9, 9}};
        double[][] a =
                BaggedCentroids.compute(
                        POINTS, ASSIGNMENT, fallback, 3, TestRandoms.stream("replay"));
        double[][] b =
                BaggedCentroids.compute(
                        POINTS, ASSIGNMENT, fallback, 3, TestRandoms.stream("replay"));
        for (int k = 0; k < 3; k++) {
            assertArrayEquals(a[k], b[k]);
        }
        assertArrayEquals(new double[] {9, 9}, a[2]);
        assertTrue(a[0][0] >= 0 && a[0][0] <= 10, "a bagged mean lies in the cluster's range");
    }
}
