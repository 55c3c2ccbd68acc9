package org.dpclust.geometry;

import java.io.Serializable;
import java.util.SplittableRandom;

/**
 * A public finite point set in a declared box, drawn from a public seed, with nearest-point lookup.
 * It defines a public partition of the domain (the Voronoi cells of the points): which cell a
 * record falls into is a public function of the record, independent of other records and of arrival
 * order. Nothing here is private; the seed is part of the public stream configuration.
 *
 * <p>{@link #nearest} goes through a {@link NearestPointIndex} (exactly {@link NearestPoint#of},
 * faster from about 64 points), built on first use and not serialized: a deserialized copy rebuilds
 * it, deterministically.
 */
public final class PublicPointSet implements Serializable {
    private final int dimension;
    private final int size;

    /** Row-major, size x dimension. */
    private final double[] points;

    /** Built on first {@link #nearest}; a benign race may build it twice, identically. */
    private transient volatile NearestPointIndex index;

    public PublicPointSet(double[][] pts) {
        if (pts.length == 0) {
            throw new IllegalArgumentException("a point set needs at least one point");
        }
        this.size = pts.length;
        this.dimension = pts[0].length;
        this.points = new double[size * dimension];
        for (int i = 0; i < size; i++) {
            System.arraycopy(pts[i], 0, points, i * dimension, dimension);
        }
    }

    /** {@code size} points uniform in the box, from the public seed. */
    public static PublicPointSet uniform(DomainBounds bounds, int size, long publicSeed) {
        SplittableRandom rng =
                new SplittableRandom(publicSeed); // public randomness (not privacy noise)
        double[][] pts = new double[size][bounds.dimension()];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < bounds.dimension(); j++) {
                pts[i][j] = bounds.lower(j) + rng.nextDouble() * bounds.width(j);
            }
        }
        return new PublicPointSet(pts);
    }

    public int size() {
        return size;
    }

    public int dimension() {
        return dimension;
    }

    public double[] point(int i) {
        double[] p = new double[dimension];
        System.arraycopy(points, i * dimension, p, 0, dimension);
        return p;
    }

    /**
     * Index of the nearest point (squared Euclidean; ties to the lowest index): exactly {@code
     * NearestPoint.of(points, d, x)}. Allocation-free after the first call on each thread.
     */
    public int nearest(double[] x) {
        NearestPointIndex i = index;
        if (i == null) {
            i = NearestPointIndex.of(points, dimension);
            index = i;
        }
        return i.nearest(x);
    }
}
