package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.dpclust.geometry.VectorMetric;
import org.junit.jupiter.api.Test;

/** Descending an l2 HST for arbitrary vectors ({@link HstDescent}). */
class HstDescentTest {

    /**
     * The rule of the class comment, written plainly: "within the radius" with the metric's own
     * distance, "nearest" (and its ties) on the summed squares.
     */
    private static int referenceLeaf(Hst t, double[][] pts, double[] x) {
        VectorMetric vm = VectorMetric.l2(pts);
        int v = t.root();
        while (!t.isLeaf(v)) {
            int[] ch = t.children(v);
            double r = t.splitRadius(v);
            int next = -1;
            int nearest = ch[0];
            double nearestSq = Double.POSITIVE_INFINITY;
            for (int c : ch) {
                double[] p = pts[t.centre(c)];
                if (vm.between(p, x) <= r) {
                    next = c;
                    break;
                }
                double sq = squared(p, x);
                if (sq < nearestSq) {
                    nearestSq = sq;
                    nearest = c;
                }
            }
            v = next >= 0 ? next : nearest;
        }
        return v;
    }

    /** Squared distance summed in index order, as the rule sums it. */
    private static double squared(double[] p, double[] x) {
        double sq = 0;
        for (int j = 0; j < x.length; j++) {
            sq += (p[j] - x[j]) * (p[j] - x[j]);
        }
        return sq;
    }

    private static void assertOwnLeaves(double[][] pts, double delta, Hst.Options o) {
        Hst t = Hst.build(VectorMetric.l2(pts), delta, o);
        HstDescent descent = new HstDescent(t, pts);
        for (int x = 0; x < pts.length; x++) {
            assertEquals(t.leafOf(x), descent.leaf(pts[x]), "point " + x + " of U, " + o);
            assertEquals(t.leafOf(x), t.leafOf(descent.leafCentre(pts[x])));
        }
    }

    @Test
    void everyPointOfTheUniverseDescendsToItsOwnLeaf() {
        for (long seed = 0; seed < 4; seed++) {
            double[][] p = HstTest.randomPoints(400, 3, seed);
            double delta = VectorMetric.l2(p).exactDiameter();
            assertOwnLeaves(p, delta, new Hst.Options(seed, 60, seed % 2 == 0));
            assertOwnLeaves(p, delta, new Hst.Options(seed, 3, true)); // multi-point leaves
        }
    }

    @Test
    void distancesExactlyAtTheRadiusAndDuplicatePointsDescendAsTheTreeAssigned() {
        // an integer lattice with β = 1 and Δ = 8: radii 4, 2, 1, 1/2, hit exactly by many pairs
        double[][] p = new double[50][];
        for (int i = 0; i < 25; i++) {
            p[i] = new double[] {i % 5, i / 5};
            p[25 + i] = p[i].clone(); // duplicates share a leaf at the depth cap
        }
        for (long seed = 0; seed < 6; seed++) {
            assertOwnLeaves(p, 8, new Hst.Options(seed, 8, false));
        }
    }

    @Test
    void arbitraryVectorsFollowThePlainRule() {
        double[][] p = HstTest.randomPoints(600, 5, 7);
        Hst t = Hst.build(VectorMetric.l2(p), 100 * Math.sqrt(5), new Hst.Options(11, 12, true));
        HstDescent descent = new HstDescent(t, p);
        SplittableRandom r = new SplittableRandom(3); // public randomness (not privacy noise)
        int fellBack = 0;
        for (int q = 0; q < 4000; q++) {
            double[] x = new double[5];
            double[] near = p[r.nextInt(p.length)];
            for (int j = 0; j < 5; j++) {
                x[j] =
                        switch (q % 3) {
                            case 0 -> 100 * r.nextDouble();
                            case 1 -> near[j] + r.nextGaussian();
                            default -> 300 * r.nextDouble() - 100; // partly outside the box
                        };
            }
            int leaf = descent.leaf(x);
            assertEquals(referenceLeaf(t, p, x), leaf, "query " + q);
            assertTrue(t.isLeaf(leaf));
            fellBack += leaf != t.leafOf(descent.leafCentre(x)) ? 1 : 0;
        }
        assertEquals(0, fellBack, "the leaf's centre lies in the leaf");
    }

