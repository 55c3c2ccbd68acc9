package org.dpclust.geometry;

import java.util.Arrays;
import java.util.Comparator;

/**
 * An exact nearest-point index over a fixed public point set: a k-d tree searched by branch and
 * bound with incremental cell distances (Arya and Mount). {@link #nearest} returns exactly {@link
 * NearestPoint#of} of the same points and query, for every query (finite or not).
 *
 * <p>Contract: candidate distances are Σ_t (x_t − p_t)² summed in index order t = 0 .. d−1 (as in
 * {@link NearestPoint}); among the minimal computed distance the lowest index wins, and if no
 * distance is below +∞ (NaN or overflowing queries) the answer is 0, as in the plain loop. Each
 * node keeps, in its split coordinate, the range of its points and of each child's points; a
 * child's lower bound is its parent's with that one coordinate's squared gap replaced. A subtree is
 * skipped only when its lower bound exceeds the best computed distance so far by more than any
 * rounding could explain ({@link #prunable}: a relative margin of 10⁻¹² plus 10⁻³⁰⁰ absolute,
 * against a worst-case relative error below 10⁻¹³ for d ≤ {@value #MAX_DIMENSION} and tree depth ≤
 * 40), so no point that could equal or beat the best is ever skipped: pruning is exact, not
 * approximate. Point sets with a non-finite coordinate, more than {@value #MAX_DIMENSION}
 * coordinates or fewer than {@value #MIN_POINTS} points are searched by {@link NearestPoint}
 * directly.
 *
 * <p>Leaves hold up to {@value #LEAF_SIZE} points stored coordinate-major and are scanned a few
 * coordinates at a time over all their rows, which C2 vectorises; each distance is still the same
 * sequence of operations.
 *
 * <p>Built once per point set, deterministically (split on the coordinate of widest range, lowest
 * coordinate on ties, at the median of (coordinate, index)); immutable afterwards, so one index may
 * be shared by threads (each thread keeps one leaf's worth of distances, {@value #LEAF_SIZE}
 * doubles, in a thread-local scratch array; the search allocates nothing else). Memory: a
 * coordinate-major copy of the points, their indices and ten numbers per node. Public computation:
 * the point set is public.
 */
public final class NearestPointIndex {
    /**
     * Points per leaf at most. Large, because a leaf is scanned one coordinate at a time over all
     * its rows (vectorised by C2, ≈ 3× the row-at-a-time kernel per point): at d = 10 and 4096
     * points, 256 per leaf was faster than 16–128 (better vectorisation, less node overhead) and
     * than 1024–4096 (less pruning).
     */
    static final int LEAF_SIZE = 256;

    /**
     * Smaller sets use {@link NearestPoint} (measured at d = 10: about even at 64 points, 2.2–2.7×
     * at 160).
     */
    static final int MIN_POINTS = 64;

    /** Per-thread distances of one leaf's rows (the search itself allocates nothing). */
    private static final ThreadLocal<double[]> SCRATCH =
            ThreadLocal.withInitial(() -> new double[LEAF_SIZE]);

    /**
     * Above this dimension the rounding margin of {@link #prunable} is not proven; brute force
     * instead.
     */
    static final int MAX_DIMENSION = 256;

    private final int dimension;

    /**
     * The original points, row-major (for {@link NearestPoint} and recomputing a winner's
     * distance).
     */
    private final double[] points;

    /** False when the set is searched by brute force. */
    private final boolean tree;

    /**
     * Leaf points coordinate-major, so the per-coordinate loops over a leaf vectorise (each
     * distance is still summed over t in index order): {@code columns[leaf · d + t][j]} is
     * coordinate t of the leaf's j-th row. {@code ids[i]} is the original index of row i in tree
     * order.
     */
    private final double[][] columns;

    private final int[] ids;

    /** Bounding box of all points (the root's lower bound). */
    private final double[] rootLo;

    private final double[] rootHi;

