package org.dpclust.kmedian;

/**
 * Finds the leaf of an l2 {@link Hst} over a public vector universe U for an ARBITRARY vector x, by
 * descending the tree with the tree's own partition rule, in O(levels × children × d) and without
 * searching U.
 *
 * <p>Rule. {@link Hst#build} splits a node at depth t with radius r_{t+1} = βΔ/2^{t+1}: in π order,
 * each unassigned point u of the node becomes the centre of a child holding the unassigned points
 * within r_{t+1} of u. So a point of the node belongs to the FIRST child (children are in π order
 * of their centres) whose centre lies within r_{t+1} of it. The descent applies that rule to x at
 * every node from the root: x goes to the first child whose centre is within the radius; when no
 * centre is (x lies outside every child's ball, possible only for x ∉ U), it goes to the child with
 * the nearest centre (nearest and ties on the summed squares below; ties to the first in π order),
 * and to the first child if every distance is NaN.
 *
 * <p>Contract. (1) For x a point of U, the leaf is exactly {@code tree.leafOf(x)}: the distance is
 * computed as {@link org.dpclust.geometry.VectorMetric#between} computes it (same summation order,
 * squared differences of the same values) and compared with a squared threshold that is exact: the
 * largest double s with {@code Math.sqrt(s) <= r}, so {@code s <= threshold} iff {@code
 * Math.sqrt(s) <= r} (sqrt is correctly rounded, hence monotone). (2) The leaf is a function of x,
 * the public universe and the public tree only — of no other record and no arrival order — and the
 * same on every JVM (strict IEEE arithmetic, no randomness). (3) No input makes it throw or loop:
 * NaN and infinite coordinates fall back as above.
 *
 * <p>Layout. Each node with two or more children keeps their centres one array per coordinate, in π
 * order ({@code rows[v][t][i]}); a node with one child needs no distance. A node's children are
 * scored {@value #CHUNK} at a time, one loop per coordinate over the chunk (loops C2 vectorises,
 * docs/performance.md#hst-snap), and each distance is still summed over coordinates in index order;
 * the scan stops at the first chunk holding a child within the radius ({@link #greedyCentre}, which
 * scores every child, scores them in one pass). In d = 10 the depth-1 nodes a record goes through
 * are wide (≈ 460–570 children at |U| = 4096), so this scan is most of the descent's cost. Memory:
 * d doubles per child of a node with several children (at most 8·d·2|U| bytes) plus d + 1 array
 * headers per such node. Thread-safe: immutable after construction; each thread keeps one row of
 * distances as scratch.
 */
public final class HstDescent {
    /** Children scored per pass (a multiple of the vector width). */
    static final int CHUNK = 64;

    private final int d;
    private final int[] firstChild;
    private final int[] childCount;
    private final double[] threshold;
    private final int[] centrePoint;

    /**
     * Per node v with two or more children: {@code rows[v][t][i]} = coordinate t of child i's
     * centre (π order); null for leaves and single-child nodes.
     */
    private final double[][][] rows;

    /** Squared distances, one per child (grown to the largest node's count). */
    private static final ThreadLocal<double[]> SCRATCH =
            ThreadLocal.withInitial(() -> new double[CHUNK]);

    /**
     * @param tree an HST built over {@code points} with the l2 metric
     * @param points the universe's vectors (not modified, not retained)
     * @throws IllegalArgumentException if the sizes disagree
     */
    public HstDescent(Hst tree, double[][] points) {
        if (points.length != tree.universeSize()) {
            throw new IllegalArgumentException(
                    "tree over " + tree.universeSize() + " points, got " + points.length);
        }
        int m = tree.nodeCount();
        this.d = points[0].length;
        this.firstChild = new int[m];
        this.childCount = new int[m];
        this.threshold = new double[m];
        this.centrePoint = new int[m];
        this.rows = new double[m][][];
        for (int v = 0; v < m; v++) {
            centrePoint[v] = tree.centre(v);
            int c = tree.childCount(v);
            childCount[v] = c;
            if (c == 0) {
                continue;
            }
            firstChild[v] = tree.child(v, 0);
            for (int i = 0; i < c; i++) {
                if (tree.child(v, i) != firstChild[v] + i) {
                    throw new IllegalStateException("children of a node must be consecutive");
                }
            }
            threshold[v] = squaredThreshold(tree.splitRadius(v));
            if (c > 1) {
                double[][] r = new double[d][c];
                for (int i = 0; i < c; i++) {
                    double[] p = points[tree.centre(firstChild[v] + i)];
                    for (int t = 0; t < d; t++) {
                        r[t][i] = p[t];
                    }
                }
                rows[v] = r;
            }
        }
    }

