package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link NestedPointSet}: a record's fine cell lies under its nearest coarse point, every coarse
 * cell has a child, and the partition is a function of the public seed.
 */
class NestedPointSetTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0, 0, 0}, new double[] {2, 1, 1, 3});

    @Test
    void descentFindsAFineCellUnderTheNearestCoarsePoint() {
        NestedPointSet n = NestedPointSet.uniform(BOX, 16, 300, 4);
        PublicPointSet coarse = PublicPointSet.uniform(BOX, 16, 4);
        assertEquals(16, n.coarseSize());
        assertTrue(n.fineSize() >= 300, "every fine point is a child, plus empty coarse cells");
        for (int j = 0; j < n.coarseSize(); j++) {
            assertTrue(n.to(j) > n.from(j), "coarse cell " + j + " has a child");
        }
        SplittableRandom rng = new SplittableRandom(9);
        NestedPointSet again = NestedPointSet.uniform(BOX, 16, 300, 4);
        for (int i = 0; i < 2000; i++) {
            double[] x = {
                2 * rng.nextDouble(), rng.nextDouble(), rng.nextDouble(), 3 * rng.nextDouble()
            };
            int j = coarse.nearest(x);
            int f = n.fine(x);
            assertTrue(n.from(j) <= f && f < n.to(j), "fine cell " + f + " under coarse " + j);
            assertEquals(f, again.fine(x), "same seed, same partition");
        }
    }
}
