package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.kmedian.SnapReference;
import org.junit.jupiter.api.Test;

/** The pivot lists behind {@code hst.snap: pivot}. */
class PivotListIndexTest {
    private static final int D = SnapReference.D;
    private static final int N = SnapReference.N;

    private static final SnapReference REF = SnapReference.PINNED;
    private static final PivotListIndex INDEX = new PivotListIndex(REF.pts);

    /**
     * The placements of the 3,000 reference records, pinned when the rule was added. The rule id
     * ({@link PivotListIndex#RULE}) is keyed into the dp-hst mechanism id and a stream's saved
     * parameters, so any change of where a record lands must come with a new rule id — this test
     * fails first.
     */
    @Test
    void placementsAreThoseTheRuleIdWasGivenFor() {
        assertEquals(
                "pivot-v1(pivots=128,list=512,list_key=float32_relative)", PivotListIndex.RULE);
        assertEquals(537231312307674556L, SnapReference.placementHash(INDEX::nearest));
    }

    /**
     * Every answer is the rule of the class comment, computed the plain way: pivots by a
     * farthest-point traversal, lists sorted by (distance, index), the nearest pivot in double and
     * the list entry with the least float key, first on ties — on the reference records, the points
     * of U, and vectors with one odd coordinate.
     */
    @Test
    void answersAreThoseOfThePlainDefinition() {
        Plain plain = new Plain(REF.pts, PivotListIndex.PIVOTS, PivotListIndex.LIST);
        List<double[]> xs = new ArrayList<>(SnapReference.records());
        for (int p = 0; p < N; p += 7) {
            xs.add(REF.pts[p].clone());
        }
        xs.addAll(oddVectors(D));
        for (int i = 0; i < xs.size(); i++) {
            assertEquals(plain.nearest(xs.get(i)), INDEX.nearest(xs.get(i)), "vector " + i);
        }
    }

    @Test
    void agreesWithTheExactNearestPointOnAlmostAllRecords() {
        List<double[]> xs = SnapReference.records();
        int agree = 0;
        for (double[] x : xs) {
            agree += INDEX.nearest(x) == NearestPoint.of(REF.rows, D, x) ? 1 : 0;
        }
        // the pivot's list holds the exact nearest point for most records; measured 0.98 here
        double rate = agree / (double) xs.size();
        assertTrue(rate >= 0.97, "agreement with the exact nearest point " + rate);
    }

    @Test
    void theAnswerIsAFunctionOfTheRecordAloneWhateverTheOrderOrTheInstance() {
        SnapReference.assertAFunctionOfTheRecordAlone(
                INDEX::nearest, new PivotListIndex(REF.pts)::nearest);
    }

    @Test
    void nanAndInfiniteCoordinatesFallBackToTheFirstPivotsFirstEntry() {
        double[] base = new double[D];
        Arrays.fill(base, 0.5);
        for (double bad :
                new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            for (int t : new int[] {0, D - 1}) {
                double[] x = base.clone();
                x[t] = bad;
                // every distance is NaN or +inf: no comparison is true; point 0 is the first
                // pivot and first in its own list
                assertEquals(0, INDEX.nearest(x), bad + " at " + t);
            }
            double[] all = new double[D];
            Arrays.fill(all, bad);
            assertEquals(0, INDEX.nearest(all), "all " + bad);
        }
        assertThrows(IllegalArgumentException.class, () -> INDEX.nearest(new double[D - 1]));
    }

