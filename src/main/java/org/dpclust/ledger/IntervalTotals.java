package org.dpclust.ledger;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The totals charged to the most recently first-charged intervals of one {@link RunningBudget}, at
 * most {@code max} of them, the oldest dropped first (plain Java, public values only). Kept as
 * parallel primitive arrays in a ring: 24 bytes an interval, where a map of interval to exact
 * amount cost ≈ 200, so a fleet's ledger memory per stream stays small (each stream holds two: ε
 * and ρ). A total is a double: it is only ever stated (a decision's {@code window_total}, a double
 * computed as the previous total plus the exact amount, rounded once), never decided on.
 */
final class IntervalTotals {
    private final int max;
    private long[] starts = new long[4];
    private long[] ends = new long[4];
    private double[] sums = new double[4];
    private int count;

    /** Index of the oldest entry once the ring is full (0 until then). */
    private int oldest;

    /** The latest start of an entry {@link #read} dropped (a list longer than max), or MIN. */
    private long droppedOnRead = Long.MIN_VALUE;

    IntervalTotals(int max) {
        this.max = max;
    }

    IntervalTotals copy() {
        IntervalTotals c = new IntervalTotals(max);
        c.starts = starts.clone();
        c.ends = ends.clone();
        c.sums = sums.clone();
        c.count = count;
        c.oldest = oldest;
        return c;
    }

    int size() {
        return count;
    }

    /** The total of {@code [start, end)}, or NaN when it is not held. */
    double get(long start, long end) {
        int i = indexOf(start, end);
        return i < 0 ? Double.NaN : sums[i];
    }

    /**
     * Sets the total of {@code [start, end)}: in place when held, else as the newest entry.
     *
     * @return the start of the interval dropped to make room, or {@link Long#MIN_VALUE}
     */
    long put(long start, long end, double total) {
        int i = indexOf(start, end);
        if (i >= 0) {
            sums[i] = total;
            return Long.MIN_VALUE;
        }
        if (count < max) {
            if (count == starts.length) {
                int n = Math.min(max, 2 * count);
                starts = Arrays.copyOf(starts, n);
                ends = Arrays.copyOf(ends, n);
                sums = Arrays.copyOf(sums, n);
            }
            set(count++, start, end, total);
            return Long.MIN_VALUE;
        }
        long dropped = starts[oldest];
        set(oldest, start, end, total);
        oldest = (oldest + 1) % max;
        return dropped;
    }

    private void set(int i, long start, long end, double total) {
        starts[i] = start;
        ends[i] = end;
        sums[i] = total;
    }

    private int indexOf(long start, long end) {
        for (int i = 0; i < count; i++) {
            if (starts[i] == start && ends[i] == end) {
                return i;
            }
        }
        return -1;
    }

    /** Oldest first, each total as its exact decimal value (the snapshot format of a map). */
    void write(DataOutput out) throws IOException {
        out.writeInt(count);
        for (int k = 0; k < count; k++) {
            int i = (oldest + k) % count;
            out.writeLong(starts[i]);
            out.writeLong(ends[i]);
            RunningBudget.writeAmount(out, new BigDecimal(sums[i]));
        }
    }

    /**
     * Reads what {@link #write} wrote; a longer list keeps its newest {@code max} entries, and the
     * latest start it drops is {@link #droppedOnRead} (the reader must count those intervals as
     * evicted, or it would state 0 for an interval that was charged).
     */
    static IntervalTotals read(DataInput in, int max) throws IOException {
        IntervalTotals t = new IntervalTotals(max);
        int n = in.readInt();
        for (int k = 0; k < n; k++) {
            long dropped =
                    t.put(in.readLong(), in.readLong(), RunningBudget.readAmount(in).doubleValue());
            t.droppedOnRead = Math.max(t.droppedOnRead, dropped);
        }
        return t;
    }

    /** The latest start of an entry {@link #read} dropped, or {@link Long#MIN_VALUE}. */
    long droppedOnRead() {
        return droppedOnRead;
    }
}
