package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DiametersTest {
    private static double[][] points(int n, int d, boolean integral, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] p = new double[n][d];
        for (double[] row : p) {
            for (int t = 0; t < d; t++) {
                row[t] = integral ? rng.nextInt(256) : rng.nextGaussian() * 10;
            }
        }
        return p;
    }

    @Test
    void prunedDiameterEqualsAllPairsOnVectorsAndGraphs() {
        for (boolean integral : new boolean[] {true, false}) {
            for (VectorMetric.Norm norm : VectorMetric.Norm.values()) {
                double[][] p = points(300, 5, integral, integral ? 1 : 2);
                VectorMetric m = new VectorMetric(p, norm);
                double brute = m.exactDiameter();
                int pivot = Diameters.nearestToMean(p, m);
                assertEquals(
                        brute,
                        Diameters.exact(m, pivot).diameter(),
                        1e-9 * brute,
                        norm + " " + integral);
                Diameters.Exact e = Diameters.exactVectors(p, norm, pivot);
                assertEquals(brute, e.diameter(), 1e-9 * brute, norm + " " + integral);
                assertTrue(e.pairsEvaluated() < 300 * 299 / 2, "no pruning at all");
            }
        }
        SyntheticGraph g = SyntheticGraph.generate(200, 4, 0.1, 2, 100, 9);
        WeightedGraph w = g.metric();
        assertEquals(w.exactDiameter(), Diameters.exact(w, 0).diameter(), 1e-12);
    }
}
