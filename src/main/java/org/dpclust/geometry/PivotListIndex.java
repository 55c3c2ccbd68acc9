package org.dpclust.geometry;

import java.util.Arrays;

/**
 * An approximate nearest point of a public vector universe U for an ARBITRARY vector x, in two
 * contiguous scans: x goes to its nearest <em>pivot</em> (one of {@link #PIVOTS} points of U spread
 * over it), and is answered by the nearest point of that pivot's <em>list</em> (the {@link #LIST}
 * points of U nearest to the pivot, the pivot itself first).
 *
 * <p>Rule, exactly. Pivots: a farthest-point traversal of U from point 0 — the next pivot is the
 * point of U whose squared distance to the nearest pivot chosen so far is largest (ties to the
 * lowest index), distances in double as {@link NearestPoint#squaredDistance}. A pivot b's list: the
 * {@code min(LIST, |U|)} points u of U ordered by (squared distance to b, index), each stored
 * relative to b in float, r_t = (float) (u_t − b_t), with its float norm n = Σ over coordinate
 * pairs (r_t² + r_{t+1}²) added in pair order (an odd last coordinate alone). A record x: (1) b =
 * the pivot with the least double squared distance Σ_t (b_t − x_t)², summed in index order t = 0 ..
 * d−1, compared in pivot order with a strict {@code <} (ties and all-NaN to the first pivot); (2)
 * with y_t = (float) (−2·(x_t − b_t)), each list entry's key is n + Σ over coordinate pairs
 * (r_t·y_t + r_{t+1}·y_{t+1}) in pair order (an odd last coordinate alone) — in exact arithmetic ‖u
 * − x‖² − ‖x − b‖², so the least key is the nearest entry, up to float rounding at the list's scale
 * — and the answer is the entry with the least key, compared in list order with a strict {@code <}
 * (ties, and a NaN first key, to the first entry: the pivot or a duplicate of it). Java's float and
 * double arithmetic is strict IEEE 754 without fused operations, and the loops vectorise across
 * entries, never across a sum, so the answer is the same on every JVM.
 *
 * <p>Contract. (1) The answer is a function of x, the public universe and the two sizes only — of
 * no other record and no arrival order; no randomness. (2) It is the exact nearest point of U
 * whenever that point is in x's pivot's list and no float rounding reverses a near-tie: at |U| =
 * 4096, d = 10 for ≈ 97–98 % of records (docs/performance.md#the-pivot-rule measures it, and the
 * utility of the releases); with |U| ≤ {@link #LIST} every point is in every list, so only float
 * rounding separates it from the exact search. The lists hold at most PIVOTS·LIST points, so |U| is
 * capped at {@link #MAX_UNIVERSE}. (3) No input makes it throw (other than a wrong dimension): a
 * NaN coordinate makes every comparison false (the first pivot's first entry, point 0); an infinite
 * one, or one whose y_t overflows float, makes the chosen pivot's own key 0·∞ = NaN, so the answer
 * is that pivot's first entry (point 0 when every pivot's distance is ∞); a huge but float-finite
 * one can make products overflow to ±∞, and the least key still answers.
 *
 * <p>Cost: building is O(PIVOTS·|U|·d) for the pivots and as much for the lists' distances, plus
 * O(LIST) per point that enters a list while it is chosen (a bounded insertion; O(PIVOTS·|U|·LIST)
 * at worst). A record costs PIVOTS distances and LIST keys in loops that C2 vectorises
 * (per-coordinate arrays, one long loop per coordinate or pair; a key costs two operations per
 * coordinate where a distance costs three), against |U| gathered distances for a brute force.
 * Memory: PIVOTS·LIST·(4d + 8) bytes for the lists (3.1 MB at d = 10) and PIVOTS·8d for the pivots,
 * whatever |U|. Thread-safe: immutable after construction; each thread keeps rows of distances and
 * keys as scratch.
 */
public final class PivotListIndex {
    /** Pivots (at most |U|). */
    public static final int PIVOTS = 128;

    /** Points of U in each pivot's list (at most |U|). */
    public static final int LIST = 512;

    /**
     * Largest universe accepted: the lists then still hold PIVOTS·LIST / |U| = 1 copy per point on
     * average (a larger U would leave at least half of its points unreachable).
     */
    public static final int MAX_UNIVERSE = 1 << 16;

