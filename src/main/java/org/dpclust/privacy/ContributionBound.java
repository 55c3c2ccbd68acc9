package org.dpclust.privacy;

/**
 * Device-level contribution bounding: of a device's records in one window, exactly the c records
 * with the smallest keyed hash HMAC(secret, record identity) count. The kept set is a function of
 * the set of records the device sent in the window, not of their arrival order or timing, and the
 * hash is keyed, so a device cannot choose which of its records count.
 *
 * <p>The kept records are held in a {@code long[]} of entries with a fixed stride whose first slot
 * is the hash; the rest of an entry is the caller's (e.g. cell and encoded features, so an evicted
 * record can be subtracted from an accumulator). Sensitivities of everything downstream scale with
 * c.
 */
public final class ContributionBound {
    /** Returned by {@link #offer} when the record does not count. */
    public static final int DROP = -1;

    /** Returned by {@link #offer} when the record is appended as a new entry. */
    public static final int APPEND = -2;

    private ContributionBound() {}

    /**
     * Decides what happens to a record with keyed hash {@code hash}.
     *
     * @param kept current entries (length a multiple of {@code stride}), may be empty
     * @return {@link #APPEND}, {@link #DROP}, or the index of the entry to replace (the largest
     *     hash)
     */
    public static int offer(long[] kept, int stride, long hash, int c) {
        int n = kept.length / stride;
        if (n < c) {
            return APPEND;
        }
        int worst = 0;
        for (int i = 1; i < n; i++) {
            if (Long.compareUnsigned(kept[i * stride], kept[worst * stride]) > 0) {
                worst = i;
            }
        }
        // ties (an identical record identity) are dropped: the kept set stays the same set either
        // way
        return Long.compareUnsigned(hash, kept[worst * stride]) < 0 ? worst : DROP;
    }
}
