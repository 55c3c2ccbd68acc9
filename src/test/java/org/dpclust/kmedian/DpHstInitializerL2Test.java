package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.VectorMetric;
import org.junit.jupiter.api.Test;

/**
 * L2 sensitivity of the released HST node counts, checked on a real tree: the squared L2 change of
 * the non-root node counts over random and worst-case placements of a unit's c demand points.
 */
class DpHstInitializerL2Test {
    private static BigInteger change(Hst t, int[] demand) {
        long[] c = t.counts(demand);
        BigInteger s = BigInteger.ZERO;
        for (int v = 1; v < c.length; v++) { // node 0 is the root, never released
            s = s.add(BigInteger.valueOf(c[v]).pow(2));
        }
        return s;
    }

    @Test
    void allLevelsBoundIsAttainedAndNeverExceeded() {
        Metric m = VectorMetric.l1(HstTest.randomPoints(200, 2, 3));
        Hst t = Hst.build(m, m.diameterUpperBound(), new Hst.Options(5, 60, true));
        SplittableRandom rnd = new SplittableRandom(9);
        for (int c : new int[] {1, 3, 5}) {
            BigInteger bound = DpHstInitializer.allLevelsL2SensitivitySquared(t, c);
            assertEquals(
                    BigInteger.valueOf((long) c * c * t.levels()), bound, "L * c^2 closed form");
            BigInteger worst = BigInteger.ZERO;
            for (int trial = 0; trial < 2000; trial++) {
                int[] demand = rnd.ints(c, 0, 200).toArray();
                worst = worst.max(change(t, demand));
                assertEquals(-1, change(t, demand).compareTo(bound.add(BigInteger.ONE)));
            }
            // all c points at one universe point with a leaf at depth L: one node per level
            int deepest = 0;
            for (int x = 0; x < 200; x++) {
                if (change(t, new int[] {x}).compareTo(change(t, new int[] {deepest})) > 0) {
                    deepest = x;
                }
            }
            int[] same = new int[c];
            java.util.Arrays.fill(same, deepest);
            assertEquals(change(t, same), worst.max(change(t, same)), "no placement beats it");
            assertEquals(bound, change(t, same), "attained when the unit's points coincide");
        }
    }
}
