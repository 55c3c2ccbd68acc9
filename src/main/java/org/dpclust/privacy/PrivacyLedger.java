package org.dpclust.privacy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One stream's privacy budget (docs/privacy.md#budget). Entries are event-time intervals [start,
 * end) with the total epsilon charged to them; a stream window is one such interval, a batch
 * release over a snapshot is the interval its records span.
 *
 * <p><b>Spent</b> is what one unit can have lost in the budget period that contains a time:
 *
 * <ul>
 *   <li>record units: a record lies in exactly one instant, so it is affected by the entries
 *       covering that instant only (parallel composition over disjoint windows, sequential over the
 *       releases that cover it). Spent = max over instants of the period of the sum of the entries
 *       covering it;
 *   <li>device units: a device can contribute to every window, so spent = the sum over all entries
 *       of the period.
 * </ul>
 *
 * An entry is counted in every period it overlaps (conservative for a batch interval crossing a
 * period boundary). A charge that would make spent exceed the cap is refused and changes nothing.
 *
 * <p>Arithmetic: sums are computed exactly (BigDecimal of the binary doubles). Because configured
 * epsilons such as 0.1 are not exact in binary, the comparison with the cap admits a relative slack
 * of {@value #CAP_SLACK}; that is the only rounding in the ledger, and it is documented in every
 * BudgetStatus.
 *
 * <p>This class is plain Java and holds no private data: epsilons and window bounds are public.
 */
public final class PrivacyLedger {
    public static final double CAP_SLACK = 1e-12;

    /** A charged interval of event time. */
    public record Interval(long start, long end) implements Comparable<Interval> {
        public Interval {
            if (end <= start) {
                throw new IllegalArgumentException(
                        "interval end must be after start: [" + start + ", " + end + ")");
            }
        }

        /** The key under which the interval's total is stored on the compacted budget topic. */
        public String key() {
            return start + ":" + end;
        }

        public static Interval parse(String key) {
            int i = key.indexOf(':');
            return new Interval(
                    Long.parseLong(key.substring(0, i)), Long.parseLong(key.substring(i + 1)));
        }

        @Override
        public int compareTo(Interval o) {
            return start != o.start ? Long.compare(start, o.start) : Long.compare(end, o.end);
        }
    }

    /**
     * Outcome of a charge attempt. {@code spent} is after the charge if accepted, before it if
     * refused.
     */
    public record Decision(
            boolean accepted,
            Interval interval,
            double epsilon,
            double intervalTotal,
            double spent,
            double cap,
            long periodStart,
            long periodEnd) {}

    private final double cap;
    private final long periodMillis;
    private final boolean deviceUnits;
    private final TreeMap<Interval, Double> entries = new TreeMap<>();

    public PrivacyLedger(double cap, long periodMillis, boolean deviceUnits) {
        if (!(cap > 0) || periodMillis <= 0) {
            throw new IllegalArgumentException("cap and period must be positive");
        }
        this.cap = cap;
        this.periodMillis = periodMillis;
        this.deviceUnits = deviceUnits;
    }

    /**
     * Restores a total read from the budget topic or from operator state (replaces, does not add).
     */
    public void restore(Interval interval, double total) {
        entries.put(interval, total);
    }

    public Map<Interval, Double> entries() {
        return Collections.unmodifiableMap(entries);
    }

    public long periodStart(long time) {
        return Math.floorDiv(time, periodMillis) * periodMillis;
    }

    public double cap() {
        return cap;
    }

    /** Spent in the budget period that contains {@code time}. */
    public double spent(long time) {
        return spentExact(periodStart(time), null, 0).doubleValue();
    }

    /**
     * Charges {@code epsilon} to {@code interval} unless that would exceed the cap in a period it
     * overlaps.
     */
    public Decision charge(Interval interval, double epsilon) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and > 0, was " + epsilon);
        }
        BigDecimal limit =
                new BigDecimal(cap).multiply(BigDecimal.ONE.add(new BigDecimal(CAP_SLACK)));
        BigDecimal worst = BigDecimal.ZERO;
        long worstPeriod = periodStart(interval.start());
        for (long p = periodStart(interval.start()); p < interval.end(); p += periodMillis) {
            BigDecimal s = spentExact(p, interval, epsilon);
            if (s.compareTo(worst) > 0) {
                worst = s;
                worstPeriod = p;
            }
        }
        double before = entries.getOrDefault(interval, 0.0);
        if (worst.compareTo(limit) > 0) {
            return new Decision(
                    false,
                    interval,
                    epsilon,
                    before,
                    spentExact(worstPeriod, null, 0).doubleValue(),
                    cap,
                    worstPeriod,
                    worstPeriod + periodMillis);
        }
        double total = new BigDecimal(before).add(new BigDecimal(epsilon)).doubleValue();
        entries.put(interval, total);
        long period = periodStart(interval.start());
        return new Decision(
                true,
                interval,
                epsilon,
                total,
                spentExact(period, null, 0).doubleValue(),
                cap,
                period,
                period + periodMillis);
    }

    /**
     * Drops entries that end before the period containing {@code time} (they can no longer matter).
     */
    public void forgetBefore(long time) {
        long p = periodStart(time);
        entries.keySet().removeIf(i -> i.end() <= p);
    }

    private BigDecimal spentExact(long periodStart, Interval extra, double extraEpsilon) {
        long periodEnd = periodStart + periodMillis;
        List<Map.Entry<Interval, BigDecimal>> in = new ArrayList<>();
        for (Map.Entry<Interval, Double> e : entries.entrySet()) {
            if (e.getKey().start() < periodEnd && e.getKey().end() > periodStart) {
                in.add(Map.entry(e.getKey(), new BigDecimal(e.getValue())));
            }
        }
        if (extra != null) {
            in.add(Map.entry(extra, new BigDecimal(extraEpsilon)));
        }
        if (deviceUnits) {
            return in.stream().map(Map.Entry::getValue).reduce(BigDecimal.ZERO, BigDecimal::add);
        }
        // record units: maximum coverage over instants, by a sweep over interval boundaries
        List<long[]> events = new ArrayList<>();
        List<BigDecimal> amounts = new ArrayList<>();
        for (Map.Entry<Interval, BigDecimal> e : in) {
            long s = Math.max(e.getKey().start(), periodStart);
            long t = Math.min(e.getKey().end(), periodEnd);
            events.add(new long[] {s, 1, amounts.size()});
            events.add(new long[] {t, -1, amounts.size()});
            amounts.add(e.getValue());
        }
        events.sort(
                Comparator.<long[]>comparingLong(a -> a[0])
                        .thenComparingLong(a -> a[1])); // ends before starts
        BigDecimal cur = BigDecimal.ZERO;
        BigDecimal max = BigDecimal.ZERO;
        for (long[] ev : events) {
            BigDecimal a = amounts.get((int) ev[2]);
            cur = ev[1] > 0 ? cur.add(a) : cur.subtract(a);
            if (cur.compareTo(max) > 0) {
                max = cur;
            }
        }
        return max;
    }
}
