package org.dpclust.quality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Checks the Hungarian matching on hand examples and against brute force over all permutations. */
class MinCostMatchingTest {

    @Test
    void solvesHandExampleWhereGreedyFails() {
        // Greedy takes the 1 at (0,0) and is then forced into the 100 at (1,1): total 101.
        // The optimum is the anti-diagonal 2 + 2 = 4.
        double[][] cost = {{1, 2}, {2, 100}};
        assertArrayEquals(new int[] {1, 0}, MinCostMatching.solve(cost));
    }

    @Test
    void classicThreeByThree() {
        // Textbook worker/job example (Wikipedia "Hungarian algorithm", matrix a1..c3 = 2,3,3 /
        // 3,2,3 / 3,3,2):
        // the diagonal, total 6, is the unique optimum.
        double[][] cost = {{2, 3, 3}, {3, 2, 3}, {3, 3, 2}};
        assertArrayEquals(new int[] {0, 1, 2}, MinCostMatching.solve(cost));
    }

    @Test
    void agreesWithBruteForceOnRandomMatrices() {
        SplittableRandom rng = new SplittableRandom(7); // public randomness (not privacy noise)
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + rng.nextInt(6);
            double[][] cost = new double[n][n];
            for (double[] row : cost) {
                for (int j = 0; j < n; j++) {
                    row[j] = rng.nextInt(20) - 5;
                }
            }
            int[] match = MinCostMatching.solve(cost);
            assertEquals(bruteForce(cost, new int[n], new boolean[n], 0), total(cost, match), 1e-9);
        }
    }

    private static double total(double[][] cost, int[] match) {
        double s = 0;
        for (int i = 0; i < match.length; i++) {
            s += cost[i][match[i]];
        }
        return s;
    }

    private static double bruteForce(double[][] cost, int[] perm, boolean[] used, int row) {
        if (row == cost.length) {
            return total(cost, perm);
        }
        double best = Double.POSITIVE_INFINITY;
        for (int j = 0; j < cost.length; j++) {
            if (!used[j]) {
                used[j] = true;
                perm[row] = j;
                best = Math.min(best, bruteForce(cost, perm, used, row + 1));
                used[j] = false;
            }
        }
        return best;
    }
}