    @Test
    void aUniverseNoLargerThanAListIsSearchedWhole() {
        for (int n : new int[] {1, 2, 3, 40, 200, 600}) {
            for (int d : new int[] {1, 2, 3, 4}) {
                SplittableRandom r = new SplittableRandom(n * 31L + d); // public randomness
                double[][] pts = new double[n][d];
                double[] rows = new double[n * d];
                for (int p = 0; p < n; p++) {
                    for (int t = 0; t < d; t++) {
                        pts[p][t] = r.nextDouble();
                    }
                    System.arraycopy(pts[p], 0, rows, p * d, d);
                }
                PivotListIndex index = new PivotListIndex(pts);
                Plain plain = new Plain(pts, PivotListIndex.PIVOTS, PivotListIndex.LIST);
                int exact = 0;
                for (int q = 0; q < 300; q++) {
                    double[] x = new double[d];
                    for (int t = 0; t < d; t++) {
                        x[t] = r.nextDouble() * 1.2 - 0.1;
                    }
                    int u = index.nearest(x);
                    assertEquals(plain.nearest(x), u, "n " + n + " d " + d + " query " + q);
                    if (n <= PivotListIndex.LIST) {
                        // every point is in every list: the answer has the least key over U
                        double[] b = pts[plain.pivotOf(x)];
                        float best = Float.POSITIVE_INFINITY;
                        for (double[] p : pts) {
                            best = Math.min(best, Plain.key(p, b, x));
                        }
                        assertEquals(best, Plain.key(pts[u], b, x), "n " + n);
                    }
                    exact += u == NearestPoint.of(rows, d, x) ? 1 : 0;
                }
                if (n <= PivotListIndex.LIST) {
                    assertTrue(exact >= 297, "n " + n + " d " + d + ": " + exact + " of 300");
                }
            }
        }
    }