    /**
     * The rule's name with everything that decides where a record lands: keyed into the dp-hst
     * mechanism id and a stream's saved public parameters, so a change of either size or of the
     * arithmetic is a different rule, refused at restore rather than mixed into open windows.
     */
    public static final String RULE =
            "pivot-v1(pivots=" + PIVOTS + ",list=" + LIST + ",list_key=float32_relative)";

    private final int d;
    private final int pivotCount;
    private final int listSize;

    /** {@code pivotRows[t][i]}: coordinate t of pivot i. */
    private final double[][] pivotRows;

    /**
     * {@code lists[i][t][j]}: coordinate t of pivot i's j-th nearest point minus the pivot's, as
     * float.
     */
    private final float[][][] lists;

    /** {@code norms[i][j]}: the float norm of {@code lists[i][·][j]} (see the class comment). */
    private final float[][] norms;

    /** {@code ids[i][j]}: index in U of pivot i's j-th nearest point. */
    private final int[][] ids;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        double[] pivot = new double[0];
        float[] list = new float[0];
        float[] y = new float[0];
    }

    /**
     * @param points the universe's vectors, at least one, all of one dimension (not modified, not
     *     retained)
     * @throws IllegalArgumentException if U is empty or larger than {@link #MAX_UNIVERSE}, its
     *     points have no coordinates or the dimensions disagree
     */
    public PivotListIndex(double[][] points) {
        int n = points.length;
        if (n == 0 || n > MAX_UNIVERSE) {
            throw new IllegalArgumentException(
                    "universe of " + n + " points, expected 1.." + MAX_UNIVERSE);
        }
        this.d = points[0].length;
        if (d == 0) {
            throw new IllegalArgumentException("points without coordinates");
        }
        double[] flat = new double[n * d];
        for (int p = 0; p < n; p++) {
            if (points[p].length != d) {
                throw new IllegalArgumentException(
                        "point " + p + " has dimension " + points[p].length + ", expected " + d);
            }
            System.arraycopy(points[p], 0, flat, p * d, d);
        }
        this.pivotCount = Math.min(PIVOTS, n);
        this.listSize = Math.min(LIST, n);
        int[] pivots = farthestPointTraversal(flat, d, n, pivotCount);
        this.pivotRows = new double[d][pivotCount];
        this.lists = new float[pivotCount][d][listSize];
        this.norms = new float[pivotCount][listSize];
        this.ids = new int[pivotCount][];
        for (int i = 0; i < pivotCount; i++) {
            double[] b = points[pivots[i]];
            for (int t = 0; t < d; t++) {
                pivotRows[t][i] = b[t];
            }
            ids[i] = nearestFirst(flat, d, n, b, listSize);
            for (int j = 0; j < listSize; j++) {
                int q = ids[i][j];
                ids[i][j] = q;
                float[] r = new float[d];
                for (int t = 0; t < d; t++) {
                    r[t] = (float) (points[q][t] - b[t]);
                    lists[i][t][j] = r[t];
                }
                norms[i][j] = norm(r);
            }
        }
    }

    /**
     * The first {@code count} points of a farthest-point traversal from point 0: each next point is
     * the one whose squared distance to the nearest chosen point is largest, ties to the lowest
     * index.
     */
    static int[] farthestPointTraversal(double[] flat, int d, int n, int count) {
        int[] chosen = new int[count];
        double[] nearest = new double[n];
        Arrays.fill(nearest, Double.POSITIVE_INFINITY);
        double[] c = new double[d];
        int current = 0;
        for (int i = 0; i < count; i++) {
            chosen[i] = current;
            System.arraycopy(flat, current * d, c, 0, d);
            int next = 0;
            double far = -1;
            for (int q = 0; q < n; q++) {
                double s = NearestPoint.squaredDistance(flat, d, q, c);
                if (s < nearest[q]) {
                    nearest[q] = s;
                }
                if (nearest[q] > far) {
                    far = nearest[q];
                    next = q;
                }
            }
            current = next;
        }
        return chosen;
    }

    /**
     * The {@code size} points of U nearest to b, ordered by (squared distance, index): inserted in
     * index order, a later point enters only when strictly nearer than the last kept and moves only
     * past strictly farther ones, so ties keep the lower index first (a stable sort's order).
     */
    static int[] nearestFirst(double[] flat, int d, int n, double[] b, int size) {
        int[] ids = new int[size];
        double[] dist = new double[size];
        int kept = 0;
        for (int q = 0; q < n; q++) {
            double s = NearestPoint.squaredDistance(flat, d, q, b);
            if (kept == size && !(s < dist[size - 1])) {
                continue;
            }
            int j = kept < size ? kept++ : size - 1;
            while (j > 0 && s < dist[j - 1]) {
                dist[j] = dist[j - 1];
                ids[j] = ids[j - 1];
                j--;
            }
            dist[j] = s;
            ids[j] = q;
        }
        return ids;
    }

    /** Σ over coordinate pairs (r_t² + r_{t+1}²) in pair order, an odd last coordinate alone. */
    static float norm(float[] r) {
        float n = 0;
        int t = 0;
        for (; t + 1 < r.length; t += 2) {
            float pair = r[t] * r[t] + r[t + 1] * r[t + 1];
            n = t == 0 ? pair : n + pair;
        }
        if (t < r.length) {
            n = t == 0 ? r[t] * r[t] : n + r[t] * r[t];
        }
        return n;
    }

    /** The dimension of U. */
    public int dimension() {
        return d;
    }

    /** The index in U of the point x is answered with (see the class comment). */
    public int nearest(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("expected dimension " + d + ", got " + x.length);
        }
        Scratch scratch = SCRATCH.get();
        if (scratch.pivot.length < pivotCount) {
            scratch.pivot = new double[pivotCount];
        }
        if (scratch.list.length < listSize) {
            scratch.list = new float[listSize];
        }
        if (scratch.y.length < d) {
            scratch.y = new float[d];
        }
        int b = nearestPivot(x, scratch.pivot);
        return ids[b][nearestInList(b, x, scratch.y, scratch.list)];
    }

    /** Index of the pivot nearest to x (double, index order, strict; ties to the first). */
    private int nearestPivot(double[] x, double[] s) {
        int m = pivotCount;
        double[] r0 = pivotRows[0];
        double x0 = x[0];
        for (int i = 0; i < m; i++) {
            double e = r0[i] - x0;
            s[i] = e * e;
        }
        for (int t = 1; t < d; t++) {
            double[] rt = pivotRows[t];
            double xt = x[t];
            for (int i = 0; i < m; i++) {
                double e = rt[i] - xt;
                s[i] += e * e;
            }
        }
        int best = 0;
        double bestS = s[0];
        for (int i = 1; i < m; i++) {
            if (s[i] < bestS) {
                bestS = s[i];
                best = i;
            }
        }
        return best;
    }

    /** Position of the entry of pivot b's list with the least key (strict; ties to the first). */
    private int nearestInList(int b, double[] x, float[] y, float[] s) {
        for (int t = 0; t < d; t++) {
            y[t] = (float) (-2 * (x[t] - pivotRows[t][b]));
        }
        float[][] list = lists[b];
        float[] n = norms[b];
        int m = listSize;
        int t;
        if (d >= 2) {
            float[] r0 = list[0];
            float[] r1 = list[1];
            float y0 = y[0];
            float y1 = y[1];
            for (int j = 0; j < m; j++) {
                s[j] = n[j] + (r0[j] * y0 + r1[j] * y1);
            }
            t = 2;
        } else {
            float[] r0 = list[0];
            float y0 = y[0];
            for (int j = 0; j < m; j++) {
                s[j] = n[j] + r0[j] * y0;
            }
            t = 1;
        }
        for (; t + 1 < d; t += 2) {
            float[] r0 = list[t];
            float[] r1 = list[t + 1];
            float y0 = y[t];
            float y1 = y[t + 1];
            for (int j = 0; j < m; j++) {
                s[j] += r0[j] * y0 + r1[j] * y1;
            }
        }
        if (t < d) {
            float[] r0 = list[t];
            float y0 = y[t];
            for (int j = 0; j < m; j++) {
                s[j] += r0[j] * y0;
            }
        }
        int best = 0;
        float bestS = s[0];
        for (int j = 1; j < m; j++) {
            if (s[j] < bestS) {
                bestS = s[j];
                best = j;
            }
        }
        return best;
    }
}