    /** Per node: children (−1 at a leaf), leaf row range [start, end), split coordinate. */
    private final int[] left;

    private final int[] right;
    private final int[] start;
    private final int[] end;
    private final int[] split;

    /**
     * Per internal node, in its split coordinate: the range counted in the node's own lower bound
     * ({@code cur}), and the ranges of the left and right children's points.
     */
    private final double[] curLo;

    private final double[] curHi;
    private final double[] leftLo;
    private final double[] leftHi;
    private final double[] rightLo;
    private final double[] rightHi;

    private NearestPointIndex(double[] points, int dimension) {
        this.dimension = dimension;
        this.points = points;
        int n = points.length / dimension;
        boolean finite = true;
        for (double v : points) {
            finite &= Double.isFinite(v);
        }
        this.tree = finite && n >= MIN_POINTS && dimension <= MAX_DIMENSION;
        if (!tree) {
            columns = null;
            ids = null;
            rootLo = rootHi = null;
            left = right = start = end = split = null;
            curLo = curHi = leftLo = leftHi = rightLo = rightHi = null;
            return;
        }
        Builder b = new Builder(points, dimension, n);
        b.build(0, n);
        int m = b.nodes;
        this.rootLo = b.rootLo;
        this.rootHi = b.rootHi;
        this.left = Arrays.copyOf(b.left, m);
        this.right = Arrays.copyOf(b.right, m);
        this.start = Arrays.copyOf(b.start, m);
        this.end = Arrays.copyOf(b.end, m);
        this.split = Arrays.copyOf(b.split, m);
        this.curLo = Arrays.copyOf(b.curLo, m);
        this.curHi = Arrays.copyOf(b.curHi, m);
        this.leftLo = Arrays.copyOf(b.leftLo, m);
        this.leftHi = Arrays.copyOf(b.leftHi, m);
        this.rightLo = Arrays.copyOf(b.rightLo, m);
        this.rightHi = Arrays.copyOf(b.rightHi, m);
        this.ids = b.order;
        this.columns = new double[m * dimension][];
        for (int node = 0; node < m; node++) {
            if (left[node] >= 0) {
                continue;
            }
            int rows = end[node] - start[node];
            for (int t = 0; t < dimension; t++) {
                double[] col = new double[rows];
                for (int j = 0; j < rows; j++) {
                    col[j] = points[ids[start[node] + j] * dimension + t];
                }
                columns[node * dimension + t] = col;
            }
        }
    }

    /**
     * The index over the {@code points.length / d} row-major points (the array is kept, not copied:
     * the caller must not modify it afterwards).
     */
    public static NearestPointIndex of(double[] points, int d) {
        if (d < 1 || points.length == 0 || points.length % d != 0) {
            throw new IllegalArgumentException(
                    "points must be a non-empty row-major array of d-dimensional rows");
        }
        return new NearestPointIndex(points, d);
    }

    /** Index of the nearest point to x (x has length ≥ d); exactly {@link NearestPoint#of}. */
    public int nearest(double[] x) {
        if (!tree) {
            return NearestPoint.of(points, dimension, x);
        }
        double rd = 0;
        for (int t = 0; t < dimension; t++) {
            double g = gap(x[t], rootLo[t], rootHi[t]);
            rd += g * g;
        }
        int best = search(0, x, rd, -1, Double.POSITIVE_INFINITY);
        return best < 0 ? 0 : best;
    }

    /** Distance from v to the interval [lo, hi] (0 inside; NaN for a NaN v). */
    private static double gap(double v, double lo, double hi) {
        return Math.max(Math.max(lo - v, v - hi), 0.0);
    }

    /**
     * Whether a subtree with lower bound {@code bound} (rounded) surely holds no point at or below
     * bestD.
     */
    static boolean prunable(double bound, double bestD) {
        return bound > bestD * (1 + 1e-12) + 1e-300;
    }

