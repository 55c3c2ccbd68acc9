package org.dpclust.ledger;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The per-period spend bounds of one {@link RunningBudget} (plain Java, public values only: period
 * starts and the amounts charged to them): for each retained period, an upper bound of its spend
 * and of the coverage of its instants before the budget's frontier ({@code collapsed}, record
 * units).
 *
 * <p>The latest period (the greatest start held) keeps both amounts exactly, as {@link
 * BigDecimal}s: a stream's windows are charged there and decided exactly. Every earlier period
 * keeps them as doubles rounded up (never below the exact amount; each later raise of an earlier
 * period is rounded up again), so a charge reaching back is decided against an upper bound — the
 * over-count a {@link RunningBudget} already allows outside its exact region, at most one unit in
 * the last place per raise. In memory that is 24 bytes a period in arrays allocated once for {@link
 * RunningBudget#MAX_PERIODS} periods, where a sorted map of exact amounts took ≈ 160 bytes an entry
 * per map: the retained memory no longer grows with the number of periods charged.
 *
 * <p>Snapshots keep the format of the two maps (every amount as its exact decimal value; an earlier
 * period's value is its double's), and reading one back makes the greatest start exact again: a
 * write/read round trip reproduces the state.
 */
final class PeriodSpend {
    private long[] starts;
    private double[] spent;
    private double[] collapsed;
    private int count;

    /**
     * Exact amounts of the latest period, starts[count - 1] (meaningless when count == 0); its
     * entries in the arrays are set, rounded up, only when a later period takes its place.
     */
    private BigDecimal latestSpent = BigDecimal.ZERO;

    private BigDecimal latestCollapsed = BigDecimal.ZERO;

    PeriodSpend(int capacity) {
        starts = new long[capacity + 1];
        spent = new double[capacity + 1];
        collapsed = new double[capacity + 1];
    }

    PeriodSpend copy() {
        PeriodSpend c = new PeriodSpend(starts.length - 1);
        c.starts = starts.clone();
        c.spent = spent.clone();
        c.collapsed = collapsed.clone();
        c.count = count;
        c.latestSpent = latestSpent;
        c.latestCollapsed = latestCollapsed;
        return c;
    }

    /** Periods held. */
    int size() {
        return count;
    }

    /** The smallest start held; only when {@link #size} > 0. */
    long firstStart() {
        return starts[0];
    }

    /** The spend bound of the period starting at {@code p} (0 when not held). */
    BigDecimal spent(long p) {
        int i = indexOf(p);
        if (i < 0) {
            return BigDecimal.ZERO;
        }
        return i == count - 1 ? latestSpent : new BigDecimal(spent[i]);
    }

    /** The coverage bound of the collapsed instants of period {@code p} (0 when not held). */
    BigDecimal collapsed(long p) {
        int i = indexOf(p);
        if (i < 0) {
            return BigDecimal.ZERO;
        }
        return i == count - 1 ? latestCollapsed : new BigDecimal(collapsed[i]);
    }

    /** Sets the spend bound of period {@code p}, holding it if it is not held yet. */
    void setSpent(long p, BigDecimal v) {
        int i = slot(p);
        if (i == count - 1) {
            latestSpent = v;
        } else {
            spent[i] = up(v);
        }
    }

    /** Sets the collapsed coverage bound of period {@code p}, holding it if it is not held yet. */
    void setCollapsed(long p, BigDecimal v) {
        int i = slot(p);
        if (i == count - 1) {
            latestCollapsed = v;
        } else {
            collapsed[i] = up(v);
        }
    }

    /** Drops the earliest period held and returns its spend bound; only when {@link #size} > 0. */
    BigDecimal pollFirst() {
        BigDecimal v = spent(starts[0]);
        count--;
        System.arraycopy(starts, 1, starts, 0, count);
        System.arraycopy(spent, 1, spent, 0, count);
        System.arraycopy(collapsed, 1, collapsed, 0, count);
        return v;
    }

    /** The index of {@code p}, inserted (amounts 0) if not held; the latest stays exact. */
    private int slot(long p) {
        int i = Arrays.binarySearch(starts, 0, count, p);
        if (i >= 0) {
            return i;
        }
        i = -i - 1;
        if (count == starts.length) { // a charge over more periods than retained, before compact
            int n = 2 * starts.length;
            starts = Arrays.copyOf(starts, n);
            spent = Arrays.copyOf(spent, n);
            collapsed = Arrays.copyOf(collapsed, n);
        }
        System.arraycopy(starts, i, starts, i + 1, count - i);
        System.arraycopy(spent, i, spent, i + 1, count - i);
        System.arraycopy(collapsed, i, collapsed, i + 1, count - i);
        starts[i] = p;
        spent[i] = 0;
        collapsed[i] = 0;
        count++;
        if (i == count - 1) { // a new latest: the previous one keeps its bounds rounded up
            if (i > 0) {
                spent[i - 1] = up(latestSpent);
                collapsed[i - 1] = up(latestCollapsed);
            }
            latestSpent = BigDecimal.ZERO;
            latestCollapsed = BigDecimal.ZERO;
        }
        return i;
    }

    private int indexOf(long p) {
        return count == 0 ? -1 : Arrays.binarySearch(starts, 0, count, p);
    }

    /** The least double not below {@code x}. */
    static double up(BigDecimal x) {
        double d = x.doubleValue();
        return new BigDecimal(d).compareTo(x) < 0 ? Math.nextUp(d) : d;
    }

    /** The two maps' snapshot format: spend bounds, then the non-zero collapsed bounds. */
    void write(DataOutput out) throws IOException {
        out.writeInt(count);
        for (int i = 0; i < count; i++) {
            out.writeLong(starts[i]);
            RunningBudget.writeAmount(out, spent(starts[i]));
        }
        int nonZero = 0;
        for (int i = 0; i < count; i++) {
            nonZero += collapsed(starts[i]).signum() != 0 ? 1 : 0;
        }
        out.writeInt(nonZero);
        for (int i = 0; i < count; i++) {
            BigDecimal c = collapsed(starts[i]);
            if (c.signum() != 0) {
                out.writeLong(starts[i]);
                RunningBudget.writeAmount(out, c);
            }
        }
    }

    /** Reads what {@link #write} wrote (or the maps an earlier build wrote). */
    static PeriodSpend read(DataInput in, int capacity) throws IOException {
        PeriodSpend s = new PeriodSpend(capacity);
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            s.setSpent(in.readLong(), RunningBudget.readAmount(in));
        }
        n = in.readInt();
        for (int i = 0; i < n; i++) {
            s.setCollapsed(in.readLong(), RunningBudget.readAmount(in));
        }
        return s;
    }
}
