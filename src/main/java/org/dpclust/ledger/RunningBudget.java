package org.dpclust.ledger;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One stream's spend as bounded running state: what a {@link PrivacyLedger} decision needs, kept so
 * that neither the cost of a decision nor the memory grows with the stream's history (plain Java,
 * public values only: event-time intervals and the amounts charged to them).
 *
 * <p>Amounts are in ledger units (ε, or ρ under zCDP accounting) and summed exactly. The rules are
 * {@link PrivacyLedger}'s (record units: spent in a period = the maximum over its instants of the
 * amounts covering the instant; device units: the sum of the amounts overlapping the period; a
 * lifetime total over all time), over three regions of event time:
 *
 * <ul>
 *   <li><b>exact</b>: instants from the {@code frontier} on. Record units keep the coverage as a
 *       step function of at most {@link #MAX_STEPS} breakpoints; a stream's windows move forward in
 *       time, so its charges land here and are decided exactly as by {@link PrivacyLedger};
 *   <li><b>collapsed</b>: instants of a retained period before the frontier. Only an upper bound of
 *       their coverage is kept per period ({@code collapsed}): a charge reaching back there (a
 *       batch run over an older interval) is decided as if it landed on the most-charged instant;
 *   <li><b>forgotten</b>: periods older than the {@link #MAX_PERIODS} latest periods charged (a
 *       day's period: two months). One upper bound of any such period's spend is kept: a charge
 *       there is decided against it and raises it.
 * </ul>
 *
 * Only the latest period charged keeps its spend exactly; earlier periods keep theirs as doubles
 * rounded up ({@link PeriodSpend}), so a charge landing in an earlier period (a window straddling
 * the start of the latest one, a batch run reaching back) may be decided against an amount a few
 * units in the last place above the exact one.
 *
 * <p>Outside the exact region the state over-counts, never under-counts: every decision it accepts,
 * {@link PrivacyLedger} fed the full history would accept too (tested against it on random
 * histories). State: at most {@link #MAX_PERIODS} periods' bounds, {@link #MAX_STEPS} breakpoints
 * and {@link #MAX_TOTALS} interval totals, whatever the history's length.
 *
 * <p>Interval totals (the {@code window_total} a decision states) are those of the {@link
 * #MAX_TOTALS} intervals charged first most recently (each the previous stated total plus the exact
 * amount, rounded once to a double, as the decision states it) and 0 for intervals starting after
 * every evicted one; for an older interval they are an upper bound (its instants' coverage bound,
 * or its period's sum under device units).
 */
public final class RunningBudget {
    /** Breakpoints of the exact coverage kept (record units). */
    public static final int MAX_STEPS = 256;

    /** Periods that keep a spend bound of their own; older ones share one. */
    public static final int MAX_PERIODS = 64;

    /** Interval totals kept (see {@link IntervalTotals}). */
    public static final int MAX_TOTALS = 128;

    private static final BigDecimal SLACK =
            BigDecimal.ONE.add(new BigDecimal(PrivacyLedger.CAP_SLACK));

    private final long periodMillis;
    private final boolean deviceUnits;

    /**
     * Retained periods by start: the spend bound (record units the max coverage bound, device units
     * the sum) and the coverage bound of the instants before the frontier (record units); exact for
     * the latest period, rounded up for earlier ones ({@link PeriodSpend}).
     */
    private PeriodSpend bounds = new PeriodSpend(MAX_PERIODS);

    /** Record units: coverage v on [key, next key) for instants ≥ frontier; 0 where no entry. */
    private final TreeMap<Long, BigDecimal> steps = new TreeMap<>();

    private IntervalTotals totals = new IntervalTotals(MAX_TOTALS);

    private long frontier = Long.MIN_VALUE;
    private long horizon = Long.MIN_VALUE;
    private BigDecimal forgotten = BigDecimal.ZERO;
    private BigDecimal lifetime = BigDecimal.ZERO;
    private long charges;
    private long evictedMaxStart = Long.MIN_VALUE;

    public RunningBudget(long periodMillis, boolean deviceUnits) {
        if (periodMillis <= 0) {
            throw new IllegalArgumentException("period must be positive");
        }
        this.periodMillis = periodMillis;
        this.deviceUnits = deviceUnits;
    }

    /**
     * An independent copy (a writer keeps one of the committed state before it counts decisions not
     * yet committed, to go back to if their commit fails). Amounts are immutable and shared.
     */
    public RunningBudget copy() {
        RunningBudget c = new RunningBudget(periodMillis, deviceUnits);
        c.bounds = bounds.copy();
        c.steps.putAll(steps);
        c.totals = totals.copy();
        c.frontier = frontier;
        c.horizon = horizon;
        c.forgotten = forgotten;
        c.lifetime = lifetime;
        c.charges = charges;
        c.evictedMaxStart = evictedMaxStart;
        return c;
    }

    /** Writes this state ({@link #read} reads it back); part of a ledger snapshot. */
    void write(java.io.DataOutput out) throws java.io.IOException {
        out.writeLong(periodMillis);
        out.writeBoolean(deviceUnits);
        bounds.write(out);
        writeAmounts(out, steps);
        totals.write(out);
        out.writeLong(frontier);
        out.writeLong(horizon);
        writeAmount(out, forgotten);
        writeAmount(out, lifetime);
        out.writeLong(charges);
        out.writeLong(evictedMaxStart);
    }

    /** Reads a state {@link #write} wrote. */
    static RunningBudget read(java.io.DataInput in) throws java.io.IOException {
        RunningBudget b = new RunningBudget(in.readLong(), in.readBoolean());
        b.bounds = PeriodSpend.read(in, MAX_PERIODS);
        readAmounts(in, b.steps);
        b.totals = IntervalTotals.read(in, MAX_TOTALS);
        b.frontier = in.readLong();
        b.horizon = in.readLong();
        b.forgotten = readAmount(in);
        b.lifetime = readAmount(in);
        b.charges = in.readLong();
        b.evictedMaxStart = Math.max(in.readLong(), b.totals.droppedOnRead());
        return b;
    }

    private static void writeAmounts(java.io.DataOutput out, TreeMap<Long, BigDecimal> m)
            throws java.io.IOException {
        out.writeInt(m.size());
        for (Map.Entry<Long, BigDecimal> e : m.entrySet()) {
            out.writeLong(e.getKey());
            writeAmount(out, e.getValue());
        }
    }

    private static void readAmounts(java.io.DataInput in, TreeMap<Long, BigDecimal> m)
            throws java.io.IOException {
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            m.put(in.readLong(), readAmount(in));
        }
    }

    /** An exact amount: its scale and unscaled value (BigDecimal's own representation). */
    static void writeAmount(java.io.DataOutput out, BigDecimal x) throws java.io.IOException {
        out.writeInt(x.scale());
        byte[] u = x.unscaledValue().toByteArray();
        out.writeInt(u.length);
        out.write(u);
    }

    static BigDecimal readAmount(java.io.DataInput in) throws java.io.IOException {
        int scale = in.readInt();
        byte[] u = new byte[in.readInt()];
        in.readFully(u);
        return new BigDecimal(new java.math.BigInteger(u), scale);
    }

    public long periodMillis() {
        return periodMillis;
    }

    public boolean deviceUnits() {
        return deviceUnits;
    }

    /** Charges folded in so far. */
    public long charges() {
        return charges;
    }

    /** Breakpoints, periods and interval totals held: bounded whatever the history's length. */
    public int size() {
        return steps.size() + bounds.size() + totals.size();
    }

    private long periodStart(long t) {
        return Math.floorDiv(t, periodMillis) * periodMillis;
    }

    /**
     * What charging {@code amount} ledger units to {@code interval} would decide under the limits
     * of {@code ledger} (its cap, lifetime cap and accounting; its period and units must be this
     * state's). Changes nothing.
     */
    public PrivacyLedger.Decision decide(
            PrivacyLedger ledger, PrivacyLedger.Interval interval, BigDecimal amount) {
        double cap = ledger.cap();
        double lifeCap = ledger.lifetimeCap();
        double a = amount.doubleValue();
        double before = total(interval);
        List<long[]> periods = periodsOf(interval);
        BigDecimal[] after = new BigDecimal[periods.size()];
        BigDecimal lifeAfter = lifetime;
        for (int i = 0; i < after.length; i++) {
            long p = periods.get(i)[0];
            BigDecimal added = deviceUnits ? amount : peakOver(interval, p).add(amount);
            BigDecimal now = spentIn(p);
            after[i] = deviceUnits ? now.add(amount) : now.max(added);
            lifeAfter = deviceUnits ? lifeAfter : lifeAfter.max(added);
        }
        if (deviceUnits) {
            lifeAfter = lifetime.add(amount);
        }
        if (lifeCap < Double.POSITIVE_INFINITY
                && lifeAfter.compareTo(new BigDecimal(lifeCap).multiply(SLACK)) > 0) {
            return new PrivacyLedger.Decision(
                    false,
                    interval,
                    a,
                    before,
                    lifetime.doubleValue(),
                    lifeCap,
                    Long.MIN_VALUE,
                    Long.MAX_VALUE,
                    true);
        }
        BigDecimal limit = new BigDecimal(cap).multiply(SLACK);
        int worst = 0;
        for (int i = 1; i < after.length; i++) {
            if (after[i].compareTo(after[worst]) > 0) {
                worst = i;
            }
        }
        if (after[worst].compareTo(limit) > 0) {
            long p = periods.get(worst)[0];
            return new PrivacyLedger.Decision(
                    false, interval, a, before, spentIn(p).doubleValue(), cap, p, p + periodMillis);
        }
        long p = periods.get(0)[0];
        return new PrivacyLedger.Decision(
                true,
                interval,
                a,
                new BigDecimal(before).add(amount).doubleValue(),
                after[0].doubleValue(),
                cap,
                p,
                p + periodMillis);
    }

    /** Folds an accepted charge of {@code amount} ledger units to {@code interval} in. */
    public void add(PrivacyLedger.Interval interval, BigDecimal amount) {
        charges++;
        double total = new BigDecimal(total(interval)).add(amount).doubleValue();
        List<long[]> periods = periodsOf(interval);
        BigDecimal lifeAfter = deviceUnits ? lifetime.add(amount) : lifetime;
        for (long[] period : periods) {
            long p = period[0];
            if (p < horizon) {
                continue; // forgotten: raised once below
            }
            if (deviceUnits) {
                bounds.setSpent(p, spentIn(p).add(amount));
            } else {
                BigDecimal added = peakOver(interval, p).add(amount);
                bounds.setSpent(p, spentIn(p).max(added));
                lifeAfter = lifeAfter.max(added);
                if (interval.start() < Math.min(frontier, p + periodMillis)
                        && frontier > p) { // reaches the collapsed instants of p
                    bounds.setCollapsed(p, bounds.collapsed(p).add(amount));
                }
            }
        }
        if (interval.start() < horizon) {
            forgotten = forgotten.add(amount);
            if (!deviceUnits) {
                lifeAfter = lifeAfter.max(forgotten);
            }
        }
        lifetime = lifeAfter;
        if (!deviceUnits) {
            addSteps(Math.max(interval.start(), frontier), interval.end(), amount);
        }
        long dropped = totals.put(interval.start(), interval.end(), total);
        if (dropped != Long.MIN_VALUE) {
            evictedMaxStart = Math.max(evictedMaxStart, dropped);
        }
        compact();
    }

    /** The total charged to {@code interval}: exact if recent, else an upper bound. */
    private double total(PrivacyLedger.Interval interval) {
        double t = totals.get(interval.start(), interval.end());
        if (!Double.isNaN(t)) {
            return t;
        }
        if (interval.start() > evictedMaxStart) {
            return 0; // starts after every evicted interval: never charged
        }
        BigDecimal bound = BigDecimal.ZERO;
        for (long[] period : periodsOf(interval)) {
            bound = bound.max(deviceUnits ? spentIn(period[0]) : peakOver(interval, period[0]));
        }
        return bound.doubleValue();
    }

    /** The spent bound of period {@code p}. */
    private BigDecimal spentIn(long p) {
        if (p < horizon) {
            return forgotten;
        }
        return bounds.spent(p);
    }

    /** Record units: the coverage bound over the instants of {@code i} in period {@code p}. */
    private BigDecimal peakOver(PrivacyLedger.Interval i, long p) {
        long s = Math.max(i.start(), p);
        long e = Math.min(i.end(), p + periodMillis);
        if (p < horizon) {
            return forgotten;
        }
        BigDecimal peak = BigDecimal.ZERO;
        if (s < frontier) {
            peak = bounds.collapsed(p);
        }
        long from = Math.max(s, frontier);
        if (from < e) {
            Map.Entry<Long, BigDecimal> first = steps.floorEntry(from);
            if (first != null) {
                peak = peak.max(first.getValue());
            }
            for (BigDecimal v : steps.subMap(from, false, e, false).values()) {
                peak = peak.max(v);
            }
        }
        return peak;
    }

    /** Periods {@code i} overlaps; one stands for all forgotten ones (they share one bound). */
    private List<long[]> periodsOf(PrivacyLedger.Interval i) {
        List<long[]> out = new ArrayList<>();
        long p = periodStart(i.start());
        if (p < horizon) {
            out.add(new long[] {p});
            p = horizon;
        }
        for (; p < i.end(); p += periodMillis) {
            out.add(new long[] {p});
        }
        return out;
    }

    private void addSteps(long s, long e, BigDecimal amount) {
        if (s >= e) {
            return;
        }
        split(s);
        split(e);
        for (Map.Entry<Long, BigDecimal> x : steps.subMap(s, true, e, false).entrySet()) {
            x.setValue(x.getValue().add(amount));
        }
        coalesce(e);
        coalesce(s);
    }

    /**
     * Drops breakpoint {@code t} when the coverage does not change there (windows charged alike
     * leave one segment, not one breakpoint per window).
     */
    private void coalesce(long t) {
        BigDecimal v = steps.get(t);
        if (v == null) {
            return;
        }
        Map.Entry<Long, BigDecimal> before = steps.lowerEntry(t);
        BigDecimal prev = before == null ? BigDecimal.ZERO : before.getValue();
        if (prev.compareTo(v) == 0) {
            steps.remove(t);
        }
    }

    /** Makes {@code t} a breakpoint carrying the coverage in force at {@code t}. */
    private void split(long t) {
        if (!steps.containsKey(t)) {
            Map.Entry<Long, BigDecimal> f = steps.floorEntry(t);
            steps.put(t, f == null ? BigDecimal.ZERO : f.getValue());
        }
    }

    /**
     * Keeps the state within its bounds: the {@link #MAX_PERIODS} latest periods charged keep a
     * spend bound each, older ones fold into the one {@code forgotten} bound (with the breakpoints
     * in them); breakpoints beyond {@link #MAX_STEPS} collapse into their periods' bounds, and
     * interval totals beyond {@link #MAX_TOTALS} are dropped (oldest first, by {@link
     * IntervalTotals#put}).
     */
    private void compact() {
        while (bounds.size() > MAX_PERIODS) {
            long first = bounds.firstStart();
            forgotten = forgotten.max(bounds.pollFirst());
            horizon = Math.max(horizon, first + periodMillis);
        }
        if (!deviceUnits && frontier < horizon) {
            split(horizon);
            steps.headMap(horizon).clear();
            frontier = horizon;
        }
        while (steps.size() > MAX_STEPS) {
            Map.Entry<Long, BigDecimal> first = steps.pollFirstEntry();
            long to = steps.firstKey();
            if (first.getValue().signum() == 0) {
                frontier = to; // nothing charged there: no bound to keep
                continue;
            }
            for (long p = periodStart(first.getKey()); p < to; p += periodMillis) {
                if (p >= horizon) {
                    bounds.setCollapsed(p, bounds.collapsed(p).max(first.getValue()));
                }
            }
            frontier = to;
        }
    }
}