    /** The greedy descent of {@link HstDescent#greedyCentre}, written plainly over the tree. */
    private static int referenceGreedyCentre(Hst t, double[][] pts, double[] x, int depth) {
        int v = t.root();
        for (int level = 0; level < depth && !t.isLeaf(v); level++) {
            int[] ch = t.children(v);
            int nearest = ch[0];
            double nearestSq = Double.POSITIVE_INFINITY;
            for (int c : ch) {
                double[] p = pts[t.centre(c)];
                double sq = squared(p, x);
                if (sq < nearestSq) {
                    nearestSq = sq;
                    nearest = c;
                }
            }
            v = nearest;
        }
        return t.centre(v);
    }

    /**
     * The greedy start of the neighbour walk: at every depth the nearest child, ties and NaN to the
     * first — the same answer from the descent as from the reference, for vectors inside, near and
     * outside the universe's box, with NaN or infinite coordinates, in d = 10 (wide top levels) and
     * d = 3 (a deep tree: depth 3 differs from depth 2).
     */
    @Test
    void greedyCentreTakesTheNearestChildAtEveryDepth() {
        for (int dim : new int[] {10, 3}) {
            double[][] p = HstTest.randomPoints(1500, dim, 9);
            Hst t =
                    Hst.build(
                            VectorMetric.l2(p),
                            VectorMetric.l2(p).exactDiameter(),
                            new Hst.Options(4, 12, true));
            HstDescent descent = new HstDescent(t, p);
            assertTrue(t.children(t.root()).length > 1, "a root with several children");
            SplittableRandom r = new SplittableRandom(8); // public randomness (not privacy noise)
            int deeper = 0;
            for (int q = 0; q < 600; q++) {
                double[] x = new double[dim];
                double[] near = p[r.nextInt(p.length)];
                for (int j = 0; j < dim; j++) {
                    x[j] =
                            switch (q % 4) {
                                case 0 -> 100 * r.nextDouble();
                                case 1 -> near[j] + r.nextGaussian();
                                case 2 -> 300 * r.nextDouble() - 100;
                                default -> near[j]; // a point of U
                            };
                }
                if (q % 50 == 7) {
                    x[q % dim] = q % 100 == 7 ? Double.NaN : Double.NEGATIVE_INFINITY;
                }
                assertGreedy(t, p, x, descent, "d " + dim + ", query " + q);
                deeper += descent.greedyCentre(x, 3) != descent.greedyCentre(x, 2) ? 1 : 0;
            }
            if (dim == 3) {
                assertTrue(deeper > 0, "depth 3 moves past depth 2");
            }
        }
    }

    /** Exact ties: half-integer vectors equidistant from lattice centres go to the first child. */
    @Test
    void greedyCentreBreaksExactTiesTowardTheFirstChild() {
        double[][] p = new double[36][];
        for (int i = 0; i < 36; i++) {
            p[i] = new double[] {i % 6, i / 6};
        }
        for (long seed = 0; seed < 6; seed++) {
            Hst t = Hst.build(VectorMetric.l2(p), 8, new Hst.Options(seed, 8, false));
            HstDescent descent = new HstDescent(t, p);
            for (int a = -1; a < 12; a++) {
                for (int b = -1; b < 12; b++) {
                    double[] x = {a / 2.0, b / 2.0};
                    assertGreedy(t, p, x, descent, "seed " + seed + ", x " + a + "/2, " + b + "/2");
                }
            }
        }
    }

    private static void assertGreedy(
            Hst t, double[][] p, double[] x, HstDescent descent, String what) {
        for (int depth : new int[] {0, 1, 2, 3, Integer.MAX_VALUE}) {
            int expected = referenceGreedyCentre(t, p, x, depth);
            assertEquals(expected, descent.greedyCentre(x, depth), what + ", depth " + depth);
        }
    }

