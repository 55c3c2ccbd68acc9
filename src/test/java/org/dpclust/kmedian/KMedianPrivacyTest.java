package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP tests (DpTester, majority vote) of the three mechanisms of the HST k-median
 * pipeline on worst-case add/remove neighbours, each with a halved-noise negative control.
 */
class KMedianPrivacyTest {
    private static final DpTester.Options O = DpTester.Options.defaults();

    // ---- (a) DP-HST node counts ------------------------------------------------------------

    /**
     * 1-D points in l1, tree capped at L = 2 levels (β = 1). Few levels keep the whitened
     * projection close to the full privacy loss (with many levels the sum of L Laplace terms hides
     * the tails).
     */
    private static final Metric LINE =
            VectorMetric.l1(new double[][] {{0}, {1}, {3}, {7}, {15}, {16}});

    private static final Hst TREE = Hst.build(LINE, 16, new Hst.Options(3, 2, false));

    private static int deepestPoint() {
        for (int x = 0; x < LINE.size(); x++) {
            if (TREE.pathBelowRoot(x).length == TREE.levels()) {
                return x;
            }
        }
        throw new IllegalStateException("no leaf at level 1");
    }

    private static DpTester.VoteResult nodeCounts(
            double epsMechanism, double epsTested, String label) {
        int p = deepestPoint();
        int[] path = TREE.pathBelowRoot(p); // one node per level, h = 1..L
        int[] d = {0, 4, 5};
        int[] dPrime = {0, 4, 5, p}; // adds p: +1 on every node of the path
        double[] direction = new double[path.length];
        for (int a = 0; a < path.length; a++) { // difference in noise-whitened units: 1 / scale_h
            direction[a] = DpHstInitializer.levelEpsilon(TREE, TREE.level(path[a]), 1.0);
        }
        PrivacyRandom r = TestRandoms.stream(label);
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testProjected(
                                        () ->
                                                along(
                                                        path,
                                                        DpHstInitializer.noisyCounts(
                                                                TREE, d, epsMechanism, r)),
                                        () ->
                                                along(
                                                        path,
                                                        DpHstInitializer.noisyCounts(
                                                                TREE, dPrime, epsMechanism, r)),
                                        direction,
                                        epsTested,
                                        O));
        System.out.println(
                "DP-HST node counts " + label + " (L = " + TREE.levels() + "): " + v.summary());
        return v;
    }

    private static double[] along(int[] path, long[] counts) {
        double[] out = new double[path.length];
        for (int a = 0; a < path.length; a++) {
            out[a] = counts[path[a]];
        }
        return out;
    }

    @Test
    void nodeCountsPassAtCalibratedNoise() {
        assertEquals(2, TREE.levels());
        assertTrue(nodeCounts(1.0, 1.0, "hst-counts").passedByMajority());
    }

    @Test
    void nodeCountsFailWithHalvedNoise() {
        assertFalse(nodeCounts(2.0, 1.0, "hst-counts-neg").passedByMajority());
    }

    // ---- (b) one DP local-search swap and (c) the final selection ---------------------------
    // Universe: 6 points at pairwise l1 distance Δ = 2 (scaled basis vectors). k = 1, F = {x0}.
    // D = {x0}: every swap x0 -> y costs Δ. D' = D + {y*}: the swap to y* still costs Δ, every
    // other swap costs 2Δ. All costs move one way under add/remove, so the tight per-draw loss is
    // ε_draw/2 (see DpLocalSearch); the tests check that bound: calibrated at ε_draw = 1 tested at
    // 0.5, and halved noise (ε_draw = 2) tested at 0.5 must fail. (At ε_draw itself a halved-noise
    // control could not fail: its true loss is exactly the tested ε.)

    private static final Metric UNIFORM =
            VectorMetric.l1(
                    new double[][] {
                        {1, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0},
                        {0, 0, 0, 1, 0, 0}, {0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 1}
                    });
    private static final int Y_STAR = 1;

    private static DemandCosts costs(int... demand) {
        return DemandCosts.of(UNIFORM, demand, 1, 2.0);
    }

    private static DpTester.VoteResult swap(double epsDraw, double epsTested, String label) {
        SwapState onD = new SwapState(costs(0), new int[] {0}, costs(0).gridExponent());
        SwapState onDPrime =
                new SwapState(costs(0, Y_STAR), new int[] {0}, costs(0).gridExponent());
        assertEquals(1, DpLocalSearch.decode(onD, 0)[1]);
        PrivacyRandom r = TestRandoms.stream(label);
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testDiscrete(
                                        () -> DpLocalSearch.selectSwap(onD, epsDraw, r),
                                        () -> DpLocalSearch.selectSwap(onDPrime, epsDraw, r),
                                        epsTested,
                                        O));
        System.out.println("DP local search swap " + label + ": " + v.summary());
        return v;
    }

    @Test
    void swapSelectionPassesAtCalibratedNoise() {
        assertTrue(swap(1.0, 0.5, "dpls-swap").passedByMajority());
    }

    @Test
    void swapSelectionFailsWithHalvedNoise() {
        assertFalse(swap(2.0, 0.5, "dpls-swap-neg").passedByMajority());
    }

    private static DpTester.VoteResult finalSelection(
            double epsDraw, double epsTested, String label) {
        List<int[]> iterates =
                List.of(
                        new int[] {Y_STAR},
                        new int[] {2},
                        new int[] {3},
                        new int[] {4},
                        new int[] {5});
        DemandCosts onD = costs(0);
        DemandCosts onDPrime = costs(0, Y_STAR);
        PrivacyRandom r = TestRandoms.stream(label);
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testDiscrete(
                                        () -> DpLocalSearch.selectFinal(onD, iterates, epsDraw, r),
                                        () ->
                                                DpLocalSearch.selectFinal(
                                                        onDPrime, iterates, epsDraw, r),
                                        epsTested,
                                        O));
        System.out.println("DP local search final selection " + label + ": " + v.summary());
        return v;
    }

    @Test
    void finalSelectionPassesAtCalibratedNoise() {
        assertTrue(finalSelection(1.0, 0.5, "dpls-final").passedByMajority());
    }

    @Test
    void finalSelectionFailsWithHalvedNoise() {
        assertFalse(finalSelection(2.0, 0.5, "dpls-final-neg").passedByMajority());
    }
}
