package org.dpclust.kmedian;

import org.dpclust.geometry.NearestPoint;

/**
 * An approximate nearest point of a public vector universe U for an ARBITRARY vector x, in well
 * under the cost of an exact search: start at the centre of the node reached by a greedy descent of
 * the HST over U through its first {@link #START_DEPTH} levels (at each node, the child whose
 * centre is nearest), then walk on a public neighbour graph of U — from the current point p, move
 * to the nearest of p's {@code m} nearest points of U if it is strictly nearer to x than p, until
 * none is.
 *
 * <p>Contract. (1) The answer is a function of x, the public universe, the public tree and {@code
 * m} only — of no other record and no arrival order — and the same on every JVM: the neighbour
 * lists are the m nearest points of each point of U, ordered by (squared distance, index) with
 * strict IEEE arithmetic; every comparison is strict in a fixed order (ties keep the earlier
 * candidate); no randomness. (2) The answer is never farther from x than the start point, and it is
 * a local minimum of the distance to x on the neighbour graph; it is usually, not always, the exact
 * nearest point (docs/performance.md#hst-snap measures how often). (3) No input makes it throw or
 * loop: each move strictly decreases the distance to x over a finite set, and the number of moves
 * is capped at |U| besides; a NaN or infinite coordinate makes every comparison false (NaN) or
 * every distance +∞, so the walk stays at its start (the descent's first child when every distance
 * is NaN).
 *
 * <p>Distances and comparisons are those of {@link NearestPoint} (sums of squared coordinate
 * differences in index order; a neighbour list is scored in list order with a strict {@code <},
 * four neighbours at a time).
 *
 * <p>Cost: the neighbour lists are computed once by brute force, O(|U|² d) time and |U|·m ints of
 * memory; the universe is therefore capped at {@link #MAX_UNIVERSE} points. Thread-safe: immutable
 * after construction.
 */
public final class NeighbourWalk {
    /** Default neighbours per point of U (docs/performance.md#hst-snap: agreement vs cost). */
    public static final int DEFAULT_NEIGHBOURS = 128;

    /** Levels of the HST descended greedily to find the walk's start. */
    static final int START_DEPTH = 2;

    /**
     * The rule's name with everything that decides where it lands (neighbours per point, start
     * depth): keyed into the dp-hst mechanism id and a stream's saved public parameters, so a
     * future change of either is a different rule, refused at restore rather than mixed into open
     * windows.
     */
    public static final String RULE =
            "walk-v1(neighbours=" + DEFAULT_NEIGHBOURS + ",start_depth=" + START_DEPTH + ")";

    /** Largest universe whose neighbour graph is built (O(|U|² d) once). */
    public static final int MAX_UNIVERSE = 1 << 14;

    private final int n;
    private final int d;
    private final int m;

    /** U's points, row-major. */
    private final double[] points;

    /** Point p's neighbours: {@code neighbours[p*m .. p*m+m)}, nearest first. */
    private final int[] neighbours;

    private final HstDescent descent;

    /**
     * @param tree an HST built over {@code points} with the l2 metric
     * @param points the universe's vectors (not modified, not retained)
     * @param m neighbours per point, at least 1 (a universe of at most m points keeps all |U| − 1
     *     others)
     * @throws IllegalArgumentException if the sizes disagree, m is out of range or |U| exceeds
     *     {@link #MAX_UNIVERSE}
     */
    public NeighbourWalk(Hst tree, double[][] points, int m) {
        this.n = points.length;
        if (n > MAX_UNIVERSE) {
            throw new IllegalArgumentException(
                    "universe of " + n + " points exceeds " + MAX_UNIVERSE);
        }
        if (m < 1) {
            throw new IllegalArgumentException("neighbours must be >= 1, got " + m);
        }
        m = Math.min(m, n - 1);
        this.descent = new HstDescent(tree, points);
        this.d = points[0].length;
        this.m = m;
        this.points = new double[n * d];
        for (int p = 0; p < n; p++) {
            System.arraycopy(points[p], 0, this.points, p * d, d);
        }
        this.neighbours = new int[n * m];
        int[] nearestIds = new int[m];
        double[] nearestDist = new double[m];
        for (int p = 0; p < n; p++) {
            // the m smallest (distance, index) pairs, by insertion in index order: a later index
            // enters only when strictly nearer, so ties keep the smaller index first
            int size = 0;
            for (int q = 0; q < n; q++) {
                if (q == p) {
                    continue;
                }
                double s = NearestPoint.squaredDistance(this.points, d, p, points[q]);
                if (size == m && !(s < nearestDist[m - 1])) {
                    continue;
                }
                int i = size < m ? size++ : m - 1;
                while (i > 0 && s < nearestDist[i - 1]) {
                    nearestDist[i] = nearestDist[i - 1];
                    nearestIds[i] = nearestIds[i - 1];
                    i--;
                }
                nearestDist[i] = s;
                nearestIds[i] = q;
            }
            System.arraycopy(nearestIds, 0, neighbours, p * m, m);
        }
    }

    /** Neighbours per point. */
    public int neighbours() {
        return m;
    }

    /** The j-th nearest point of U to point p (j from 0; for tests). */
    int neighbour(int p, int j) {
        return neighbours[p * m + j];
    }

    /** The index of the point of U x is snapped to (see the class comment). */
    public int nearest(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("expected dimension " + d + ", got " + x.length);
        }
        int p = descent.greedyCentre(x, START_DEPTH);
        double best = NearestPoint.squaredDistance(points, d, p, x);
        for (int moves = 0; moves < n; moves++) {
            int j = NearestPoint.nearestOf(points, d, x, neighbours, p * m, p * m + m, best);
            if (j < 0) {
                return p;
            }
            p = neighbours[j];
            best = NearestPoint.squaredDistance(points, d, p, x);
        }
        return p;
    }
}
