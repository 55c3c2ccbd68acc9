package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * {@code auto}: the documented rule on public inputs, the decision made from the charged noisy
 * count only (two snapshots of the same size with different records get the same decision), the
 * data-free answer when the data are thin, and the budget split.
 */
class AutoAlgorithmTest {
    private static final int D = 4;
    private static final DomainBounds BOX = box(D);

    private static DomainBounds box(int d) {
        double[] hi = new double[d];
        java.util.Arrays.fill(hi, 1);
        return new DomainBounds(new double[d], hi);
    }

    private static BatchParams params(double epsilon) {
        return new BatchParams(3, epsilon, BOX, 7, 5, 64, Double.NaN, 1);
    }

    private static double[][] points(int n, long seed, double spread) {
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        double[][] p = new double[n][D];
        for (double[] x : p) {
            for (int j = 0; j < D; j++) {
                x[j] = 0.5 + spread * (rng.nextDouble() - 0.5);
            }
        }
        return p;
    }

    @Test
    void theRuleFollowsTheSignalOfTheNoisyCount() {
        // x = n eps / d: 4 -> data-free; 1000 per cluster at eps 1 -> stats-refine
        assertEquals("public-centre", AutoAlgorithm.choose(params(1), 1, 16).algorithm());
        assertEquals("public-centre", AutoAlgorithm.choose(params(1), 1, -50).algorithm());
        assertEquals("stats-refine", AutoAlgorithm.choose(params(1), 1, 3000).algorithm());
        // 150 records at eps 1 in d = 4: stats with k * round(37.5 / 25) = 6 cells
        AutoAlgorithm.Choice mid = AutoAlgorithm.choose(params(1), 1, 150);
        assertEquals("stats", mid.algorithm());
        assertEquals(6, mid.params().cells());
        assertEquals(1.0, mid.params().epsilon(), 0);
        // higher d with a strong signal: the default cells
        BatchParams d13 = new BatchParams(3, 1, box(13), 7, 5, 64, Double.NaN, 1);
        AutoAlgorithm.Choice high = AutoAlgorithm.choose(d13, 1, 500);
        assertEquals("stats", high.algorithm());
        assertEquals(BatchParams.defaultCells(3), high.params().cells());
        // many clusters: stats-nested with the default coarse cells from k = 48, whatever the
        // signal, unless the data are too thin for anything but the data-free answer
        for (int k : new int[] {AutoAlgorithm.K_NESTED, 64, 200}) {
            BatchParams many =
                    new BatchParams(
                            k, 1, box(10), 7, 5, BatchParams.defaultCells(k), Double.NaN, 1);
            AutoAlgorithm.Choice c = AutoAlgorithm.choose(many, 1, 100_000);
            assertEquals("stats-nested", c.algorithm(), "k = " + k);
            assertEquals(BatchParams.defaultCells(k), c.params().cells());
            assertEquals("public-centre", AutoAlgorithm.choose(many, 1, 50).algorithm());
        }
        // high dimension: stats-proj-refine from y = (n/k) eps / d >= 14.5, else stats-proj from
        // k = 16
        for (int d : new int[] {AutoAlgorithm.D_PROJ, 100}) {
            for (int k : new int[] {AutoAlgorithm.K_PROJ, 64}) {
                BatchParams wide =
                        new BatchParams(
                                k, 1, box(d), 7, 5, BatchParams.defaultCells(k), Double.NaN, 1);
                long strong = (long) Math.ceil(AutoAlgorithm.Y_PROJ_REFINE * k * d);
                AutoAlgorithm.Choice c = AutoAlgorithm.choose(wide, 1, strong);
                assertEquals("stats-proj-refine", c.algorithm(), "d = " + d + ", k = " + k);
                assertEquals(BatchParams.defaultCells(k), c.params().cells());
                AutoAlgorithm.Choice weak = AutoAlgorithm.choose(wide, 1, strong - 1);
                assertEquals("stats-proj", weak.algorithm(), "d = " + d + ", k = " + k);
                assertEquals(BatchParams.defaultCells(k), weak.params().cells());
                assertEquals("public-centre", AutoAlgorithm.choose(wide, 1, 50).algorithm());
            }
        }
        // a per-cluster signal y below √6 is mostly noise (x = 156 here): the data-free answer
        BatchParams k64 = new BatchParams(64, 1, box(100), 7, 5, 1024, Double.NaN, 1);
        long edge = (long) Math.ceil(AutoAlgorithm.Y_DATA_FREE * 64 * 100);
        assertEquals("stats-proj", AutoAlgorithm.choose(k64, 1, edge).algorithm());
        assertEquals("public-centre", AutoAlgorithm.choose(k64, 1, edge - 1).algorithm());
        assertEquals(Math.sqrt(6), AutoAlgorithm.Y_DATA_FREE, 1e-15);
        // exactly at √6 (n̂/k = 32, d = 32, ε = √6: powers of two) the signal is enough
        BatchParams d32 = new BatchParams(64, 1, box(32), 7, 5, 1024, Double.NaN, 1);
        assertEquals(
                "stats-proj",
                AutoAlgorithm.choose(d32, AutoAlgorithm.Y_DATA_FREE, 2048).algorithm());
        assertEquals(
                "public-centre",
                AutoAlgorithm.choose(d32, Math.nextDown(AutoAlgorithm.Y_DATA_FREE), 2048)
                        .algorithm());
        // below d = 32 (not measured there) the rule does not apply: stats-nested at k = 64
        BatchParams low = new BatchParams(64, 1, box(31), 7, 5, 1024, Double.NaN, 1);
        assertEquals("stats-nested", AutoAlgorithm.choose(low, 1, 3000).algorithm());
        BatchParams d31 =
                new BatchParams(64, 1, box(AutoAlgorithm.D_PROJ - 1), 7, 5, 1024, Double.NaN, 1);
        assertEquals("stats-nested", AutoAlgorithm.choose(d31, 1, 100_000).algorithm());
        BatchParams k15 =
                new BatchParams(AutoAlgorithm.K_PROJ - 1, 1, box(100), 7, 5, 240, Double.NaN, 1);
        assertEquals("stats-proj-refine", AutoAlgorithm.choose(k15, 3, 100_000).algorithm());
        // few clusters below the signal: the rule for lower dimension (x = 100, y = 6.7: stats)
        assertEquals("stats", AutoAlgorithm.choose(k15, 1, 10_000).algorithm());
        BatchParams k47 =
                new BatchParams(AutoAlgorithm.K_NESTED - 1, 1, box(10), 7, 5, 64, Double.NaN, 1);
        assertEquals("stats-refine", AutoAlgorithm.choose(k47, 1, 100_000).algorithm());
    }

