package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * PrivGene: the utility sensitivity derived in the class comment, checked by brute force over
 * neighbouring pairs; the budget split; and that the exponential-mechanism selection prefers low
 * SSE.
 */
class PrivGeneKMeansTest {
    /** A box with unequal widths, so a sensitivity using max width or d would be caught. */
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, -1}, new double[] {2, 0});

    private static List<double[]> grid() {
        List<double[]> g = new ArrayList<>();
        for (int a = 0; a <= 4; a++) {
            for (int b = 0; b <= 2; b++) {
                g.add(new double[] {a * 0.5, -1 + b * 0.5});
            }
        }
        return g;
    }

    @Test
    void utilitySensitivityIsTheSquaredDiameterByBruteForceOverNeighbours() {
        double delta = PrivGeneKMeans.sensitivity(BOX);
        assertEquals(2 * 2 + 1 * 1, delta, 0.0);
        List<double[]> g = grid();
        double[][][] datasets = {{}, {{1, -0.5}}, {{0, -1}, {2, 0}, {0.5, -0.5}}};
        double worst = 0;
        for (double[][] d : datasets) {
            for (double[] c1 : g) {
                for (double[] c2 : g) {
                    double[][] cand = {c1, c2};
                    double u = PrivGeneKMeans.utility(d, cand);
                    for (double[] x :
                            g) { // D' = D + {x}; removal is the same pair read the other way
                        double[][] dPrime = java.util.Arrays.copyOf(d, d.length + 1);
                        dPrime[d.length] = x;
                        double change = Math.abs(PrivGeneKMeans.utility(dPrime, cand) - u);
                        assertTrue(change <= delta + 1e-12, "change " + change + " > " + delta);
                        worst = Math.max(worst, change);
                    }
                }
            }
        }
        assertEquals(
                delta,
                worst,
                1e-12,
                "the bound is attained (record and candidates at opposite corners)");
    }

    @Test
    void budgetSplitSumsToEpsilon() {
        for (double n : new double[] {150, 5000, 100_000, 1e6}) {
            for (double eps : new double[] {0.1, 0.5, 1.0, 3.0}) {
                PrivGeneKMeans.Schedule s = PrivGeneKMeans.schedule(n, eps);
                assertEquals(Math.max(2, Math.floor(1.25e-3 * n * eps / 10)), s.generations(), 0.0);
                assertEquals(eps, s.total(), eps * 1e-12, "n=" + n + " eps=" + eps);
                // ε/r, stepped down where n·(ε/r) would exceed ε in exact arithmetic
                assertEquals(eps / s.generations(), s.finalEpsilon(), 2 * Math.ulp(eps));
                assertTrue(
                        new java.math.BigDecimal(s.finalEpsilon())
                                        .multiply(java.math.BigDecimal.valueOf(s.generations()))
                                        .compareTo(new java.math.BigDecimal(eps))
                                <= 0);
                assertEquals(
                        s.finalEpsilon() / PrivGeneKMeans.PARENTS, s.selectionEpsilon(), 1e-15);
            }
        }
        double[][] pts = blobs(400);
        double[][] init = SnapshotStatistics.publicInitialCentroids(BOX, 2, 1);
        PrivGeneKMeans.Result strict =
                PrivGeneKMeans.strict(pts, init, BOX, 0.7, 1, TestRandoms.stream("pg"));
        assertEquals(0.7, strict.epsilon(), 1e-12);
        assertEquals("dp", strict.guarantee().wireName());
        PrivGeneKMeans.Result paper =
                PrivGeneKMeans.paper(pts, init, BOX, 0.7, 1, TestRandoms.stream("pg-paper"));
        assertEquals(0.7, paper.epsilon(), 1e-12);
        assertEquals("paper-claimed", paper.guarantee().wireName());
    }

    private static double[][] blobs(int n) {
        java.util.SplittableRandom g = new java.util.SplittableRandom(5); // public test data
        double[][] p = new double[n][];
        for (int i = 0; i < n; i++) {
            double cx = i % 2 == 0 ? 0.4 : 1.6;
            p[i] = new double[] {cx + 0.05 * g.nextGaussian(), -0.5 + 0.05 * g.nextGaussian()};
            BOX.clamp(p[i], p[i]);
        }
        return p;
    }

    @Test
    void withAmpleBudgetTheSelectionBeatsTheInitialCentroidsAndRandomCandidates() {
        double[][] pts = blobs(400);
        double[][] init = {{1.0, -0.9}, {1.1, -0.1}};
        PrivGeneKMeans.Schedule ample = new PrivGeneKMeans.Schedule(6, 50.0, 500.0);
        double[][] out =
                PrivGeneKMeans.run(pts, init, BOX, ample, 3, TestRandoms.stream("pg-ample"));
        double sse = -PrivGeneKMeans.utility(pts, out);
        double initSse = -PrivGeneKMeans.utility(pts, init);
        double lloydSse = Lloyd.runFrom(pts, init, 100).sse();
        System.out.println(
                "PrivGene ample budget: SSE " + sse + ", init " + initSse + ", Lloyd " + lloydSse);
        assertTrue(sse < initSse / 2, "SSE " + sse + " vs initial " + initSse);
        // with almost no budget the selection is near uniform: on average much worse than with
        // ample budget
        double tiny = 0;
        for (int r = 0; r < 5; r++) {
            tiny +=
                    -PrivGeneKMeans.utility(
                                    pts,
                                    PrivGeneKMeans.run(
                                            pts,
                                            init,
                                            BOX,
                                            new PrivGeneKMeans.Schedule(6, 1e-6, 1e-5),
                                            3 + r,
                                            TestRandoms.stream("pg-tiny" + r)))
                            / 5;
        }
        assertTrue(tiny > 2 * sse, "tiny-budget SSE " + tiny + " vs ample " + sse);
    }

    /**
     * The utility the mechanism sees is exact: bit-identical under any order of the records, within
     * n/2 grid units (+ the double evaluation of each term) of the exact BigDecimal SSE, and one
     * added record moves it by at most ⌈Δu/g⌉, below the mechanism's integer sensitivity Δu/g + 1
     * unit.
     */
    @Test
    void utilityUnitsAreExactOrderIndependentAndWithinOneGridUnitOfSensitivity() {
        double delta = PrivGeneKMeans.sensitivity(BOX);
        int grid = org.dpclust.privacy.ExponentialMechanism.gridExponent(delta);
        java.util.SplittableRandom g = new java.util.SplittableRandom(8); // public test data
        double[][] pts = new double[20_000][];
        for (int i = 0; i < pts.length; i++) {
            pts[i] = new double[] {2 * g.nextDouble(), -g.nextDouble()};
        }
        double[][] cand = {{0.3, -0.2}, {1.7, -0.9}, {1.0, -0.5}};
        long u = PrivGeneKMeans.utilityUnits(pts, cand, grid);
        List<double[]> shuffled = new ArrayList<>(java.util.Arrays.asList(pts));
        java.util.Collections.shuffle(shuffled, new java.util.Random(3));
        assertEquals(u, PrivGeneKMeans.utilityUnits(shuffled.toArray(new double[0][]), cand, grid));
        java.math.BigDecimal exact = java.math.BigDecimal.ZERO;
        for (double[] x : pts) {
            java.math.BigDecimal best = null;
            for (double[] c : cand) {
                java.math.BigDecimal s = java.math.BigDecimal.ZERO;
                for (int j = 0; j < 2; j++) {
                    java.math.BigDecimal t =
                            new java.math.BigDecimal(x[j]).subtract(new java.math.BigDecimal(c[j]));
                    s = s.add(t.multiply(t));
                }
                best = best == null || s.compareTo(best) < 0 ? s : best;
            }
            exact = exact.add(best);
        }
        double exactUnits = exact.doubleValue() / Math.scalb(1.0, grid);
        assertEquals(-exactUnits, u, pts.length * (0.5 + 1e-9));
        long gridSensitivity = org.dpclust.privacy.ExponentialMechanism.gridSensitivity(delta);
        double[][] worst = java.util.Arrays.copyOf(pts, pts.length + 1);
        worst[pts.length] = new double[] {0, -1}; // corner opposite every candidate below
        double[][] far = {{2, 0}};
        long change =
                PrivGeneKMeans.utilityUnits(pts, far, grid)
                        - PrivGeneKMeans.utilityUnits(worst, far, grid);
        assertEquals((long) Math.ceil(Math.scalb(delta, -grid)), change);
        assertTrue(change < gridSensitivity);
    }
}
