package org.dpclust.privacy;

import java.util.Arrays;

/**
 * The records of one device in one window that count: the c with the smallest keyed hash ({@link
 * ContributionBound}), kept in a packed {@code long[]} so a record displaced by one with a smaller
 * hash can be subtracted exactly from the window's summaries.
 *
 * <p>Layout: one entry of {@code 2 + d} longs per kept record — [keyed hash, event time, raw bits
 * of the d clamped features] — at most c entries. The array is the caller's state (e.g. one Flink
 * map-state value per window and device); this class holds only the shape (d, c).
 *
 * <p>Privacy: the kept set is a function of the set of records the device sent in the window, not
 * of their order or timing, and the hash is keyed by the secret, so a device cannot choose which of
 * its records count. Everything downstream sees at most c records per device and window, which is
 * what the sensitivities (scaled by c) assume.
 */
public final class DeviceReservoir {
    private final int dimension;
    private final int bound;
    private final int stride;

    /**
     * @param dimension d, the number of features of a record
     * @param bound c ≥ 1, records kept per device and window
     */
    public DeviceReservoir(int dimension, int bound) {
        if (dimension < 1 || bound < 1) {
            throw new IllegalArgumentException(
                    "dimension and bound must be >= 1, got " + dimension + ", " + bound);
        }
        this.dimension = dimension;
        this.bound = bound;
        this.stride = 2 + dimension;
    }

    /** A record as kept: its event time and clamped features. */
    public record Kept(long eventTime, double[] features) {}

    /**
     * What offering a record did.
     *
     * @param entries the reservoir after the offer (the same array, or a grown copy); unchanged
     *     when the record does not count
     * @param counts whether the offered record is now kept (add it to the window's summaries)
     * @param evicted the record it displaced (subtract it from the summaries), or null
     */
    public record Offer(long[] entries, boolean counts, Kept evicted) {}

    /** An empty reservoir. */
    public long[] empty() {
        return new long[0];
    }

    /**
     * Offers a record with keyed hash {@code hash}.
     *
     * @param entries the device's reservoir for the window, or null for an empty one
     */
    public Offer offer(long[] entries, long hash, long eventTime, double[] features) {
        if (features.length != dimension) {
            throw new IllegalArgumentException(
                    "record has " + features.length + " features, expected " + dimension);
        }
        long[] e = entries == null ? empty() : entries;
        int slot = ContributionBound.offer(e, stride, hash, bound);
        if (slot == ContributionBound.DROP) {
            return new Offer(e, false, null);
        }
        Kept evicted = null;
        if (slot == ContributionBound.APPEND) {
            e = Arrays.copyOf(e, e.length + stride);
            slot = e.length / stride - 1;
        } else {
            evicted = kept(e, slot);
        }
        int off = slot * stride;
        e[off] = hash;
        e[off + 1] = eventTime;
        for (int j = 0; j < dimension; j++) {
            e[off + 2 + j] = Double.doubleToRawLongBits(features[j]);
        }
        return new Offer(e, true, evicted);
    }

    /** The number of records kept in {@code entries}. */
    public int size(long[] entries) {
        return entries == null ? 0 : entries.length / stride;
    }

    /** The i-th kept record of {@code entries}. */
    public Kept kept(long[] entries, int i) {
        int off = i * stride;
        double[] x = new double[dimension];
        for (int j = 0; j < dimension; j++) {
            x[j] = Double.longBitsToDouble(entries[off + 2 + j]);
        }
        return new Kept(entries[off + 1], x);
    }
}
