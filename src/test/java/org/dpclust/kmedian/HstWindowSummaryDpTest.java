package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of the HST window summary's release (tier {@code dp}). Pair: two windows that
 * differ in one record in an otherwise EMPTY region, so the whole difference is on nodes that are
 * unoccupied in D, on the longest path available. Statistic: the privacy-loss variable of the noisy
 * node counts along that record's path (the other nodes cancel), the optimal test statistic. Tested
 * at the pair's exact loss bound: the sum of the level budgets its path crosses (≤ ε).
 */
@Tag("dp")
class HstWindowSummaryDpTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});

    @Test
    void aRecordInAnEmptyRegionPassesCalibratedAndFailsWithHalvedNoise() {
        HstWindowSummary s = new HstWindowSummary(BOX, 32, 3, 3);
        Hst t = s.tree();
        long[] d = HstWindowSummaryTest.window(s, 200, 0.1, 0.1, 1);
        // the extra record: a universe point whose leaf is empty in D, with the longest path
        long[] countsD = t.countsFromMultiplicities(d);
        int far = -1;
        for (int x = 0; x < s.universeSize(); x++) {
            if (countsD[t.leafOf(x)] == 0
                    && (far < 0 || t.pathBelowRoot(x).length > t.pathBelowRoot(far).length)) {
                far = x;
            }
        }
        assertTrue(t.pathBelowRoot(far).length >= 2, "a multi-level path");
        long[] dPrime = d.clone();
        dPrime[far]++;
        long[] a = t.countsFromMultiplicities(d);
        int[] path = t.pathBelowRoot(far);
        double[] scale = new double[path.length];
        double pathEpsilon = 0; // the pair's exact loss bound: the levels its path crosses
        for (int i = 0; i < path.length; i++) {
            double e = DpHstInitializer.levelEpsilon(t, t.level(path[i]), 1.0);
            scale[i] = GeometricMechanism.scale(1, e);
            pathEpsilon += e;
        }
        assertTrue(pathEpsilon <= 1.0);
        DpTester.assertCalibratedPassesAndHalvedFails(
                "hst-window-summary",
                1.0,
                pathEpsilon,
                DpTester.Options.defaults().withSamples(20_000),
                false,
                (neighbour, eps, rng) -> {
                    long[] o = s.release(neighbour ? dPrime : d, 2, eps, 1, rng).noisyNodeCounts();
                    double l = 0;
                    for (int i = 0; i < path.length; i++) {
                        l += DpTester.laplaceLoss(o[path[i]], a[path[i]], a[path[i]] + 1, scale[i]);
                    }
                    return l;
                });
    }
}