    /**
     * The descent's placements of the 3,000 reference records ({@link SnapReference}), pinned: the
     * hash was computed at commit a38a44a, when every node's children were scored in blocks of 16
     * (the blocks are gone since; the answers are not), and every placement equals the plain
     * reference's — wide nodes of ≈ 500 children, scanned in several chunks, included. {@code
     * hst.snap: descent} keys no version of its own into the dp-hst mechanism id, so a change of
     * where a record lands must not happen under that name — this test fails first.
     */
    @Test
    void placementsAreThoseOfTheDescentRule() {
        SnapReference ref = SnapReference.PINNED;
        HstDescent descent = new HstDescent(ref.tree, ref.pts);
        for (double[] x : SnapReference.records()) {
            assertEquals(referenceLeaf(ref.tree, ref.pts, x), descent.leaf(x));
        }
        assertEquals(-6436098292639403554L, SnapReference.placementHash(descent::leafCentre));
    }

    private static final double[] ODD = {
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        1e200,
        -1e200,
        Double.MAX_VALUE,
        -0.0,
        Double.MIN_VALUE
    };

    /**
     * As {@link #placementsAreThoseOfTheDescentRule} for vectors with one odd coordinate (NaN, ±∞,
     * ±1e200, MAX_VALUE, −0.0, MIN_VALUE) among the reference records', leaf and greedy centres at
     * depths 1 to 3: hash computed with the blocks of 16 (a38a44a's HstDescent).
     */
    @Test
    void placementsOfOddVectorsAreThoseOfTheDescentRule() {
        SnapReference ref = SnapReference.PINNED;
        HstDescent descent = new HstDescent(ref.tree, ref.pts);
        List<double[]> records = SnapReference.records();
        IntStream.Builder placements = IntStream.builder();
        for (int q = 0; q < records.size(); q += 3) {
            double[] x = records.get(q).clone();
            x[q % x.length] = ODD[q % ODD.length];
            placements.add(descent.leafCentre(x));
            for (int depth = 1; depth <= 3; depth++) {
                placements.add(descent.greedyCentre(x, depth));
            }
        }
        assertEquals(-3482177613417011316L, SnapReference.hash(placements.build()));
    }

    /**
     * Nodes of exactly 63, 64, 65, 128 and 129 children (chunk boundaries): n points a·e_i in n
     * dimensions with β = 1 and Δ = a√2, so the root's children are the n points themselves;
     * queries near each point, exactly at the radius from two children consecutive in π order
     * (across every chunk boundary; the first wins), and at the origin (no centre within the
     * radius, all at the same distance: the first child).
     */
    @Test
    void chunkBoundariesChangeNothing() {
        double a = 4;
        for (int n : new int[] {63, 64, 65, 128, 129}) {
            double[][] p = new double[n][n];
            for (int i = 0; i < n; i++) {
                p[i][i] = a;
            }
            Hst t = Hst.build(VectorMetric.l2(p), a * Math.sqrt(2), new Hst.Options(n, 4, false));
            assertEquals(n, t.children(t.root()).length, "n = " + n);
            HstDescent descent = new HstDescent(t, p);
            int[] order = t.children(t.root()); // π order: the order the descent scans
            List<double[]> queries = new ArrayList<>();
            queries.add(new double[n]);
            for (int k = 0; k < n; k++) {
                int i = t.centre(order[k]);
                double[] near = p[i].clone();
                near[i] = 0.9 * a;
                near[(i + 1) % n] = 0.1;
                queries.add(near);
                // at the radius (in exact arithmetic) from the k-th and (k+1)-th child: 63/64,
                // 127/128
                int j = t.centre(order[(k + 1) % n]);
                double[] between = new double[n];
                between[i] = a / 2;
                between[j] = a / 2;
                queries.add(between);
            }
            for (double[] x : queries) {
                assertEquals(referenceLeaf(t, p, x), descent.leaf(x), "n = " + n);
                for (int depth = 1; depth <= 2; depth++) {
                    assertEquals(
                            referenceGreedyCentre(t, p, x, depth),
                            descent.greedyCentre(x, depth),
                            "n = " + n + ", depth " + depth);
                }
            }
        }
    }

