package org.dpclust.kmedian;

import java.util.Arrays;

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
 * the nearest centre (ties to the first in π order), and to the first child if every distance is
 * NaN.
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
 * <p>Layout. The centres of each node's children are copied once, in π order, in blocks of {@value
 * #BLOCK} stored coordinate-major (the last block padded with +∞ centres, which are never within
 * the radius nor nearest), so a block's distances are computed one coordinate at a time over the
 * block (each distance is still summed over coordinates in index order). The blocks are scored in π
 * order and the descent stops at the first block holding a child within the radius; only a fallback
 * scores all of a node's children. (C2 on JDK 17 does not vectorise these 16-wide loops — switching
 * its superword pass off changes nothing — so {@link #greedyCentre}, which scores every child,
 * reads the top levels from one array per coordinate instead when asked, see {@link
 * #HstDescent(Hst, double[][], int)}.) Thread-safe: immutable after construction; each thread keeps
 * one block of distances and one row of them as scratch.
 */
public final class HstDescent {
    /** Children scored per pass (a multiple of the vector width). */
    static final int BLOCK = 16;

    private final int d;

    /** Per node v: its children's centres in blocks, from {@code offset[v]} (class comment). */
    private final double[] centres;

    private final int[] offset;
    private final int[] firstChild;
    private final int[] childCount;
    private final double[] threshold;
    private final int[] centrePoint;
    private static final ThreadLocal<double[]> SCRATCH =
            ThreadLocal.withInitial(() -> new double[BLOCK]);

    /**
     * Per node v of depth &lt; the constructor's {@code greedyRowsDepth} with children: {@code
     * rows[v][t][i]} = coordinate t of child i's centre (π order); null elsewhere (see {@link
     * #HstDescent(Hst, double[][], int)}).
     */
    private final double[][][] rows;

    /** Greedy scoring's squared distances, one per child (grown to the largest node's count). */
    private static final ThreadLocal<double[]> ROW_SCRATCH =
            ThreadLocal.withInitial(() -> new double[0]);

    /**
     * @param tree an HST built over {@code points} with the l2 metric
     * @param points the universe's vectors (not modified, not retained)
     * @throws IllegalArgumentException if the sizes disagree
     */
    public HstDescent(Hst tree, double[][] points) {
        this(tree, points, 0);
    }

    /**
     * As {@link #HstDescent(Hst, double[][])}, and the nodes of depth &lt; {@code greedyRowsDepth}
     * (the root at 0) also keep their children's centres one array per coordinate for {@link
     * #greedyCentre}: a greedy step scores every child of a node, hundreds at the top of a tree in
     * d = 10, and one long loop per coordinate over them is vectorised by C2 where the blocks of
     * {@value #BLOCK} are not (the walk's two-level start 0.45 against 1.0 µs,
     * docs/performance.md#hst-snap). Same sums in the same order, so the same answers. Memory: d
     * doubles per child of those nodes — at most 8·d·2|U| bytes for depth 2 (≈ 0.3 MB at |U| =
     * 4096, d = 10), so only the walk ({@link NeighbourWalk}) asks for it.
     *
     * @param greedyRowsDepth 0 for none
     */
    public HstDescent(Hst tree, double[][] points, int greedyRowsDepth) {
        if (points.length != tree.universeSize()) {
            throw new IllegalArgumentException(
                    "tree over " + tree.universeSize() + " points, got " + points.length);
        }
        int m = tree.nodeCount();
        this.d = points[0].length;
        this.offset = new int[m];
        this.firstChild = new int[m];
        this.childCount = new int[m];
        this.threshold = new double[m];
        this.centrePoint = new int[m];
        int next = 0;
        for (int v = 0; v < m; v++) {
            centrePoint[v] = tree.centre(v);
            int c = tree.childCount(v);
            childCount[v] = c;
            offset[v] = next;
            next += blocks(c) * BLOCK * d;
        }
        this.centres = new double[next];
        Arrays.fill(centres, Double.POSITIVE_INFINITY);
        for (int v = 0; v < m; v++) {
            int c = childCount[v];
            if (c == 0) {
                continue;
            }
            firstChild[v] = tree.child(v, 0);
            for (int i = 0; i < c; i++) {
                if (tree.child(v, i) != firstChild[v] + i) {
                    throw new IllegalStateException("children of a node must be consecutive");
                }
                double[] p = points[tree.centre(tree.child(v, i))];
                int o = offset[v] + (i / BLOCK) * BLOCK * d + i % BLOCK;
                for (int t = 0; t < d; t++) {
                    centres[o + t * BLOCK] = p[t];
                }
            }
            threshold[v] = squaredThreshold(tree.splitRadius(v));
        }
        this.rows = new double[m][][];
        addRows(tree, points, 0, 0, greedyRowsDepth);
    }

    /** Fills {@link #rows} for v and its descendants of depth &lt; {@code until}. */
    private void addRows(Hst tree, double[][] points, int v, int depth, int until) {
        int c = childCount[v];
        if (depth >= until || c == 0) {
            return;
        }
        double[][] r = new double[d][c];
        for (int i = 0; i < c; i++) {
            double[] p = points[tree.centre(firstChild[v] + i)];
            for (int t = 0; t < d; t++) {
                r[t][i] = p[t];
            }
        }
        rows[v] = r;
        for (int i = 0; i < c; i++) {
            addRows(tree, points, firstChild[v] + i, depth + 1, until);
        }
    }

    private static int blocks(int children) {
        return (children + BLOCK - 1) / BLOCK;
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
        if (x.length != d) {
            throw new IllegalArgumentException("expected dimension " + d + ", got " + x.length);
        }
        return descend(x);
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
        if (x.length != d) {
            throw new IllegalArgumentException("expected dimension " + d + ", got " + x.length);
        }
        double[] s = SCRATCH.get();
        int v = 0;
        for (int t = 0; t < depth && childCount[v] > 0; t++) {
            v = rows[v] != null ? nearestChild(v, x) : child(v, x, s, Double.NEGATIVE_INFINITY);
        }
        return centrePoint[v];
    }

    /**
     * The child of v whose centre is nearest to x, from {@link #rows}: the same squared distances
     * as {@link #score} (coordinate differences squared and summed in index order) and the same
     * choice as {@link #child} with threshold −∞ (the first strictly smaller, so ties and all-NaN
     * go to the first child in π order).
     */
    private int nearestChild(int v, double[] x) {
        double[][] r = rows[v];
        int c = childCount[v];
        double[] s = ROW_SCRATCH.get();
        if (s.length < c) {
            s = new double[c];
            ROW_SCRATCH.set(s);
        }
        double[] r0 = r[0];
        double x0 = x[0];
        for (int i = 0; i < c; i++) {
            double diff = r0[i] - x0;
            s[i] = diff * diff;
        }
        for (int t = 1; t < d; t++) {
            double[] rt = r[t];
            double xt = x[t];
            for (int i = 0; i < c; i++) {
                double diff = rt[i] - xt;
                s[i] += diff * diff;
            }
        }
        int best = 0;
        double bestS = Double.POSITIVE_INFINITY;
        for (int i = 0; i < c; i++) {
            if (s[i] < bestS) {
                bestS = s[i];
                best = i;
            }
        }
        return firstChild[v] + best;
    }

    /** Squared distances of x to the block of centres at {@code o}, into s. */
    private void score(int o, double[] x, double[] s) {
        double x0 = x[0];
        for (int i = 0; i < BLOCK; i++) {
            double diff = centres[o + i] - x0;
            s[i] = diff * diff;
        }
        for (int t = 1; t < d; t++) {
            int ot = o + t * BLOCK;
            double xt = x[t];
            for (int i = 0; i < BLOCK; i++) {
                double diff = centres[ot + i] - xt;
                s[i] += diff * diff;
            }
        }
    }

    /** leaf() without the dimension check. */
    private int descend(double[] x) {
        double[] s = SCRATCH.get();
        int v = 0;
        while (childCount[v] > 0) {
            v = child(v, x, s, threshold[v]);
        }
        return v;
    }

    /**
     * The first child (π order) whose centre's squared distance is {@code <= thr}, else the nearest
     * (ties and all-NaN to the first); {@code thr = -∞} gives the nearest child.
     */
    private int child(int v, double[] x, double[] s, double thr) {
        int c = childCount[v];
        int best = 0;
        double bestS = Double.POSITIVE_INFINITY;
        for (int k = 0, o = offset[v]; k * BLOCK < c; k++, o += BLOCK * d) {
            score(o, x, s);
            for (int i = 0; i < BLOCK; i++) {
                double si = s[i];
                if (si <= thr) {
                    return firstChild[v] + k * BLOCK + i;
                }
                if (si < bestS) {
                    bestS = si;
                    best = k * BLOCK + i;
                }
            }
        }
        return firstChild[v] + best;
    }
}
