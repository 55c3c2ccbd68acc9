package org.dpclust.io;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * An in-memory clustering data set: {@code size()} points of equal dimension, optional integer
 * ground-truth labels (one per point) and the {@link DomainScaling} that produced the coordinates.
 *
 * <p>Contract: {@code points} is rectangular (every row has the same length, at least 1; zero rows
 * are allowed), {@code labels} is {@code null} or has one entry per point, and {@code scaling} is
 * never {@code null}. For speed on large data sets the arrays are <em>shared, not copied</em>:
 * callers must treat them as read-only. Operations that derive a new data set ({@link #subsample},
 * {@link #shuffled}, {@link #windows}) share the row arrays too and keep name suffixes that say
 * what was done.
 */
public record Dataset(String name, double[][] points, int[] labels, DomainScaling scaling) {

    /** Validates the shape described in the class contract. */
    public Dataset {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(points, "points");
        Objects.requireNonNull(scaling, "scaling");
        if (points.length > 0) {
            int d = points[0].length;
            if (d == 0) {
                throw new IllegalArgumentException("dataset " + name + ": points have dimension 0");
            }
            for (int i = 0; i < points.length; i++) {
                if (points[i] == null || points[i].length != d) {
                    throw new IllegalArgumentException(
                            "dataset "
                                    + name
                                    + ": row "
                                    + i
                                    + " has dimension "
                                    + (points[i] == null ? "null" : points[i].length)
                                    + ", expected "
                                    + d);
                }
            }
        }
        if (labels != null && labels.length != points.length) {
            throw new IllegalArgumentException(
                    "dataset "
                            + name
                            + ": "
                            + labels.length
                            + " labels for "
                            + points.length
                            + " points");
        }
    }

    /** Number of points. */
    public int size() {
        return points.length;
    }

    /** Dimension of every point, or 0 for an empty data set. */
    public int dimension() {
        return points.length == 0 ? 0 : points[0].length;
    }

    /** Whether ground-truth labels are present. */
    public boolean hasLabels() {
        return labels != null;
    }

    /** Number of distinct label values, or 0 when there are no labels. */
    public int labelCount() {
        if (labels == null) {
            return 0;
        }
        return (int) Arrays.stream(labels).distinct().count();
    }

    /**
     * A uniformly random subset of {@code round(fraction * size())} points drawn without
     * replacement, kept in their original relative order.
     *
     * @param fraction in (0, 1]
     * @param seed public seed of the draw
     */
    public Dataset subsample(double fraction, long seed) {
        if (!(fraction > 0.0 && fraction <= 1.0)) {
            throw new IllegalArgumentException("fraction must be in (0, 1], got " + fraction);
        }
        int n = size();
        int m = (int) Math.round(fraction * n);
        int[] order = identity(n);
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        for (int i = 0; i < m; i++) {
            int j = i + rng.nextInt(n - i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] chosen = Arrays.copyOf(order, m);
        Arrays.sort(chosen);
        return select(chosen, name + "[subsample " + fraction + " seed " + seed + "]");
    }

    /** All points in a uniformly random order (Fisher–Yates), labels moving with their points. */
    public Dataset shuffled(long seed) {
        int n = size();
        int[] order = identity(n);
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return select(order, name + "[shuffled seed " + seed + "]");
    }

    /**
     * Consecutive, disjoint slices of {@code windowSize} points in the current order; the last
     * window holds the remainder and may be shorter. An empty data set has no windows.
     */
    public List<Dataset> windows(int windowSize) {
        if (windowSize < 1) {
            throw new IllegalArgumentException("windowSize must be >= 1, got " + windowSize);
        }
        List<Dataset> result = new ArrayList<>();
        for (int start = 0, w = 0; start < size(); start += windowSize, w++) {
            int end = Math.min(size(), start + windowSize);
            result.add(
                    new Dataset(
                            name + "[window " + w + "]",
                            Arrays.copyOfRange(points, start, end),
                            labels == null ? null : Arrays.copyOfRange(labels, start, end),
                            scaling));
        }
        return result;
    }

    private Dataset select(int[] indices, String newName) {
        double[][] p = new double[indices.length][];
        int[] l = labels == null ? null : new int[indices.length];
        for (int i = 0; i < indices.length; i++) {
            p[i] = points[indices[i]];
            if (l != null) {
                l[i] = labels[indices[i]];
            }
        }
        return new Dataset(newName, p, l, scaling);
    }

    private static int[] identity(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }
}
