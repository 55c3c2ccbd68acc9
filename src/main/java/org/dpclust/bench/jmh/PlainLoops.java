package org.dpclust.bench.jmh;

/** The plain loops the bounds are made of: primitive arrays, no checks, no early exit. */
final class PlainLoops {
    private PlainLoops() {}

    /** Index of the nearest of the {@code points.length / d} row-major points to x (squared Euclidean). */
    static int nearest(double[] points, int d, double[] x) {
        int best = 0;
        double bestD = Double.POSITIVE_INFINITY;
        for (int p = 0, o = 0; o < points.length; p++, o += d) {
            double s = 0;
            for (int t = 0; t < d; t++) {
                double diff = x[t] - points[o + t];
                s += diff * diff;
            }
            if (s < bestD) {
                bestD = s;
                best = p;
            }
        }
        return best;
    }
}
