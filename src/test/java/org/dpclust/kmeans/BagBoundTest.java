package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.kmeans.BagBound.AdversaryCase;
import org.dpclust.kmeans.BagBound.VarianceForm;
import org.junit.jupiter.api.Test;

/**
 * Hand-checked bounds on 1-D clusters. C0 = {4, 6}: N = 2, mean 5, σ² = 1. C1 = {10, 12, 14}: N =
 * 3, mean 12, σ² = (4 + 0 + 4)/3 = 8/3.
 */
class BagBoundTest {
    private static final double[][] POINTS = {{4}, {6}, {10}, {12}, {14}};
    private static final int[] ASSIGNMENT = {0, 0, 1, 1, 1};
    private static final PartitionMoments M = PartitionMoments.of(POINTS, ASSIGNMENT, 2);

    private static BagBound.Result bound(
            double[][] points,
            PartitionMoments m,
            AdversaryCase c,
            VarianceForm f,
            ExcludedErrorVariance exc,
            double eps) {
        return BagBound.compute(points, m, c, f, exc, eps);
    }

    @Test
    void case1JointIsExpEpsilonTimesTheSmallestClusterSize() {
        // B <= e^ε N_k σ²_k / σ²_k = e^ε N_k; min over k: 2 e^0.1 = 2.2103 -> B = 2
        BagBound.Result r =
                bound(
                        POINTS,
                        M,
                        AdversaryCase.KNOWN_CLUSTER,
                        VarianceForm.JOINT,
                        ExcludedErrorVariance.WITHIN_CLUSTER,
                        0.1);
        assertEquals(2 * Math.exp(0.1), r.bMax(), 1e-12);
        assertEquals(2, r.bags());
        assertEquals(0, ASSIGNMENT[r.point()]);
        assertTrue(r.feasible());
    }

    @Test
    void case1PerPointBindsAtTheSmallestSquaredValue() {
        // B <= e^ε x_r² (1 − 1/N_l) / σ²_l: x = 4 gives 16 · 1/2 / 1 = 8; x = 10 gives 100 · 2/3 /
        // (8/3) = 25.
        // At ε = 0.1: 8 e^0.1 = 8.841 -> B = 8, bound by point 0
        BagBound.Result r =
                bound(
                        POINTS,
                        M,
                        AdversaryCase.KNOWN_CLUSTER,
                        VarianceForm.PER_POINT,
                        ExcludedErrorVariance.WITHIN_CLUSTER,
                        0.1);
        assertEquals(8 * Math.exp(0.1), r.bMax(), 1e-12);
        assertEquals(8, r.bags());
        assertEquals(0, r.point());
    }

    @Test
    void case1PerPointIsInfeasibleAtAZeroCoordinate() {
        double[][] pts = {{0}, {2}, {10}, {12}, {14}};
        BagBound.Result r =
                bound(
                        pts,
                        PartitionMoments.of(pts, ASSIGNMENT, 2),
                        AdversaryCase.KNOWN_CLUSTER,
                        VarianceForm.PER_POINT,
                        ExcludedErrorVariance.WITHIN_CLUSTER,
                        1.0);
        assertEquals(0.0, r.bMax());
        assertEquals(1, r.bags());
        assertFalse(r.feasible());
    }

    @Test
    void totalVarianceAsExcludedErrorGivesATighterBound() {
        // τ² = ((−5.2)² + (−3.2)² + 0.8² + 2.8² + 4.8²)/5 = 68.8/5 = 13.76; Case 1 joint at ε = 0:
        // min(2 · 1, 3 · 8/3) / 13.76 = 2/13.76 = 0.1453 < 1 -> B = 1, infeasible
        BagBound.Result r =
                bound(
                        POINTS,
                        M,
                        AdversaryCase.KNOWN_CLUSTER,
                        VarianceForm.JOINT,
                        ExcludedErrorVariance.TOTAL,
                        0.0);
        assertEquals(13.76, M.totalVariance()[0], 1e-12);
        assertEquals(2 / 13.76, r.bMax(), 1e-12);
        assertEquals(1, r.bags());
    }

    @Test
    void case2JointSolvesTheTotalVarianceInequality() {
        // C0 = {−1, 1}: σ² = 1; C1 = {10, 12, 14}: σ² = 8/3; π = (0.4, 0.6). V = Σ π_k N_k σ²_k =
        // 0.4·2 + 0.6·8 = 5.6.
        // x = ±1 (l = 0): Bias² = π_0 (1 − π_0) x² = 0.24; at ε = 0: B <= 5.6 / (1 − 0.24) = 7.368
        // -> B = 7.
        // C1 points: Bias² >= 0.24 · 100 > 8/3, no constraint.
        double[][] pts = {{-1}, {1}, {10}, {12}, {14}};
        BagBound.Result r =
                bound(
                        pts,
                        PartitionMoments.of(pts, ASSIGNMENT, 2),
                        AdversaryCase.UNKNOWN_CLUSTER,
                        VarianceForm.JOINT,
                        ExcludedErrorVariance.WITHIN_CLUSTER,
                        0.0);
        assertEquals(5.6 / 0.76, r.bMax(), 1e-12);
        assertEquals(7, r.bags());
        // on the original points every Bias² exceeds e^{−ε} E_exc: unconstrained, capped
        BagBound.Result free =
                bound(
                        POINTS,
                        M,
                        AdversaryCase.UNKNOWN_CLUSTER,
                        VarianceForm.JOINT,
                        ExcludedErrorVariance.WITHIN_CLUSTER,
                        0.0);
        assertEquals(Double.POSITIVE_INFINITY, free.bMax());
        assertEquals(BagBound.MAX_BAGS, free.bags());
        assertEquals(-1, free.point());
    }

    @Test
    void bagsIsTheFloorAtLeastOneAndCapped() {
        assertEquals(1, BagBound.bags(0.3));
        assertEquals(7, BagBound.bags(7.999));
        assertEquals(BagBound.MAX_BAGS, BagBound.bags(1e9));
    }
}
