package org.dpclust.quality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Checks every metric against hand-computed or textbook values (sources cited per test). */
class ClusteringMetricsTest {

    /*
     * Manning, Raghavan, Schütze, "Introduction to Information Retrieval" (2008), §16.3, Figure 16.4:
     * 17 points in 3 clusters. Cluster 1: 5 x, 1 o. Cluster 2: 1 x, 4 o, 1 diamond. Cluster 3: 2 x,
     * 3 diamond. The book gives purity ≈ 0.71, NMI ≈ 0.36, RI ≈ 0.68 (TP 20, FP 20, FN 24, TN 72).
     * Classes: x = 0, o = 1, diamond = 2.
     */
    private static final int[] MRS_CLUSTERS = {
        1, 1, 1, 1, 1, 1,
        2, 2, 2, 2, 2, 2,
        3, 3, 3, 3, 3
    };
    private static final int[] MRS_CLASSES = {
        0, 0, 0, 0, 0, 1,
        0, 1, 1, 1, 1, 2,
        0, 0, 2, 2, 2
    };

    @Test
    void purityOfTextbookExample() {
        // (5 + 4 + 3) / 17 = 0.7059 (MRS §16.3)
        assertEquals(12.0 / 17.0, ClusteringMetrics.purity(MRS_CLUSTERS, MRS_CLASSES), 1e-12);
    }

    @Test
    void nmiOfTextbookExample() {
        // MRS §16.3 reports NMI ≈ 0.36 for Figure 16.4. To more digits, from the contingency table
        // rows (5,1,0), (1,4,1), (2,0,3) with sizes 6,6,5 and 8,5,4 (evaluated on a calculator):
        // I = 0.391937, H(Ω) = 1.095078, H(C) = 1.055102, NMI = I / ((H(Ω)+H(C))/2) = 0.364562.
        // (Normalising by max(H) instead would give 0.357908, so the tolerance tells them apart.)
        assertEquals(0.36, ClusteringMetrics.nmi(MRS_CLUSTERS, MRS_CLASSES), 0.005);
        assertEquals(0.364562, ClusteringMetrics.nmi(MRS_CLUSTERS, MRS_CLASSES), 1e-6);
        assertEquals(
                ClusteringMetrics.nmi(MRS_CLUSTERS, MRS_CLASSES),
                ClusteringMetrics.nmi(MRS_CLASSES, MRS_CLUSTERS),
                1e-12);
    }

    @Test
    void randIndexOfTextbookExample() {
        // MRS §16.3: RI = (20 + 72) / (20 + 20 + 24 + 72) = 92 / 136 ≈ 0.68
        assertEquals(92.0 / 136.0, ClusteringMetrics.randIndex(MRS_CLUSTERS, MRS_CLASSES), 1e-12);
    }

    @Test
    void adjustedRandIndexOfTextbookExampleByHand() {
        // By hand from the MRS contingency table: Σ C(n_ij,2) = 10+6+1+3 = 20; cluster sizes 6,6,5
        // give Σ C(a,2) = 40; class sizes 8,5,4 give Σ C(b,2) = 44; C(17,2) = 136.
        // ARI = (20 − 40·44/136) / (42 − 40·44/136) = 960 / 3952 = 60/247.
        assertEquals(
                60.0 / 247.0,
                ClusteringMetrics.adjustedRandIndex(MRS_CLUSTERS, MRS_CLASSES),
                1e-12);
    }

    @Test
    void adjustedRandIndexSmallCases() {
        // Identical partitions (up to renaming): 1.
        assertEquals(
                1.0,
                ClusteringMetrics.adjustedRandIndex(
                        new int[] {0, 0, 1, 1, 2}, new int[] {7, 7, 3, 3, 9}),
                1e-12);
        // By hand: a = {0,0,1,1}, b = {0,0,1,2}: Σ C(n_ij,2) = 1, Σ C(a,2) = 2, Σ C(b,2) = 1,
        // C(4,2) = 6, E = 1/3, ARI = (1 − 1/3) / (1.5 − 1/3) = 4/7 (also the scikit-learn doc value
        // 0.57).
        assertEquals(
                4.0 / 7.0,
                ClusteringMetrics.adjustedRandIndex(new int[] {0, 0, 1, 1}, new int[] {0, 0, 1, 2}),
                1e-12);
        // One block vs all singletons: index 0, expected 0, max 3 → 0.
        assertEquals(
                0.0,
                ClusteringMetrics.adjustedRandIndex(new int[] {0, 0, 0, 0}, new int[] {0, 1, 2, 3}),
                1e-12);
    }

