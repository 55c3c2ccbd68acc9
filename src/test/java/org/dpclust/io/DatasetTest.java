package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Checks shuffling, subsampling and windowing on a data set whose labels encode the coordinates.
 */
class DatasetTest {

    /** Ten 1-D points whose coordinate equals 10 × their label, so pairing can be checked. */
    private static Dataset tens() {
        double[][] p = new double[10][];
        int[] l = new int[10];
        for (int i = 0; i < 10; i++) {
            p[i] = new double[] {10.0 * i};
            l[i] = i;
        }
        return new Dataset("tens", p, l, DomainScaling.none());
    }

    @Test
    void shapeAccessors() {
        Dataset d = tens();
        assertEquals(10, d.size());
        assertEquals(1, d.dimension());
        assertEquals(10, d.labelCount());
    }

    @Test
    void rejectsRaggedRowsAndWrongLabelCount() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new Dataset("x", new double[][] {{1, 2}, {3}}, null, DomainScaling.none()));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new Dataset(
                                "x",
                                new double[][] {{1}, {3}},
                                new int[] {1},
                                DomainScaling.none()));
    }

    @Test
    void shuffledIsAPermutationKeepingLabelsWithPointsAndDependsOnSeed() {
        Dataset s = tens().shuffled(42);
        double[] xs = new double[10];
        for (int i = 0; i < 10; i++) {
            assertEquals(10.0 * s.labels()[i], s.points()[i][0]);
            xs[i] = s.points()[i][0];
        }
        double[] sorted = xs.clone();
        Arrays.sort(sorted);
        assertArrayEquals(new double[] {0, 10, 20, 30, 40, 50, 60, 70, 80, 90}, sorted);
        assertArrayEquals(s.labels(), tens().shuffled(42).labels());
        assertNotEquals(Arrays.toString(s.labels()), Arrays.toString(tens().shuffled(43).labels()));
    }

    @Test
    void subsampleHasRoundedSizeDistinctPointsInOriginalOrder() {
        Dataset s = tens().subsample(0.25, 5); // round(2.5) = 3
        assertEquals(3, s.size());
        for (int i = 0; i < s.size(); i++) {
            assertEquals(10.0 * s.labels()[i], s.points()[i][0]);
            if (i > 0) {
                assertEquals(true, s.labels()[i] > s.labels()[i - 1]);
            }
        }
        assertEquals(10, tens().subsample(1.0, 5).size());
        assertThrows(IllegalArgumentException.class, () -> tens().subsample(0.0, 1));
    }

    @Test
    void windowsAreConsecutiveSlicesWithShortLast() {
        List<Dataset> w = tens().windows(4);
        assertEquals(3, w.size());
        assertArrayEquals(new int[] {0, 1, 2, 3}, w.get(0).labels());
        assertArrayEquals(new int[] {4, 5, 6, 7}, w.get(1).labels());
        assertArrayEquals(new int[] {8, 9}, w.get(2).labels());
        assertEquals(80.0, w.get(2).points()[0][0]);
    }
}