    /**
     * Best (lowest (distance, index)) point of the subtree with lower bound {@code rd} and of the
     * incoming candidate {@code best} at distance {@code bestD} (−1 and +∞ for none). Returns
     * {@code best} itself when nothing in the subtree beats it.
     */
    private int search(int node, double[] x, double rd, int best, double bestD) {
        if (left[node] < 0) {
            return scanLeaf(node, x, best, bestD);
        }
        double xk = x[split[node]];
        double old = gap(xk, curLo[node], curHi[node]);
        double base = rd - old * old;
        double gl = gap(xk, leftLo[node], leftHi[node]);
        double gr = gap(xk, rightLo[node], rightHi[node]);
        int a = left[node];
        int b = right[node];
        double ra = base + gl * gl;
        double rb = base + gr * gr;
        if (rb < ra) {
            int t = a;
            a = b;
            b = t;
            double u = ra;
            ra = rb;
            rb = u;
        }
        if (!prunable(ra, bestD)) {
            int found = search(a, x, ra, best, bestD);
            if (found != best) {
                best = found;
                bestD = NearestPoint.squaredDistance(points, dimension, found, x);
            }
        }
        if (!prunable(rb, bestD)) {
            best = search(b, x, rb, best, bestD);
        }
        return best;
    }

    /**
     * The leaf's rows against (best, bestD): distances as in {@link NearestPoint}, a few
     * coordinates per pass.
     */
    private int scanLeaf(int node, double[] x, int best, double bestD) {
        int d = dimension;
        int from = start[node];
        int m = end[node] - from;
        double[] s = SCRATCH.get();
        double[][] col = columns;
        int c = node * d;
        int t = 0;
        for (; t + 3 < d; t += 4) {
            add4(
                    s,
                    t == 0,
                    col[c + t],
                    col[c + t + 1],
                    col[c + t + 2],
                    col[c + t + 3],
                    x[t],
                    x[t + 1],
                    x[t + 2],
                    x[t + 3],
                    m);
        }
        for (; t + 1 < d; t += 2) {
            add2(s, t == 0, col[c + t], col[c + t + 1], x[t], x[t + 1], m);
        }
        for (; t < d; t++) {
            add(s, t == 0, col[c + t], x[t], m);
        }
        for (int j = 0; j < m; j++) {
            double sj = s[j];
            if (sj <= bestD && (sj < bestD || ids[from + j] < best)) {
                bestD = sj;
                best = ids[from + j];
            }
        }
        return best;
    }

    // The leaf kernels: for every row j < m, the next terms of its distance in coordinate order,
    // each term
    // (x_t − p_t)² added to the running sum exactly as NearestPoint does; a fresh sum starts from 0
    // as there.
    // Several coordinates per pass only save loads and stores of s; C2 vectorises each loop across
    // rows (and
    // unswitches the loop-invariant fresh test).

    /** s[j] += the next four terms, in order. */
    private static void add4(
            double[] s,
            boolean fresh,
            double[] c0,
            double[] c1,
            double[] c2,
            double[] c3,
            double x0,
            double x1,
            double x2,
            double x3,
            int m) {
        for (int j = 0; j < m; j++) {
            double v = fresh ? 0.0 : s[j];
            double e0 = x0 - c0[j];
            v += e0 * e0;
            double e1 = x1 - c1[j];
            v += e1 * e1;
            double e2 = x2 - c2[j];
            v += e2 * e2;
            double e3 = x3 - c3[j];
            v += e3 * e3;
            s[j] = v;
        }
    }

    /**
     * s[j] += the next two terms, in order (d = 10 is 4 + 4 + 2: measured ≈ 5 % faster than 4 + 4 +
     * 1 + 1).
     */
    private static void add2(
            double[] s, boolean fresh, double[] c0, double[] c1, double x0, double x1, int m) {
        for (int j = 0; j < m; j++) {
            double v = fresh ? 0.0 : s[j];
            double e0 = x0 - c0[j];
            v += e0 * e0;
            double e1 = x1 - c1[j];
            v += e1 * e1;
            s[j] = v;
        }
    }