    @Test
    void partitionMeasuresOfIdenticalPartitionsAreOne() {
        int[] a = {4, 4, 1, 1, 1, 8};
        int[] renamed = {0, 0, 5, 5, 5, 2};
        assertEquals(1.0, ClusteringMetrics.nmi(a, renamed), 1e-12);
        assertEquals(1.0, ClusteringMetrics.randIndex(a, renamed), 1e-12);
        assertEquals(1.0, ClusteringMetrics.purity(a, renamed), 1e-12);
    }

    @Test
    void nmiOfIndependentPartitionsIsZero() {
        // a splits {0,1 | 2,3}, b splits {0,2 | 1,3}: every cell has 1 point, I = 0.
        assertEquals(
                0.0, ClusteringMetrics.nmi(new int[] {0, 0, 1, 1}, new int[] {0, 1, 0, 1}), 1e-12);
    }

    @Test
    void mismatchedLengthsAreRejected() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ClusteringMetrics.nmi(new int[] {0, 1}, new int[] {0}));
    }

    @Test
    void sseKMedianCostAndAssignmentByHand() {
        double[][] points = {{0, 0}, {3, 4}, {10, 0}, {10, 2}};
        double[][] centroids = {{0, 0}, {10, 1}};
        // nearest: (0,0)->0 d=0; (3,4)->0 d=5 (d²=25; to (10,1): 49+9=58); (10,0)->1 d=1; (10,2)->1
        // d=1
        assertArrayEquals(new int[] {0, 0, 1, 1}, ClusteringMetrics.assign(points, centroids));
        assertEquals(0 + 25 + 1 + 1, ClusteringMetrics.sse(points, centroids), 1e-12);
        assertEquals(0 + 5 + 1 + 1, ClusteringMetrics.kMedianCost(points, centroids), 1e-12);
    }

    @Test
    void assignmentTiesGoToLowestIndex() {
        assertArrayEquals(
                new int[] {0},
                ClusteringMetrics.assign(new double[][] {{1}}, new double[][] {{0}, {2}}));
    }

    @Test
    void relativeSse() {
        assertEquals(1.5, ClusteringMetrics.relativeSse(3, 2), 1e-12);
        assertEquals(1.0, ClusteringMetrics.relativeSse(0, 0), 0);
        assertEquals(Double.POSITIVE_INFINITY, ClusteringMetrics.relativeSse(1, 0), 0);
        assertThrows(IllegalArgumentException.class, () -> ClusteringMetrics.relativeSse(-1, 2));
    }

    @Test
    void averagePerturbationMatchesSwappedCentroids() {
        // Released in swapped order. m1 = (1,1) ↔ (1,2): ‖·‖₁ = 1, ‖m1‖₁ = 2 → 0.5;
        // m2 = (10,0) ↔ (10.5,0): 0.5 / 10 = 0.05. AP = (0.5 + 0.05) / 2 = 0.275.
        double[][] original = {{1, 1}, {10, 0}};
        double[][] released = {{10.5, 0}, {1, 2}};
        assertEquals(0.275, ClusteringMetrics.averagePerturbation(original, released), 1e-12);
    }

    @Test
    void averagePerturbationUsesOptimalNotGreedyMatching() {
        // 1-D, by hand: originals 100, 103; released 102, 105. Costs |m − r| / |m|:
        // 100↔102 = 0.02, 100↔105 = 0.05, 103↔102 = 1/103, 103↔105 = 2/103.
        // Greedy (cheapest pair first) takes 103↔102 then 100↔105: 0.0597.
        // Optimal is 100↔102 + 103↔105 = 0.02 + 2/103; AP = half of that.
        double ap =
                ClusteringMetrics.averagePerturbation(
                        new double[][] {{100}, {103}}, new double[][] {{102}, {105}});
        assertEquals((0.02 + 2.0 / 103.0) / 2.0, ap, 1e-12);
    }

    @Test
    void averagePerturbationRejectsZeroNormOriginal() {
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        ClusteringMetrics.averagePerturbation(
                                new double[][] {{0, 0}}, new double[][] {{1, 1}}));
    }

    @Test
    void meanMatchedDistanceByHand() {
        // true (0,0) → nearest (3,4) at 5; true (10,10) → nearest (10,12) at 2; mean 3.5
        double[][] truth = {{0, 0}, {10, 10}};
        double[][] centroids = {{10, 12}, {3, 4}, {100, 100}};
        assertEquals(3.5, ClusteringMetrics.meanMatchedDistance(truth, centroids), 1e-12);
    }
}
