package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.NestedPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * {@link NestedCellStatistics}: coarse cells split into their fine children only where the noisy
 * count carries the signal, the frontier is a partition of the fine cells, and a replay with the
 * same randomness is identical.
 */
class NestedCellStatisticsTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0, 0}, new double[] {1, 1, 1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);
    private static final NestedPointSet CELLS = NestedPointSet.uniform(BOX, 8, 200, 11);

    /** n records near (0.1, 0.1, 0.1): one coarse cell holds them all. */
    private static ClusterStatistics cluster(int n) {
        ClusterStatistics s = new ClusterStatistics(CELLS.fineSize(), 3);
        SplittableRandom rng = new SplittableRandom(5);
        long[] enc = new long[3];
        for (int i = 0; i < n; i++) {
            double[] x = new double[3];
            for (int j = 0; j < 3; j++) {
                x[j] = 0.1 + 0.02 * rng.nextDouble();
            }
            CODEC.encode(x, enc);
            s.add(CELLS.fine(x), enc);
        }
        return s;
    }

    private static int coarseOf(int fine) {
        int j = 0;
        while (CELLS.to(j) <= fine) {
            j++;
        }
        return j;
    }

    @Test
    void onlyTheOccupiedCoarseCellSplitsAndTheFrontierCoversEveryFineCellOnce() {
        NestedCellStatistics.Noisy o =
                NestedCellStatistics.noise(
                        cluster(20_000), CELLS, CODEC, 3, 0.1, 1, TestRandoms.stream("split"));
        int occupied = coarseOf(CELLS.fine(new double[] {0.11, 0.11, 0.11}));
        int next = 0;
        for (int f = 0; f < o.frontierFrom().length; f++) {
            assertEquals(next, o.frontierFrom()[f], "frontier cells are contiguous");
            int j = coarseOf(o.frontierFrom()[f]);
            int width = o.frontierTo()[f] - o.frontierFrom()[f];
            int children = CELLS.to(j) - CELLS.from(j);
            // the occupied cell is split into single children, the empty ones stay whole
            assertEquals(j == occupied && children > 1 ? 1 : children, width, "coarse cell " + j);
            next = o.frontierTo()[f];
        }
        assertEquals(CELLS.fineSize(), next);
        assertEquals(o.frontierFrom().length, o.cells().counts().length);
    }

    @Test
    void aWeakSignalKeepsTheCoarseCells() {
        NestedCellStatistics.Noisy o =
                NestedCellStatistics.noise(
                        cluster(20), CELLS, CODEC, 0.1, 0.1, 1, TestRandoms.stream("weak"));
        assertEquals(CELLS.coarseSize(), o.frontierFrom().length);
    }

    @Test
    void aReplayWithTheSameRandomnessIsIdentical() {
        ClusterStatistics s = cluster(5_000);
        NestedCellStatistics.Noisy a =
                NestedCellStatistics.noise(s, CELLS, CODEC, 1, 0.1, 1, TestRandoms.stream("r"));
        NestedCellStatistics.Noisy b =
                NestedCellStatistics.noise(s, CELLS, CODEC, 1, 0.1, 1, TestRandoms.stream("r"));
        assertArrayEquals(a.coarseCounts(), b.coarseCounts());
        assertArrayEquals(a.frontierFrom(), b.frontierFrom());
        assertArrayEquals(a.cells().counts(), b.cells().counts());
        assertArrayEquals(a.cells().sums(), b.cells().sums());
        assertTrue(a.frontierFrom().length > CELLS.coarseSize(), "5,000 records at eps 1 split");
    }
}