    /** s[j] += the next term. */
    private static void add(double[] s, boolean fresh, double[] c0, double x0, int m) {
        for (int j = 0; j < m; j++) {
            double e = x0 - c0[j];
            s[j] = (fresh ? 0.0 : s[j]) + e * e;
        }
    }

    /** Recursive median split into preallocated node arrays (at most 2n − 1 nodes). */
    private static final class Builder {
        final double[] points;
        final int d;
        final Integer[] boxed;
        final int[] order;
        final double[] rootLo;
        final double[] rootHi;

        /** The range counted for each coordinate in the current node's lower bound. */
        final double[] effLo;

        final double[] effHi;
        final int[] left;
        final int[] right;
        final int[] start;
        final int[] end;
        final int[] split;
        final double[] curLo;
        final double[] curHi;
        final double[] leftLo;
        final double[] leftHi;
        final double[] rightLo;
        final double[] rightHi;
        int nodes;

        Builder(double[] points, int d, int n) {
            this.points = points;
            this.d = d;
            this.boxed = new Integer[n];
            for (int i = 0; i < n; i++) {
                boxed[i] = i;
            }
            this.order = new int[n];
            this.rootLo = new double[d];
            this.rootHi = new double[d];
            for (int t = 0; t < d; t++) {
                rootLo[t] = range(0, n, t, true);
                rootHi[t] = range(0, n, t, false);
            }
            this.effLo = rootLo.clone();
            this.effHi = rootHi.clone();
            int cap = 2 * n;
            left = new int[cap];
            right = new int[cap];
            start = new int[cap];
            end = new int[cap];
            split = new int[cap];
            curLo = new double[cap];
            curHi = new double[cap];
            leftLo = new double[cap];
            leftHi = new double[cap];
            rightLo = new double[cap];
            rightHi = new double[cap];
        }

        /** Minimum (or maximum) of coordinate t over rows [from, to) of the current order. */
        double range(int from, int to, int t, boolean min) {
            double v = points[boxed[from] * d + t];
            for (int i = from + 1; i < to; i++) {
                double w = points[boxed[i] * d + t];
                v = min ? Math.min(v, w) : Math.max(v, w);
            }
            return v;
        }

        int build(int from, int to) {
            int node = nodes++;
            start[node] = from;
            end[node] = to;
            if (to - from <= LEAF_SIZE) {
                Arrays.sort(boxed, from, to); // a leaf's rows in index order
                for (int i = from; i < to; i++) {
                    order[i] = boxed[i];
                }
                left[node] = -1;
                right[node] = -1;
                return node;
            }
            int k = 0;
            double widest = -1;
            for (int t = 0; t < d; t++) {
                double w = range(from, to, t, false) - range(from, to, t, true);
                if (w > widest) {
                    widest = w;
                    k = t;
                }
            }
            final int kk = k;
            Arrays.sort(
                    boxed,
                    from,
                    to,
                    Comparator.<Integer>comparingDouble(p -> points[p * d + kk])
                            .thenComparingInt(p -> p));
            int mid = (from + to) >>> 1;
            split[node] = k;
            curLo[node] = effLo[k];
            curHi[node] = effHi[k];
            leftLo[node] = range(from, mid, k, true);
            leftHi[node] = range(from, mid, k, false);
            rightLo[node] = range(mid, to, k, true);
            rightHi[node] = range(mid, to, k, false);
            effLo[k] = leftLo[node];
            effHi[k] = leftHi[node];
            left[node] = build(from, mid);
            effLo[k] = rightLo[node];
            effHi[k] = rightHi[node];
            right[node] = build(mid, to);
            effLo[k] = curLo[node];
            effHi[k] = curHi[node];
            return node;
        }
    }
}
