package org.dpclust.geometry;

import java.util.Objects;

/**
 * The l1 or l2 metric over a fixed array of vectors (the public universe). Distances are computed
 * on demand (O(d) each) and not cached: callers that need a block of distances repeatedly (e.g. the
 * k-median demand-to-universe matrix) precompute it once themselves. The point arrays are shared,
 * not copied, and must not be modified.
 */
public final class VectorMetric implements Metric {

    /** Which norm of the difference. */
    public enum Norm {
        L1,
        L2
    }

    private final double[][] points;
    private final Norm norm;

    public VectorMetric(double[][] points, Norm norm) {
        this.points = Objects.requireNonNull(points, "points");
        this.norm = Objects.requireNonNull(norm, "norm");
        for (int i = 0; i < points.length; i++) {
            if (points[i] == null || points[i].length != points[0].length) {
                throw new IllegalArgumentException(
                        "points[" + i + "] has a different dimension than points[0]");
            }
        }
    }

    public static VectorMetric l1(double[][] points) {
        return new VectorMetric(points, Norm.L1);
    }

    public static VectorMetric l2(double[][] points) {
        return new VectorMetric(points, Norm.L2);
    }

    public Norm norm() {
        return norm;
    }

    @Override
    public int size() {
        return points.length;
    }

    @Override
    public double distance(int i, int j) {
        return between(points[i], points[j]);
    }

    /** The distance between two arbitrary vectors of the universe's dimension under this norm. */
    public double between(double[] a, double[] b) {
        double s = 0;
        if (norm == Norm.L1) {
            for (int t = 0; t < a.length; t++) {
                s += Math.abs(a[t] - b[t]);
            }
            return s;
        }
        for (int t = 0; t < a.length; t++) {
            double x = a[t] - b[t];
            s += x * x;
        }
        return Math.sqrt(s);
    }
}
