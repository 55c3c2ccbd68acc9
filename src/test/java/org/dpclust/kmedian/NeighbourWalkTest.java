package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.geometry.NearestPoint;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;

/** The neighbour-graph walk behind {@code hst.snap: walk}. */
class NeighbourWalkTest {
    private static final int D = SnapReference.D;
    private static final int N = SnapReference.N;

    private static final SnapReference REF = SnapReference.PINNED;
    private static final NeighbourWalk WALK =
            new NeighbourWalk(REF.tree, REF.pts, NeighbourWalk.DEFAULT_NEIGHBOURS);

    /**
     * The walk's placements of the 3,000 reference records, pinned: the hash below was computed at
     * commit 22cbc44, before the greedy start read the top levels from coordinate arrays. The rule
     * id ({@link NeighbourWalk#RULE}) is keyed into the dp-hst mechanism id and a stream's saved
     * parameters, so any change of where a record lands must come with a new rule id — this test
     * fails first.
     */
    @Test
    void placementsAreThoseTheRuleIdWasGivenFor() {
        assertEquals("walk-v1(neighbours=128,start_depth=2)", NeighbourWalk.RULE);
        assertEquals(8329021954023415496L, SnapReference.placementHash(WALK::nearest));
    }

    @Test
    void neighbourListsAreTheNearestPointsOrderedByDistanceThenIndex() {
        SplittableRandom r = new SplittableRandom(3); // public randomness (not privacy noise)
        for (int k = 0; k < 20; k++) {
            int p = r.nextInt(N);
            List<Integer> others = new ArrayList<>();
            for (int q = 0; q < N; q++) {
                if (q != p) {
                    others.add(q);
                }
            }
            others.sort(
                    Comparator.<Integer>comparingDouble(
                                    q -> ClusteringMetrics.squared(REF.pts[p], REF.pts[q]))
                            .thenComparingInt(q -> q));
            for (int j = 0; j < WALK.neighbours(); j++) {
                assertEquals(
                        (int) others.get(j), WALK.neighbour(p, j), "point " + p + " rank " + j);
            }
        }
    }

    @Test
    void agreesWithTheExactNearestPointOnAlmostAllRecordsAndIsNeverFartherThanItsStart() {
        HstDescent descent = new HstDescent(REF.tree, REF.pts);
        List<double[]> xs = SnapReference.records();
        int agree = 0;
        for (double[] x : xs) {
            int w = WALK.nearest(x);
            int exact = NearestPoint.of(REF.rows, D, x);
            agree += w == exact ? 1 : 0;
            int start = descent.greedyCentre(x, NeighbourWalk.START_DEPTH);
            assertTrue(
                    ClusteringMetrics.squared(REF.pts[w], x)
                            <= ClusteringMetrics.squared(REF.pts[start], x));
            for (int j = 0; j < WALK.neighbours(); j++) {
                assertTrue(
                        ClusteringMetrics.squared(REF.pts[WALK.neighbour(w, j)], x)
                                >= ClusteringMetrics.squared(REF.pts[w], x),
                        "a local minimum on the neighbour graph");
            }
        }
        // measured 0.98-0.99 on these records; the FRT descent agrees on about 0.2-0.26
        double rate = agree / (double) xs.size();
        assertTrue(rate >= 0.97, "agreement with the exact nearest point " + rate);
    }

    @Test
    void theSnapIsAFunctionOfTheRecordAloneWhateverTheOrderOrTheInstance() {
        SnapReference.assertAFunctionOfTheRecordAlone(
                WALK::nearest,
                new NeighbourWalk(REF.tree, REF.pts, NeighbourWalk.DEFAULT_NEIGHBOURS)::nearest);
    }

    @Test
    void nanAndInfiniteCoordinatesNeitherThrowNorLoop() {
        HstDescent descent = new HstDescent(REF.tree, REF.pts);
        double[] base = new double[D];
        Arrays.fill(base, 0.5);
        for (double bad :
                new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            for (int t : new int[] {0, D - 1}) {
                double[] x = base.clone();
                x[t] = bad;
                int p = WALK.nearest(x);
                // every distance is NaN or +inf: no move is strictly nearer, the walk stays at its
                // start
                assertEquals(descent.greedyCentre(x, NeighbourWalk.START_DEPTH), p);
            }
            double[] all = new double[D];
            Arrays.fill(all, bad);
            int p = WALK.nearest(all);
            assertTrue(p >= 0 && p < N);
            assertEquals(descent.greedyCentre(all, NeighbourWalk.START_DEPTH), p);
        }
        assertThrows(IllegalArgumentException.class, () -> WALK.nearest(new double[D - 1]));
    }

    @Test
    void refusesNoNeighbours() {
        assertThrows(IllegalArgumentException.class, () -> new NeighbourWalk(REF.tree, REF.pts, 0));
    }

    @Test
    void aSmallUniverseKeepsEveryOtherPointAndTheWalkIsThenExact() {
        for (int n : new int[] {1, 2, 40}) {
            double[][] pts = new double[n][];
            SplittableRandom r = new SplittableRandom(n); // public randomness (not privacy noise)
            double[] rows = new double[n * 3];
            for (int p = 0; p < n; p++) {
                pts[p] = new double[] {r.nextDouble(), r.nextDouble(), r.nextDouble()};
                System.arraycopy(pts[p], 0, rows, p * 3, 3);
            }
            Hst tree = Hst.build(VectorMetric.l2(pts), Math.sqrt(3), new Hst.Options(1, 12, true));
            NeighbourWalk w = new NeighbourWalk(tree, pts, NeighbourWalk.DEFAULT_NEIGHBOURS);
            assertEquals(n - 1, w.neighbours());
            for (int q = 0; q < 200; q++) {
                double[] x = {r.nextDouble(), r.nextDouble(), r.nextDouble()};
                // every point is a neighbour of every other: a local minimum is the global one
                assertEquals(NearestPoint.of(rows, 3, x), w.nearest(x));
            }
        }
    }
}
