package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

public class KMedianAlgorithmTest {
    /** A 3 x 3 grid around each of 3 well-separated cluster centres: 27 public points. */
    public static double[][] universe() {
        double[][] centres = {{0, 0}, {100, 0}, {0, 100}};
        double[][] u = new double[27][];
        int i = 0;
        for (double[] c : centres) {
            for (int dx = -1; dx <= 1; dx++) {
                for (int dy = -1; dy <= 1; dy++) {
                    u[i++] = new double[] {c[0] + dx, c[1] + dy};
                }
            }
        }
        return u;
    }

    /** 90 demand records near the three centres (not on U: they get snapped). */
    public static double[][] demand() {
        SplittableRandom rng = new SplittableRandom(5);
        double[][] centres = {{0, 0}, {100, 0}, {0, 100}};
        return IntStream.range(0, 90)
                .mapToObj(
                        i ->
                                new double[] {
                                    centres[i % 3][0] + rng.nextDouble() * 2 - 1,
                                    centres[i % 3][1] + rng.nextDouble() * 2 - 1
                                })
                .toArray(double[][]::new);
    }

    static BatchParams params(double epsilon, KMedianUniverse u) {
        return new BatchParams(3, epsilon, null, 11L, 1, BatchParams.defaultCells(3), Double.NaN, 1)
                .withUniverse(u);
    }

    static BatchResult release(String name, double epsilon, KMedianUniverse u) {
        return SnapshotRelease.run(
                        BatchAlgorithms.get(name),
                        params(epsilon, u),
                        demand(),
                        "test-stream",
                        new PrivacyLedger.Interval(0, 1),
                        null,
                        TestRandoms.SECRET)
                .result();
    }

    /** Which of the three clusters each centroid lies in (by its x, y). */
    public static int[] clusters(double[][] centroids) {
        return Arrays.stream(centroids)
                .mapToInt(c -> c[0] > 50 ? 1 : c[1] > 50 ? 2 : 0)
                .sorted()
                .toArray();
    }

    @Test
    void theFourAlgorithmsAreRegisteredWithTheirGuarantees() {
        assertEquals("none", BatchAlgorithms.get("kmedian++").guarantee().wireName());
        assertEquals("none", BatchAlgorithms.get("local-search").guarantee().wireName());
        assertEquals("dp", BatchAlgorithms.get("dp-local-search").guarantee().wireName());
        assertEquals("dp", BatchAlgorithms.get("dp-hst-local-search").guarantee().wireName());
    }

    @Test
    void everyAlgorithmReturnsKDistinctUniversePointsAndTheSearchesFindTheThreeClusters() {
        KMedianUniverse u = KMedianUniverse.vectors(universe(), KMedianUniverse.Kind.L1);
        for (String name :
                new String[] {
                    "kmedian++", "local-search", "dp-local-search", "dp-hst-local-search"
                }) {
            // large epsilon: the exponential mechanism concentrates on the best swaps
            BatchResult r = release(name, 200, u);
            assertEquals(3, r.centroids().length, name);
            assertEquals(
                    3, Arrays.stream(r.centroids()).map(Arrays::toString).distinct().count(), name);
            for (double[] c : r.centroids()) {
                assertTrue(
                        Arrays.stream(universe()).anyMatch(p -> Arrays.equals(p, c)),
                        name + ": not in U: " + Arrays.toString(c));
            }
            if (!name.equals("kmedian++")) {
                assertArrayEquals(
                        new int[] {0, 1, 2}, clusters(r.centroids()), name + " misses a cluster");
            }
            assertEquals(204, r.parameters().get("delta"), 1e-9, name + ": exact l1 diameter of U");
        }
    }

    @Test
    void privateOutputsCarryNoCostAndAreReproducibleForTheSameSnapshot() {
        KMedianUniverse u = KMedianUniverse.vectors(universe(), KMedianUniverse.Kind.L2);
        for (String name : new String[] {"dp-local-search", "dp-hst-local-search"}) {
            BatchResult a = release(name, 1, u);
            BatchResult b = release(name, 1, u);
            assertTrue(Arrays.deepEquals(a.centroids(), b.centroids()), name + ": replay differs");
            assertFalse(a.parameters().containsKey("cost"), name + " leaks the (private) cost");
            assertArrayEquals(new double[3], a.weights(), name + ": weights are not released");
        }
        BatchResult ls = release("local-search", 1, u);
        assertEquals(90, Arrays.stream(ls.weights()).sum(), 1e-9);
        assertTrue(ls.parameters().get("cost") <= ls.parameters().get("initial_cost"));
    }

    @Test
    void aGraphUniverseTakesNodeIds() {
        // two triangles joined by a long edge
        KMedianUniverse g =
                KMedianUniverse.graph(
                        6,
                        new int[] {0, 1, 2, 3, 4, 5, 2},
                        new int[] {1, 2, 0, 4, 5, 3, 3},
                        new double[] {1, 1, 1, 1, 1, 1, 50});
        assertEquals(52, g.diameter(), 1e-9);
        double[][] nodes = {{0}, {1}, {1}, {2}, {3}, {4}, {4}, {5}};
        BatchParams p = new BatchParams(2, 50, null, 3L, 1, 64, Double.NaN, 1).withUniverse(g);
        BatchResult r =
                SnapshotRelease.run(
                                BatchAlgorithms.get("dp-hst-local-search"),
                                p,
                                nodes,
                                "g",
                                new PrivacyLedger.Interval(0, 1),
                                null,
                                TestRandoms.SECRET)
                        .result();
        assertEquals(2, r.centroids().length);
        double[] ids = Arrays.stream(r.centroids()).mapToDouble(c -> c[0]).sorted().toArray();
        assertTrue(ids[0] <= 2 && ids[1] >= 3, "one centre per triangle: " + Arrays.toString(ids));
        assertThrows(IllegalArgumentException.class, () -> g.snap(new double[][] {{6}}));
        assertThrows(IllegalArgumentException.class, () -> g.snap(new double[][] {{1.5}}));
    }

    @Test
    void withoutAUniverseTheErrorNamesTheOption() {
        BatchParams p = new BatchParams(3, 1, null, 1L, 1, 64, Double.NaN, 1);
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> BatchAlgorithms.get("local-search").run(demand(), p, null));
        assertTrue(e.getMessage().startsWith("--universe"), e.getMessage());
    }
}
