package org.dpclust.kmeans;

import java.util.Arrays;
import org.dpclust.privacy.AccumulatorDigest;

/**
 * Exact, mergeable per-cell statistics of one window: for each cell of a public partition, the
 * number of records and the fixed-point sum of their clamped coordinates ({@link
 * org.dpclust.privacy.FixedPointCodec}). This is private data (operator state); only {@link
 * DpClusterStatistics} turns it into a release.
 *
 * <p>Layout (one {@code long[]}, so it can live in Flink state without a custom serializer): {@code
 * [count_0 .. count_{M-1}, sum_{0,0} .. sum_{0,d-1}, sum_{1,0} ..]}. Size O(M·d), independent of
 * the number of records. Merging is element-wise addition, so the accumulator of a union of
 * disjoint record sets equals the sum of their accumulators exactly (the hot-key two-phase
 * aggregation relies on this).
 *
 * <p>Overflow. Sums are Java {@code long}s, so they are exact modulo 2^64 in any order of adds,
 * subtracts and merges; a cell wraps only past about 2^32 records of one window (each coordinate is
 * at most 2^31 in magnitude). The release adds its noise modulo 2^64 too ({@code
 * privacy.GeometricMechanism}, "Arithmetic modulo 2^64"), so a wrapped cell is released as the
 * exact sum plus noise reduced modulo 2^64 — a post-processing of the exact release: the guarantee
 * holds, only that cell's centroid is meaningless (its decoded mean is clamped into the box).
 */
public final class ClusterStatistics {
    private final int cells;
    private final int dimension;
    private final long[] data;

    public ClusterStatistics(int cells, int dimension) {
        this(cells, dimension, new long[cells * (1 + dimension)]);
    }

    private ClusterStatistics(int cells, int dimension, long[] data) {
        if (data.length != cells * (1 + dimension)) {
            throw new IllegalArgumentException(
                    "state has " + data.length + " longs, expected " + cells * (1 + dimension));
        }
        this.cells = cells;
        this.dimension = dimension;
        this.data = data;
    }

    /** Wraps (does not copy) a state array produced by {@link #state()}. */
    public static ClusterStatistics wrap(int cells, int dimension, long[] state) {
        return new ClusterStatistics(cells, dimension, state);
    }

    public long[] state() {
        return data;
    }

    public int cells() {
        return cells;
    }

    public int dimension() {
        return dimension;
    }

    /** Adds one record, already encoded, to {@code cell}. */
    public void add(int cell, long[] encoded) {
        data[cell]++;
        int off = cells + cell * dimension;
        for (int j = 0; j < dimension; j++) {
            data[off + j] += encoded[j];
        }
    }

    /** Removes a record previously added (device contribution bounding evicts with it). */
    public void subtract(int cell, long[] encoded) {
        data[cell]--;
        int off = cells + cell * dimension;
        for (int j = 0; j < dimension; j++) {
            data[off + j] -= encoded[j];
        }
    }

    public void merge(ClusterStatistics other) {
        if (other.cells != cells || other.dimension != dimension) {
            throw new IllegalArgumentException("cannot merge statistics of different shapes");
        }
        for (int i = 0; i < data.length; i++) {
            data[i] += other.data[i];
        }
    }

    public long count(int cell) {
        return data[cell];
    }

    public long totalCount() {
        long n = 0;
        for (int i = 0; i < cells; i++) {
            n += data[i];
        }
        return n;
    }

    public long sum(int cell, int j) {
        return data[cells + cell * dimension + j];
    }

    public long[] counts() {
        return Arrays.copyOfRange(data, 0, cells);
    }

    public long[] sums() {
        return Arrays.copyOfRange(data, cells, data.length);
    }

    /** Digest of the exact contents: keys the release's noise (same contents, same noise). */
    public byte[] digest() {
        return new AccumulatorDigest().add(cells).add(dimension).add(data).digest();
    }
}