    /** The largest double s with {@code Math.sqrt(s) <= r} (r finite and > 0). */
    static double squaredThreshold(double r) {
        double s = r * r;
        while (Math.sqrt(s) > r) {
            s = Math.nextDown(s);
        }
        while (Math.sqrt(Math.nextUp(s)) <= r) {
            s = Math.nextUp(s);
        }
        return s;
    }

    /** The id of x's leaf (see the class comment). */
    public int leaf(double[] x) {
        checkDimension(x);
        int v = 0;
        while (childCount[v] > 0) {
            v = child(v, x, threshold[v]);
        }
        return v;
    }

    /** The universe point x is counted at: the centre of its leaf (in that leaf). */
    public int leafCentre(double[] x) {
        return centrePoint[leaf(x)];
    }

    /**
     * The centre of the node reached from the root by a greedy descent of at most {@code depth}
     * levels (stopping at a leaf): at each node, the child whose centre is nearest to x (ties and
     * all-NaN distances to the first in π order). Not the tree's partition rule: x need not lie in
     * the node reached, even for x in U. A function of x and the public tree only; never throws on
     * NaN or infinite coordinates.
     */
    public int greedyCentre(double[] x, int depth) {
        checkDimension(x);
        int v = 0;
        for (int t = 0; t < depth && childCount[v] > 0; t++) {
            v = child(v, x, Double.NEGATIVE_INFINITY);
        }
        return centrePoint[v];
    }

    private void checkDimension(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("expected dimension " + d + ", got " + x.length);
        }
    }

    /**
     * The first child of v (π order) whose centre's squared distance is {@code <= thr}, else the
     * first strictly nearest (ties and all-NaN to the first child); {@code thr = -∞} gives the
     * nearest child. Squared distances: coordinate differences squared and summed in index order.
     */
    private int child(int v, double[] x, double thr) {
        double[][] r = rows[v];
        if (r == null) {
            return firstChild[v]; // the only child, within the radius or not
        }
        int c = childCount[v];
        double[] s = SCRATCH.get();
        if (s.length < c) {
            s = new double[c];
            SCRATCH.set(s);
        }
        int best = 0;
        double bestS = Double.POSITIVE_INFINITY;
        int chunk = thr == Double.NEGATIVE_INFINITY ? c : CHUNK; // nothing to stop early for
        for (int from = 0; from < c; from += chunk) {
            int to = Math.min(c, from + chunk);
            score(r, x, s, from, to);
            for (int i = from; i < to; i++) {
                double si = s[i];
                if (si <= thr) {
                    return firstChild[v] + i;
                }
                if (si < bestS) {
                    bestS = si;
                    best = i;
                }
            }
        }
        return firstChild[v] + best;
    }

    /**
     * Squared distances of x to the centres {@code from} (inclusive) to {@code to} of r, into s.
     */
    private void score(double[][] r, double[] x, double[] s, int from, int to) {
        double[] r0 = r[0];
        double x0 = x[0];
        for (int i = from; i < to; i++) {
            double diff = r0[i] - x0;
            s[i] = diff * diff;
        }
        for (int t = 1; t < d; t++) {
            double[] rt = r[t];
            double xt = x[t];
            for (int i = from; i < to; i++) {
                double diff = rt[i] - xt;
                s[i] += diff * diff;
            }
        }
    }
}
