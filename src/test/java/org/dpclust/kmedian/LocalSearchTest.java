package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class LocalSearchTest {

    private static int[] swapped(int[] f, int i, int y) {
        int[] g = f.clone();
        g[i] = y;
        return g;
    }

    @Test
    void fastSwapEvaluationEqualsNaiveCost() {
        SplittableRandom rng = new SplittableRandom(5);
        for (int trial = 0; trial < 30; trial++) {
            int n = 10 + rng.nextInt(60);
            Metric m =
                    rng.nextBoolean()
                            ? VectorMetric.l1(HstTest.randomPoints(n, 3, trial))
                            : VectorMetric.l2(HstTest.randomPoints(n, 3, trial));
            int[] demand = rng.ints(5 + rng.nextInt(40), 0, n).toArray();
            int power = 1 + rng.nextInt(2);
            DemandCosts c = DemandCosts.of(m, demand, power, m.diameterUpperBound());
            int k = 1 + rng.nextInt(Math.min(8, n - 1));
            int[] f =
                    KMedianPlusPlus.select(
                            m, java.util.stream.IntStream.range(0, n).toArray(), k, 1, rng);
            int e = c.gridExponent() - rng.nextInt(31);
            SwapState s = new SwapState(c, f, e);
            assertEquals(c.costUnits(f, e), s.cost());
            // each entry rounds by at most half a unit
            assertEquals(
                    c.cost(f),
                    Math.scalb((double) s.cost(), e),
                    demand.length * Math.scalb(0.5, e) + 1e-9 * c.cost(f));
            long[] deltas = new long[k];
            for (int y = 0; y < n; y++) {
                if (s.isCentre(y)) {
                    continue;
                }
                s.swapDeltas(y, deltas);
                for (int i = 0; i < k; i++) {
                    long naive = c.costUnits(swapped(f, i, y), e);
                    assertEquals(naive, s.cost() + deltas[i], "trial " + trial);
                }
            }
            int y = 0;
            while (s.isCentre(y)) {
                y++;
            }
            s.swap(0, y);
            assertEquals(c.costUnits(swapped(f, 0, y), e), s.cost());
        }
    }

    @Test
    void localSearchStopsAtALocalOptimum() {
        double alpha = 1e-3;
        for (long seed = 0; seed < 4; seed++) {
            Metric m = VectorMetric.l2(HstTest.randomPoints(60, 2, 100 + seed));
            int[] demand = new SplittableRandom(seed).ints(40, 0, 60).toArray();
            DemandCosts c = DemandCosts.of(m, demand, 1 + (int) (seed % 2), m.diameterUpperBound());
            int k = 4;
            int[] init = {0, 1, 2, 3};
            LocalSearch.Result r = LocalSearch.run(c, init, alpha, 1000);
            assertTrue(r.converged());
            assertTrue(r.iterations() > 0, "random start should be improvable");
            assertTrue(r.cost() < r.initialCost());
            double cost = c.cost(r.centres());
            assertEquals(cost, r.cost(), 1e-9 * cost);
            int[] f = r.centres();
            for (int i = 0; i < k; i++) {
                for (int y = 0; y < m.size(); y++) {
                    int yy = y;
                    if (Arrays.stream(f).anyMatch(x -> x == yy)) {
                        continue;
                    }
                    double after = c.cost(swapped(f, i, y));
                    assertTrue(
                            after > (1 - alpha / k) * cost - 1e-9 * cost,
                            "swap " + i + "->" + y + " improves " + cost + " to " + after);
                }
            }
            // and the cap is honoured
            LocalSearch.Result capped = LocalSearch.run(c, init, alpha, 1);
            assertEquals(1, capped.iterations());
        }
    }

    @Test
    void kMedianPlusPlusReturnsDistinctPointsOnePerCluster() {
        Metric m = VectorMetric.l2(HstInitializerTest.clusters(4, 25, 9));
        int[] all = java.util.stream.IntStream.range(0, 100).toArray();
        SplittableRandom rng = new SplittableRandom(1);
        int hits = 0;
        for (int rep = 0; rep < 50; rep++) {
            int[] f = KMedianPlusPlus.select(m, all, 4, 2, rng);
            assertEquals(4, Arrays.stream(f).distinct().count());
            hits += Arrays.stream(f).map(x -> x / 25).distinct().count() == 4 ? 1 : 0;
        }
        assertTrue(
                hits >= 45, "D² sampling should nearly always hit all separated clusters: " + hits);
        int[] dup = {3, 3, 3, 7};
        assertEquals(
                2, Arrays.stream(KMedianPlusPlus.select(m, dup, 2, 1, rng)).distinct().count());
    }

    @Test
    void dpLocalSearchOutputsOneOfItsIteratesAndImprovesAtLargeEpsilon() {
        Metric m = VectorMetric.l2(HstInitializerTest.clusters(3, 20, 4));
        int[] demand = java.util.stream.IntStream.range(0, 60).toArray();
        DemandCosts c = DemandCosts.of(m, demand, 1, m.diameterUpperBound());
        int[] init = {0, 1, 2}; // all in cluster 0
        DpLocalSearch.Result r = DpLocalSearch.run(c, init, 1e4, 6, TestRandoms.stream("dpls-run"));
        assertEquals(7, r.iterates().size());
        assertTrue(Arrays.equals(r.centres(), r.iterates().get(r.chosenIterate())));
        assertTrue(
                c.cost(r.centres()) < 0.2 * c.cost(init),
                c.cost(r.centres()) + " vs " + c.cost(init));
        Hst t = Hst.build(m, m.diameterUpperBound(), new Hst.Options(2, 8, true));
        DpHstLocalSearch.Result combined =
                DpHstLocalSearch.run(t, demand, c, 3, 1e4, 4, TestRandoms.stream("dphst-run"));
        assertEquals(3, Arrays.stream(combined.search().centres()).distinct().count());
        assertEquals(5, combined.search().iterates().size());
    }

    /**
     * Private costs are exact: the same under any order of the demand points, within |D|/2 units of
     * the exact BigDecimal sum of the float entries, and one demand point at distance Δ moves them
     * by ⌈Δ/g⌉ units, below the exponential mechanism's integer sensitivity.
     */
    @Test
    void privateCostsAreExactOrderIndependentAndBelowTheGridSensitivity() {
        Metric m = VectorMetric.l2(HstTest.randomPoints(300, 3, 9));
        SplittableRandom r = new SplittableRandom(4);
        int[] demand = r.ints(50_000, 0, 300).toArray();
        double delta = m.diameterUpperBound();
        DemandCosts c = DemandCosts.of(m, demand, 1, delta);
        int[] f = {3, 77, 150, 299};
        int e = c.gridExponent();
        int[] shuffled = demand.clone();
        for (int i = shuffled.length - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        DemandCosts cs = DemandCosts.of(m, shuffled, 1, delta);
        assertEquals(c.costUnits(f, e), cs.costUnits(f, e));
        assertEquals(c.costUnits(f, e), new SwapState(cs, f, e).cost());
        java.math.BigDecimal exact = java.math.BigDecimal.ZERO;
        for (int j = 0; j < demand.length; j++) {
            double best = Double.POSITIVE_INFINITY;
            for (int x : f) {
                best = Math.min(best, c.cost(j, x));
            }
            exact = exact.add(new java.math.BigDecimal(best));
        }
        double exactUnits = exact.doubleValue() / Math.scalb(1.0, e);
        assertEquals(exactUnits, c.costUnits(f, e), demand.length * 0.5);
        // a demand point at distance diam from its nearest centre: the largest possible move
        int[] pair = {0, 0};
        for (int a = 0; a < 300; a++) {
            for (int b = 0; b < 300; b++) {
                if (m.distance(a, b) > m.distance(pair[0], pair[1])) {
                    pair = new int[] {a, b};
                }
            }
        }
        DemandCosts one = DemandCosts.of(m, new int[] {pair[0]}, 1, m.distance(pair[0], pair[1]));
        long move = one.costUnits(new int[] {pair[1]}, one.gridExponent());
        long grid = org.dpclust.privacy.ExponentialMechanism.gridSensitivity(one.sensitivity());
        assertTrue(move <= grid - 1, move + " units vs integer sensitivity " + grid);
        assertTrue(move >= grid - 2, "the bound is nearly attained: " + move);
    }
}