    @Test
    void theLeafDependsOnTheRecordAloneAndIsReproducible() {
        double[][] p = HstTest.randomPoints(500, 4, 5);
        Hst.Options o = new Hst.Options(21, 12, true);
        HstDescent a = new HstDescent(Hst.build(VectorMetric.l2(p), 200, o), p);
        HstDescent b = new HstDescent(Hst.build(VectorMetric.l2(p), 200, o), p);
        double[][] q = HstTest.randomPoints(1000, 4, 6);
        int[] forward = new int[q.length];
        for (int i = 0; i < q.length; i++) {
            forward[i] = a.leaf(q[i]);
        }
        for (int i = q.length - 1; i >= 0; i--) {
            assertEquals(forward[i], b.leaf(q[i]), "query " + i);
            assertEquals(forward[i], a.leaf(q[i].clone()), "query " + i + " again");
        }
        // another public seed gives another tree: the leaf is a function of the public tree
        HstDescent c =
                new HstDescent(
                        Hst.build(VectorMetric.l2(p), 200, new Hst.Options(22, 12, true)), p);
        int differ = 0;
        for (int i = 0; i < q.length; i++) {
            differ += c.leafCentre(q[i]) != a.leafCentre(q[i]) ? 1 : 0;
        }
        assertNotEquals(0, differ);
    }

    @Test
    void boxBoundaryAndNonFiniteCoordinatesGiveALeafWithoutThrowing() {
        int d = 10;
        SplittableRandom r = new SplittableRandom(9); // public randomness (not privacy noise)
        double[][] p = new double[1024][d];
        for (double[] row : p) {
            for (int j = 0; j < d; j++) {
                row[j] = r.nextDouble();
            }
        }
        Hst t = Hst.build(VectorMetric.l2(p), Math.sqrt(d), new Hst.Options(4, 12, true));
        HstDescent descent = new HstDescent(t, p);
        for (int q = 0; q < 3000; q++) {
            double[] x = new double[d];
            for (int j = 0; j < d; j++) {
                x[j] = r.nextInt(3) == 0 ? r.nextDouble() : r.nextInt(2); // corners and faces
            }
            int leaf = descent.leaf(x);
            assertTrue(t.isLeaf(leaf));
            assertEquals(referenceLeaf(t, p, x), leaf);
        }
        List<double[]> odd = new ArrayList<>(List.of(new double[d], filled(d, 1.0)));
        for (double v : ODD) {
            odd.add(filled(d, v));
        }
        for (double[] x : odd) {
            int leaf = descent.leaf(x);
            assertTrue(t.isLeaf(leaf));
            assertEquals(leaf, descent.leaf(x.clone()));
            assertEquals(referenceLeaf(t, p, x), leaf);
        }
        for (int q = 0; q < 700; q++) { // one odd coordinate among ordinary ones
            double[] x = p[q].clone();
            x[q % d] = ODD[q % ODD.length];
            assertEquals(referenceLeaf(t, p, x), descent.leaf(x), "query " + q);
        }
    }

    private static double[] filled(int d, double v) {
        double[] x = new double[d];
        java.util.Arrays.fill(x, v);
        return x;
    }

    @Test
    void theSquaredThresholdIsExactlyTheSqrtComparison() {
        SplittableRandom r = new SplittableRandom(1); // public randomness (not privacy noise)
        for (int i = 0; i < 20_000; i++) {
            double radius = Math.scalb(0.5 + r.nextDouble(), r.nextInt(-60, 60));
            double s = HstDescent.squaredThreshold(radius);
            assertTrue(Math.sqrt(s) <= radius, "r = " + radius);
            assertTrue(Math.sqrt(Math.nextUp(s)) > radius, "r = " + radius);
        }
    }
}