    /**
     * Indexes of different sizes used in turn on one thread, and one index on two threads at once,
     * answer as each does alone (the per-thread scratch rows are sized for the largest and fully
     * written before they are read).
     */
    @Test
    void scratchRowsSharedByIndexesAndThreadsDoNotChangeAnswers() throws Exception {
        double[][] small = Arrays.copyOf(REF.pts, 200);
        PivotListIndex smallIndex = new PivotListIndex(small);
        List<double[]> xs = SnapReference.records();
        int[] big = new int[xs.size()];
        int[] little = new int[xs.size()];
        for (int i = 0; i < xs.size(); i++) {
            big[i] = INDEX.nearest(xs.get(i));
        }
        for (int i = 0; i < xs.size(); i++) {
            little[i] = smallIndex.nearest(xs.get(i));
        }
        for (int i = 0; i < xs.size(); i++) {
            assertEquals(little[i], smallIndex.nearest(xs.get(i)), "small, record " + i);
            assertEquals(big[i], INDEX.nearest(xs.get(i)), "large, record " + i);
        }
        java.util.concurrent.ExecutorService pool =
                java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<int[]>> runs = new ArrayList<>();
            for (int thread = 0; thread < 2; thread++) {
                runs.add(
                        pool.submit(
                                () -> {
                                    int[] out = new int[xs.size()];
                                    for (int rep = 0; rep < 3; rep++) {
                                        for (int i = 0; i < xs.size(); i++) {
                                            out[i] = INDEX.nearest(xs.get(i));
                                        }
                                    }
                                    return out;
                                }));
            }
            for (java.util.concurrent.Future<int[]> run : runs) {
                assertArrayEquals(big, run.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void refusesAnEmptyRaggedCoordinatelessOrTooLargeUniverse() {
        assertThrows(IllegalArgumentException.class, () -> new PivotListIndex(new double[0][]));
        assertThrows(IllegalArgumentException.class, () -> new PivotListIndex(new double[][] {{}}));
        assertThrows(
                IllegalArgumentException.class,
                () -> new PivotListIndex(new double[PivotListIndex.MAX_UNIVERSE + 1][1]));
        assertThrows(
                IllegalArgumentException.class,
                () -> new PivotListIndex(new double[][] {{0, 0}, {1}}));
    }

    /** Vectors with one NaN, ±∞, huge, tiny or negative-zero coordinate, and the box's corners. */
    private static List<double[]> oddVectors(int d) {
        List<double[]> out = new ArrayList<>();
        double[] odd = {
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            1e200,
            -1e200,
            1e30,
            Double.MAX_VALUE,
            Double.MIN_VALUE,
            -0.0,
            0.5000000000000001
        };
        SplittableRandom r = new SplittableRandom(9); // public randomness (not privacy noise)
        for (double v : odd) {
            for (int t : new int[] {0, d / 2, d - 1}) {
                double[] x = new double[d];
                for (int i = 0; i < d; i++) {
                    x[i] = r.nextDouble();
                }
                x[t] = v;
                out.add(x);
            }
        }
        out.add(new double[d]);
        double[] ones = new double[d];
        Arrays.fill(ones, 1.0);
        out.add(ones);
        return out;
    }

    /** The rule written out plainly, without the coordinate arrays or the scratch rows. */
    private static final class Plain {
        private final double[][] pts;
        private final int[] pivots;
        private final int[][] lists;

        Plain(double[][] pts, int pivotCount, int listSize) {
            this.pts = pts;
            int n = pts.length;
            pivotCount = Math.min(pivotCount, n);
            listSize = Math.min(listSize, n);
            pivots = new int[pivotCount];
            double[] toChosen = new double[n];
            Arrays.fill(toChosen, Double.POSITIVE_INFINITY);
            int next = 0;
            for (int i = 0; i < pivotCount; i++) {
                pivots[i] = next;
                for (int q = 0; q < n; q++) {
                    toChosen[q] = Math.min(toChosen[q], doubleDistance(pts[q], pts[pivots[i]]));
                }
                next = 0;
                for (int q = 1; q < n; q++) {
                    if (toChosen[q] > toChosen[next]) {
                        next = q;
                    }
                }
            }
            lists = new int[pivotCount][];
            for (int i = 0; i < pivotCount; i++) {
                double[] b = pts[pivots[i]];
                Integer[] order = new Integer[n];
                for (int q = 0; q < n; q++) {
                    order[q] = q;
                }
                Arrays.sort(
                        order,
                        (u, v) -> {
                            int c =
                                    Double.compare(
                                            doubleDistance(pts[u], b), doubleDistance(pts[v], b));
                            return c != 0 ? c : Integer.compare(u, v);
                        });
                lists[i] = new int[listSize];
                for (int j = 0; j < listSize; j++) {
                    lists[i][j] = order[j];
                }
            }
        }

        int pivotOf(double[] x) {
            int b = 0;
            for (int i = 1; i < pivots.length; i++) {
                if (doubleDistance(pts[pivots[i]], x) < doubleDistance(pts[pivots[b]], x)) {
                    b = i;
                }
            }
            return pivots[b];
        }

        int nearest(double[] x) {
            int b = 0;
            for (int i = 1; i < pivots.length; i++) {
                if (doubleDistance(pts[pivots[i]], x) < doubleDistance(pts[pivots[b]], x)) {
                    b = i;
                }
            }
            int[] list = lists[b];
            double[] pivot = pts[pivots[b]];
            int best = 0;
            for (int j = 1; j < list.length; j++) {
                if (key(pts[list[j]], pivot, x) < key(pts[list[best]], pivot, x)) {
                    best = j;
                }
            }
            return list[best];
        }

        /** Σ_t (p_t − x_t)² in double, index order. */
        static double doubleDistance(double[] p, double[] x) {
            double s = 0;
            for (int t = 0; t < p.length; t++) {
                double e = p[t] - x[t];
                s += e * e;
            }
            return s;
        }

        /**
         * The float key of u for x at pivot b: with r = u − b and y = −2(x − b) rounded to float,
         * the norm of r (pairs' r·r in pair order), then each pair's r·y added onto it in pair
         * order (an odd last coordinate alone).
         */
        static float key(double[] u, double[] b, double[] x) {
            int d = u.length;
            float[] r = new float[d];
            float[] y = new float[d];
            for (int t = 0; t < d; t++) {
                r[t] = (float) (u[t] - b[t]);
                y[t] = (float) (-2 * (x[t] - b[t]));
            }
            float k = 0; // the norm: r_t² + r_{t+1}² per pair, the pairs summed in order
            int s = 0;
            for (; s + 1 < d; s += 2) {
                float pair = r[s] * r[s] + r[s + 1] * r[s + 1];
                k = s == 0 ? pair : k + pair;
            }
            if (s < d) {
                k = s == 0 ? r[s] * r[s] : k + r[s] * r[s];
            }
            int t = 0;
            for (; t + 1 < d; t += 2) {
                k += r[t] * y[t] + r[t + 1] * y[t + 1];
            }
            if (t < d) {
                k += r[t] * y[t];
            }
            return k;
        }
    }
}
