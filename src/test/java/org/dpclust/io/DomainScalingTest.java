package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Checks both scalings by hand and that data-derived scaling is flagged as not dp. */
class DomainScalingTest {

    private static Dataset sample() {
        return new Dataset(
                "s",
                new double[][] {{2, 5}, {4, 5}, {6, 5}},
                new int[] {0, 1, 1},
                DomainScaling.none());
    }

    @Test
    void ownMinMaxMapsToUnitBoxAndIsDataDerived() {
        Dataset scaled = DomainScaling.toUnitBoxByOwnMinMax(sample());
        // x: min 2, max 6 → 0, 0.5, 1; y constant → 0
        assertArrayEquals(new double[] {0, 0}, scaled.points()[0], 1e-12);
        assertArrayEquals(new double[] {0.5, 0}, scaled.points()[1], 1e-12);
        assertArrayEquals(new double[] {1, 0}, scaled.points()[2], 1e-12);
        assertArrayEquals(new int[] {0, 1, 1}, scaled.labels());
        assertTrue(scaled.scaling().dataDerived());
        assertTrue(
                scaled.scaling().describe().contains("cannot be labelled dp"),
                scaled.scaling().describe());
    }

    @Test
    void declaredBoundsClampAndMapAndAreNotDataDerived() {
        // declared x in [0, 4], y in [0, 10]; target [-1, 1]² ; x = 6 is clamped to 4.
        Dataset scaled =
                DomainScaling.toDeclaredBounds(
                        sample(),
                        new double[] {0, 0},
                        new double[] {4, 10},
                        new double[] {-1, -1},
                        new double[] {1, 1});
        assertArrayEquals(new double[] {0, 0}, scaled.points()[0], 1e-12);
        assertArrayEquals(new double[] {1, 0}, scaled.points()[1], 1e-12);
        assertArrayEquals(new double[] {1, 0}, scaled.points()[2], 1e-12);
        assertFalse(scaled.scaling().dataDerived());
        assertFalse(scaled.scaling().describe().contains("cannot be labelled dp"));
    }

    @Test
    void dataDerivedIsStickyAcrossLaterSteps() {
        Dataset twice =
                DomainScaling.toDeclaredBounds(
                        DomainScaling.toUnitBoxByOwnMinMax(sample()),
                        new double[] {0, 0},
                        new double[] {1, 1},
                        new double[] {0, 0},
                        new double[] {1, 1});
        assertTrue(twice.scaling().dataDerived());
        assertFalse(DomainScaling.none().dataDerived());
    }

    @Test
    void rejectsBadBounds() {
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        DomainScaling.toDeclaredBounds(
                                sample(),
                                new double[] {0},
                                new double[] {1},
                                new double[] {0},
                                new double[] {1}));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        DomainScaling.toDeclaredBounds(
                                sample(),
                                new double[] {1, 0},
                                new double[] {1, 1},
                                new double[] {0, 0},
                                new double[] {1, 1}));
    }
}
