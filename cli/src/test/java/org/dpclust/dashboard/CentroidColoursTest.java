package org.dpclust.dashboard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CentroidColoursTest {
    private static final List<Double> LO = List.of(0.0, 0.0), HI = List.of(10.0, 10.0);

    private static List<Double> p(double... x) {
        return Arrays.stream(x).boxed().toList();
    }

    @Test
    void aClusterKeepsItsColourWhenTheReleaseListsItsCentroidsInAnotherOrder() {
        List<List<Double>> before = List.of(p(1, 1), p(9, 9), p(1, 9));
        int[] colours = CentroidColours.first(3);
        assertArrayEquals(new int[] {0, 1, 2}, colours);
        // the same three clusters, each moved a little, listed in another order
        List<List<Double>> after = List.of(p(8.6, 9.2), p(1.3, 8.7), p(0.8, 1.1));
        int[] next = CentroidColours.next(before, colours, after, LO, HI);
        assertArrayEquals(new int[] {colours[1], colours[2], colours[0]}, next);
        // and on from there: colours carry over, not indices
        List<List<Double>> third = List.of(p(1.0, 1.0), p(8.0, 9.0), p(1.0, 8.0));
        assertArrayEquals(
                new int[] {colours[0], colours[1], colours[2]},
                CentroidColours.next(after, next, third, LO, HI));
    }

    @Test
    void theMatchMinimisesTheTotalDistanceWhereGreedyPairingWouldNot() {
        // on x0: previous A = 0, B = 4; now 3 and 7. Greedy pairs B with 3 first (distance 1),
        // leaving A with 7 (49 squared): 50 in all; A-3 and B-7 cost 9 + 9 = 18.
        List<List<Double>> before = List.of(p(0, 5), p(4, 5));
        int[] colours = {4, 7};
        List<List<Double>> after = List.of(p(3, 5), p(7, 5));
        assertArrayEquals(new int[] {4, 7}, CentroidColours.next(before, colours, after, LO, HI));
    }

    @Test
    void distanceIsScaledByTheDeclaredDomain() {
        // x0 spans 1000, x1 spans 1: a move of 150 on x0 is small, a move of 1 on x1 is large
        List<Double> lo = List.of(0.0, 0.0), hi = List.of(1000.0, 1.0);
        // scaled, A-x plus B-y costs 2.005 and A-y plus B-x 0.045; unscaled 5002 against 45000
        List<List<Double>> before = List.of(p(100, 0.0), p(300, 1.0));
        List<List<Double>> after = List.of(p(150, 1.0), p(250, 0.0));
        assertArrayEquals(
                new int[] {1, 0}, CentroidColours.next(before, new int[] {0, 1}, after, lo, hi));
    }

    @Test
    void aNewClusterTakesTheSmallestColourNeitherReleaseUses() {
        List<List<Double>> before = List.of(p(1, 1), p(9, 9));
        int[] colours = {0, 1};
        int[] grown =
                CentroidColours.next(before, colours, List.of(p(5, 5), p(9, 8), p(1, 2)), LO, HI);
        assertEquals(1, grown[1]);
        assertEquals(0, grown[2]);
        assertEquals(2, grown[0], "the smallest colour not on screen");
        // k shrinks: the survivor keeps its colour
        int[] shrunk =
                CentroidColours.next(
                        List.of(p(5, 5), p(9, 8), p(1, 2)), grown, List.of(p(8, 8)), LO, HI);
        assertArrayEquals(new int[] {1}, shrunk);
        // a new cluster may take a colour that was not on screen in the previous release
        int[] again =
                CentroidColours.next(List.of(p(8, 8)), shrunk, List.of(p(8, 8), p(2, 2)), LO, HI);
        assertArrayEquals(new int[] {1, 0}, again);
    }

    @Test
    void theAssignmentIsOptimalAgainstBruteForce() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 300; trial++) {
            int n = 1 + rnd.nextInt(5), m = n + rnd.nextInt(3);
            double[][] cost = new double[n][m];
            for (double[] row : cost) {
                for (int j = 0; j < m; j++) {
                    row[j] = rnd.nextInt(20);
                }
            }
            int[] rowOf = CentroidColours.assign(cost, n, m);
            double total = 0;
            boolean[] seen = new boolean[n];
            for (int j = 0; j < m; j++) {
                if (rowOf[j] >= 0) {
                    assertEquals(false, seen[rowOf[j]], "one column per row");
                    seen[rowOf[j]] = true;
                    total += cost[rowOf[j]][j];
                }
            }
            for (boolean b : seen) {
                assertEquals(true, b, "every row assigned");
            }
            assertEquals(best(cost, 0, new boolean[m]), total, 1e-9, "trial " + trial);
        }
    }

    private static double best(double[][] cost, int row, boolean[] used) {
        if (row == cost.length) {
            return 0;
        }
        double b = Double.POSITIVE_INFINITY;
        for (int j = 0; j < used.length; j++) {
            if (!used[j]) {
                used[j] = true;
                b = Math.min(b, cost[row][j] + best(cost, row + 1, used));
                used[j] = false;
            }
        }
        return b;
    }

    @Test
    void refusesColoursThatDoNotFitTheCentroids() {
        assertThrows(
                IllegalArgumentException.class,
                () -> CentroidColours.next(List.of(p(1, 1)), new int[] {0, 1}, List.of(), LO, HI));
    }
}
