package org.dpclust.geometry;

/**
 * The one nearest-point search of dpclust (public cells, HST universe snapping, Lloyd assignment):
 * over n points stored row-major in a {@code double[n·d]}, the index of the point at least squared
 * Euclidean distance from x, ties to the lowest index.
 *
 * <p>Contract: each distance is Σ_t (x_t − p_t)² summed in index order t = 0 .. d−1, and the points
 * are compared in index order with a strict {@code <}, so the result is bit-for-bit that of the
 * plain double loop (callers' partitions and assignments do not change). Four points are evaluated
 * per step with independent accumulators, which only lets the CPU overlap their dependency chains.
 * Allocation-free; public computation.
 */
public final class NearestPoint {
    private NearestPoint() {}

    /**
     * Index of the nearest of the {@code points.length / d} row-major points to x (x has length ≥
     * d).
     */
    public static int of(double[] points, int d, double[] x) {
        int n = points.length / d;
        int found = nearestOf(points, d, x, null, 0, n, Double.POSITIVE_INFINITY);
        return Math.max(found, 0);
    }

    /**
     * Among the points {@code ids[from..to)} (or the indices {@code from..to} themselves when
     * {@code ids} is null), the position in that range of the first point strictly nearer to x than
     * {@code bound} and than every earlier one — i.e. of the nearest, ties to the earliest — or −1
     * when none is strictly nearer than {@code bound} (always −1 when x or bound is NaN). Same
     * distances and comparison order as {@link #of}.
     */
    public static int nearestOf(
            double[] points, int d, double[] x, int[] ids, int from, int to, double bound) {
        int best = -1;
        double bestD = bound;
        int j = from;
        for (; j + 3 < to; j += 4) {
            int o0 = (ids == null ? j : ids[j]) * d;
            int o1 = (ids == null ? j + 1 : ids[j + 1]) * d;
            int o2 = (ids == null ? j + 2 : ids[j + 2]) * d;
            int o3 = (ids == null ? j + 3 : ids[j + 3]) * d;
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            for (int t = 0; t < d; t++) {
                double xt = x[t];
                double e0 = xt - points[o0 + t];
                double e1 = xt - points[o1 + t];
                double e2 = xt - points[o2 + t];
                double e3 = xt - points[o3 + t];
                s0 += e0 * e0;
                s1 += e1 * e1;
                s2 += e2 * e2;
                s3 += e3 * e3;
            }
            if (s0 < bestD) {
                bestD = s0;
                best = j;
            }
            if (s1 < bestD) {
                bestD = s1;
                best = j + 1;
            }
            if (s2 < bestD) {
                bestD = s2;
                best = j + 2;
            }
            if (s3 < bestD) {
                bestD = s3;
                best = j + 3;
            }
        }
        for (; j < to; j++) {
            double s = squaredDistance(points, d, ids == null ? j : ids[j], x);
            if (s < bestD) {
                bestD = s;
                best = j;
            }
        }
        return best;
    }

    /** Squared distance from x to point {@code index}, summed as in {@link #of} (bit-identical). */
    public static double squaredDistance(double[] points, int d, int index, double[] x) {
        int o = index * d;
        double s = 0;
        for (int t = 0; t < d; t++) {
            double e = x[t] - points[o + t];
            s += e * e;
        }
        return s;
    }
}
