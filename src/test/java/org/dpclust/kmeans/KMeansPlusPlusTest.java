package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Checks the D² seeding distribution by hand-computed probabilities and the weight handling. */
class KMeansPlusPlusTest {

    @Test
    void secondCentreFollowsDSquaredDistribution() {
        // Points 0, 1, 3 with unit weights, k = 2. By hand:
        // first = 0 (1/3): D² to 1 and 3 are 1 and 9 → P(3) = 9/10;
        // first = 1 (1/3): D² to 0 and 3 are 1 and 4 → P(3) = 4/5;
        // first = 3 (1/3): 3 is already chosen.
        // P(3 among the centres) = (0.9 + 0.8 + 1) / 3 = 0.9 (uniform seeding would give 2/3).
        double[][] points = {{0}, {1}, {3}};
        SplittableRandom rng = new SplittableRandom(17); // public randomness (not privacy noise)
        int trials = 4000;
        int hits = 0;
        for (int t = 0; t < trials; t++) {
            double[][] c = KMeansPlusPlus.seed(points, null, 2, rng);
            if (c[0][0] == 3 || c[1][0] == 3) {
                hits++;
            }
        }
        assertEquals(0.9, hits / (double) trials, 0.025); // sd ≈ 0.0047
    }

    @Test
    void zeroWeightPointsAreNeverChosen() {
        // Points 0 (w 1), 1 (w 1), 3 (w 0), k = 2: the mass of 3 is always 0, so the centres are
        // always {0, 1}; unweighted seeding would pick 3 most of the time.
        double[][] points = {{0}, {1}, {3}};
        double[] weights = {1, 1, 0};
        SplittableRandom rng = new SplittableRandom(5); // public randomness (not privacy noise)
        for (int t = 0; t < 300; t++) {
            double[][] c = KMeansPlusPlus.seed(points, weights, 2, rng);
            assertEquals(1.0, c[0][0] + c[1][0], 0.0);
        }
    }

    @Test
    void picksDistinctPointsWhileMassRemainsAndRepeatsAfterwards() {
        double[][] points = {{0, 0}, {5, 5}, {9, 1}, {9, 1}};
        SplittableRandom rng = new SplittableRandom(1); // public randomness (not privacy noise)
        double[][] three = KMeansPlusPlus.seed(points, null, 3, rng);
        Set<String> distinct = new HashSet<>();
        for (double[] c : three) {
            distinct.add(c[0] + "," + c[1]);
        }
        assertEquals(3, distinct.size());
        double[][] five = KMeansPlusPlus.seed(points, null, 5, rng);
        assertEquals(5, five.length);
    }

    @Test
    void returnsCopiesAndDependsOnSeed() {
        double[][] points = new double[50][];
        for (int i = 0; i < 50; i++) {
            points[i] = new double[] {i * i};
        }
        double[][] a =
                KMeansPlusPlus.seed(
                        points,
                        null,
                        5,
                        new SplittableRandom(1)); // public randomness (not privacy noise)
        a[0][0] = -1;
        assertTrue(points[0][0] >= 0 && points[49][0] == 49 * 49);
        String s1 =
                java.util.Arrays.deepToString(
                        KMeansPlusPlus.seed(
                                points,
                                null,
                                5,
                                new SplittableRandom(1))); // public randomness (not privacy noise)
        String s2 =
                java.util.Arrays.deepToString(
                        KMeansPlusPlus.seed(
                                points,
                                null,
                                5,
                                new SplittableRandom(2))); // public randomness (not privacy noise)
        assertNotEquals(s1, s2);
    }

    /**
     * Greedy seeding keeps the best of several D² candidates, so on a mixture of 10 separated blobs
     * its seeding cost is below plain k-means++'s for the same seed in most of 20 seeds, and it
     * never picks a zero-weight point.
     */
    @Test
    void greedySeedingLowersTheSeedingCostAndRespectsWeights() {
        int n = 2000;
        int d = 4;
        int k = 10;
        SplittableRandom data = new SplittableRandom(5);
        double[][] means = new double[k][d];
        for (double[] mu : means) {
            for (int t = 0; t < d; t++) {
                mu[t] = 10 * data.nextDouble();
            }
        }
        double[] flat = new double[n * d];
        double[][] points = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                points[i][t] = means[i % k][t] + 0.1 * data.nextGaussian();
                flat[i * d + t] = points[i][t];
            }
        }
        int greedyWins = 0;
        for (int s = 0; s < 20; s++) {
            double[] greedy = KMeansPlusPlus.seedGreedy(flat, d, null, k, new SplittableRandom(s));
            double[][] plain = KMeansPlusPlus.seed(points, null, k, new SplittableRandom(s));
            double[] plainFlat = new double[k * d];
            for (int j = 0; j < k; j++) {
                System.arraycopy(plain[j], 0, plainFlat, j * d, d);
            }
            if (cost(flat, greedy, d) < cost(flat, plainFlat, d)) {
                greedyWins++;
            }
        }
        assertTrue(greedyWins >= 15, "greedy seeding cheaper in " + greedyWins + " of 20");
        double[] weights = new double[n];
        for (int i = 0; i < n; i += 2) {
            weights[i] = 1;
        }
        double[] centres = KMeansPlusPlus.seedGreedy(flat, d, weights, k, new SplittableRandom(1));
        for (int j = 0; j < k; j++) {
            boolean atWeighted = false;
            for (int i = 0; i < n; i += 2) {
                atWeighted |=
                        java.util.Arrays.equals(
                                centres, j * d, (j + 1) * d, flat, i * d, (i + 1) * d);
            }
            assertTrue(atWeighted, "centre " + j + " is a positive-weight point");
        }
    }

    private static double cost(double[] flat, double[] centres, int d) {
        double total = 0;
        for (int i = 0; i < flat.length / d; i++) {
            double best = Double.POSITIVE_INFINITY;
            for (int j = 0; j < centres.length / d; j++) {
                best = Math.min(best, KMeansPlusPlus.squared(flat, i * d, centres, j * d, d));
            }
            total += best;
        }
        return total;
    }
}