    @Test
    void theDecisionSeesOnlyTheNoisyCount() {
        AutoAlgorithm auto = new AutoAlgorithm();
        for (int n : new int[] {40, 400, 4000}) {
            BatchResult a = auto.run(points(n, 1, 0.2), params(1), TestRandoms.stream("auto-" + n));
            BatchResult b = auto.run(points(n, 2, 0.9), params(1), TestRandoms.stream("auto-" + n));
            assertEquals(
                    a.parameters().get("auto_noisy_count"), b.parameters().get("auto_noisy_count"));
            assertEquals(a.parameters().get("auto_choice"), b.parameters().get("auto_choice"));
            assertEquals(a.parameters().get("cells"), b.parameters().get("cells"));
            AutoAlgorithm.Choice c =
                    AutoAlgorithm.choose(
                            params(1),
                            1 - AutoAlgorithm.SIZE_SHARE,
                            a.parameters().get("auto_noisy_count").longValue());
            assertEquals(
                    AutoAlgorithm.CANDIDATES.indexOf(c.algorithm()),
                    a.parameters().get("auto_choice").intValue(),
                    "n = " + n);
        }
    }

    @Test
    void thinDataGetTheDataFreeAnswerAndTheBudgetIsSplit() {
        AutoAlgorithm auto = new AutoAlgorithm();
        BatchResult thin = auto.run(points(10, 3, 0.2), params(1), TestRandoms.stream("thin"));
        assertEquals(0, thin.parameters().get("auto_choice").intValue());
        for (double[] c : thin.centroids()) {
            assertArrayEquals(new double[] {0.5, 0.5, 0.5, 0.5}, c, 0);
        }
        // the data-free answer spends nothing, but the noisy count that chose it did
        assertEquals(AutoAlgorithm.SIZE_SHARE, thin.parameters().get("epsilon_spent"), 1e-12);
        BatchResult rich = auto.run(points(3000, 3, 0.2), params(2), TestRandoms.stream("rich"));
        assertNotEquals(0, rich.parameters().get("auto_choice").intValue());
        assertEquals(
                2 * AutoAlgorithm.SIZE_SHARE, rich.parameters().get("auto_epsilon_count"), 1e-12);
        // stats-refine's own stats share of what is left: (1 - share) eps / 2
        assertEquals(
                2 * (1 - AutoAlgorithm.SIZE_SHARE) * StatsRefineAlgorithm.STATS_SHARE,
                rich.parameters().get("epsilon_stats"),
                1e-12);
        assertTrue(rich.centroids().length == 3);
    }
}
