package org.dpclust.ledger;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpclust.config.BudgetAccounting;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.Zcdp;

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
 * <p><b>Accounting</b> ({@link Accounting}, docs/zcdp.md). Under {@link Accounting#PURE} the
 * amounts are ε's. Under {@link Accounting#ZCDP} every amount (entries, spent, cap, decisions) is a
 * zCDP ρ: {@link #chargeRho} charges a Gaussian release's ρ, {@link #charge} charges a pure ε
 * release as ε²/2 (BS16 Prop. 1.4, rounded up to the next double), and ρ's compose additively (BS16
 * Lemma 2.3), so "spent" above is the same sum (device units) or per-instant maximum of sums
 * (record units: a record lies in one instant, and zCDP composes in parallel over disjoint data
 * like pure DP) of ρ's. The cap is built from an (ε, δ) pair by {@link #zcdp} with {@link
 * Zcdp#rhoCap}, and {@link #epsilonOf} converts a spent ρ back to the ε it guarantees at the
 * ledger's δ.
 *
 * <p><b>Lifetime cap</b> (optional, both modes, in ledger units): a charge is also refused when the
 * unit's total over all time would exceed it. Lifetime spent = for device units the sum of every
 * entry ever charged (including entries dropped by {@link #forgetBefore}, kept as one retired
 * total); for record units the maximum over all instants of the entries covering it, plus the
 * retired maximum of dropped entries (conservative: the two are added although dropped entries lie
 * in earlier periods).
 *
 * <p>This class is plain Java and holds no private data: epsilons and window bounds are public.
 */
public final class PrivacyLedger {
    /**
     * A ledger for a stream with per-period cap {@code epsilonCap} under {@code accounting}: pure,
     * or zCDP with both caps converted to ρ at δ by {@link Zcdp#rhoCap}.
     */
    public static PrivacyLedger of(
            BudgetAccounting accounting,
            double epsilonCap,
            long periodMillis,
            boolean deviceUnits) {
        if (accounting.mode() == Accounting.ZCDP) {
            return zcdp(
                    epsilonCap,
                    accounting.delta(),
                    periodMillis,
                    deviceUnits,
                    accounting.lifetimeCap());
        }
        return new PrivacyLedger(
                epsilonCap,
                periodMillis,
                deviceUnits,
                Accounting.PURE,
                Double.NaN,
                accounting.lifetimeCap());
    }

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

        /**
         * The interval as log lines and reports give it: {@code [start, end)} in ISO-8601 (UTC),
         * like every other time dpclust prints; {@link #key()} is the ledger's storage form.
         */
        public String iso() {
            return "["
                    + java.time.Instant.ofEpochMilli(start)
                    + ", "
                    + java.time.Instant.ofEpochMilli(end)
                    + ")";
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
     * Outcome of a charge attempt, in ledger units (ε, or ρ under zCDP accounting). {@code spent}
     * is after the charge if accepted, before it if refused. {@code lifetime} is true when the
     * charge was refused by the lifetime cap; {@code spent} and {@code cap} are then the lifetime
     * spend and the lifetime cap, and the period fields are Long.MIN_VALUE / Long.MAX_VALUE.
     */
    public record Decision(
            boolean accepted,
            Interval interval,
            double epsilon,
            double intervalTotal,
            double spent,
            double cap,
            long periodStart,
            long periodEnd,
            boolean lifetime) {
        /** A decision against the period cap (the shape before lifetime caps existed). */
        public Decision(
                boolean accepted,
                Interval interval,
                double epsilon,
                double intervalTotal,
                double spent,
                double cap,
                long periodStart,
                long periodEnd) {
            this(
                    accepted,
                    interval,
                    epsilon,
                    intervalTotal,
                    spent,
                    cap,
                    periodStart,
                    periodEnd,
                    false);
        }
    }

    private final double cap;
    private final long periodMillis;
    private final boolean deviceUnits;
    private final Accounting accounting;
    private final double delta;
    private final double lifetimeCap;
    private final TreeMap<Interval, Double> entries = new TreeMap<>();
    private BigDecimal retired = BigDecimal.ZERO;

    /** A pure-ε ledger without a lifetime cap. */
    public PrivacyLedger(double cap, long periodMillis, boolean deviceUnits) {
        this(cap, periodMillis, deviceUnits, Accounting.PURE, Double.NaN, Double.POSITIVE_INFINITY);
    }

    /**
     * A ledger in the given accounting mode. {@code cap} and {@code lifetimeCap} are in ledger
     * units (ε for PURE, ρ for ZCDP); {@code lifetimeCap} = +∞ means none. {@code delta} is the δ
     * at which ZCDP reports ε ({@link #epsilonOf}); NaN for PURE.
     */
    public PrivacyLedger(
            double cap,
            long periodMillis,
            boolean deviceUnits,
            Accounting accounting,
            double delta,
            double lifetimeCap) {
        if (!(cap > 0) || periodMillis <= 0) {
            throw new IllegalArgumentException("cap and period must be positive");
        }
        if (accounting == null) {
            throw new IllegalArgumentException("accounting must not be null");
        }
        if (accounting == Accounting.ZCDP && !(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException(
                    "zcdp accounting needs delta in (0, 1), got " + delta);
        }
        if (!(lifetimeCap > 0)) {
            throw new IllegalArgumentException("lifetime cap must be > 0, got " + lifetimeCap);
        }
        this.cap = cap;
        this.periodMillis = periodMillis;
        this.deviceUnits = deviceUnits;
        this.accounting = accounting;
        this.delta = accounting == Accounting.ZCDP ? delta : Double.NaN;
        this.lifetimeCap = lifetimeCap;
    }

    /**
     * A zCDP ledger whose per-period cap is (epsilonCap, delta) and whose lifetime cap is
     * (lifetimeEpsilon, delta) (+∞: none), both converted to ρ by {@link Zcdp#rhoCap}.
     */
    public static PrivacyLedger zcdp(
            double epsilonCap,
            double delta,
            long periodMillis,
            boolean deviceUnits,
            double lifetimeEpsilon) {
        double life =
                Double.isInfinite(lifetimeEpsilon) && lifetimeEpsilon > 0
                        ? Double.POSITIVE_INFINITY
                        : Zcdp.rhoCap(lifetimeEpsilon, delta);
        return new PrivacyLedger(
                Zcdp.rhoCap(epsilonCap, delta),
                periodMillis,
                deviceUnits,
                Accounting.ZCDP,
                delta,
                life);
    }

    public Accounting accounting() {
        return accounting;
    }

    /** The δ of a zCDP ledger (NaN for pure). */
    public double delta() {
        return delta;
    }

    /** The lifetime cap in ledger units (+∞: none). */
    public double lifetimeCap() {
        return lifetimeCap;
    }

    /**
     * The ε guaranteed by spending {@code amount} ledger units: the amount itself under PURE, the
     * {@link Zcdp#epsilon} conversion at this ledger's δ under ZCDP.
     */
    public double epsilonOf(double amount) {
        return accounting == Accounting.PURE ? amount : Zcdp.epsilon(amount, delta);
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

    /** Lifetime spent, in ledger units (see class javadoc). */
    public double lifetimeSpent() {
        return lifetimeExact(null, 0).doubleValue();
    }

    /**
     * Total of the entries dropped by {@link #forgetBefore} (sum or maximum, see class javadoc).
     */
    public double retired() {
        return retired.doubleValue();
    }

    /** Restores the retired total kept with the entries (replaces). */
    public void restoreRetired(double total) {
        retired = new BigDecimal(total);
    }

    /**
     * Charges a pure {@code epsilon}-DP release to {@code interval} unless that would exceed the
     * cap in a period it overlaps or the lifetime cap. Under ZCDP accounting the charge is ε²/2
     * (rounded up to a double).
     */
    public Decision charge(Interval interval, double epsilon) {
        ReleaseBudget.requireEpsilon(epsilon);
        if (accounting == Accounting.ZCDP) {
            return chargeAmount(interval, rhoOfPure(epsilon));
        }
        return chargeAmount(interval, epsilon);
    }

    /**
     * The ρ a zcdp ledger charges for a pure ε release: ε²/2 (BS16 Prop. 1.4), rounded up to the
     * next double.
     */
    public static double rhoOfPure(double epsilon) {
        BigDecimal exact = new BigDecimal(epsilon).pow(2).divide(BigDecimal.valueOf(2));
        double rho = exact.doubleValue();
        return new BigDecimal(rho).compareTo(exact) < 0 ? Math.nextUp(rho) : rho;
    }

    /**
     * Charges a ρ-zCDP release (ZCDP accounting only) to {@code interval} unless that would exceed
     * the ρ cap in a period it overlaps or the lifetime cap.
     *
     * @throws IllegalStateException on a PURE ledger (a zCDP release has no pure ε)
     */
    public Decision chargeRho(Interval interval, double rho) {
        if (accounting != Accounting.ZCDP) {
            throw new IllegalStateException(
                    "a zCDP (rho) release cannot be charged to a pure-accounting ledger");
        }
        ReleaseBudget.requireRho(rho);
        return chargeAmount(interval, rho);
    }

    private Decision chargeAmount(Interval interval, double epsilon) {
        if (lifetimeCap < Double.POSITIVE_INFINITY) {
            BigDecimal life = lifetimeExact(interval, epsilon);
            BigDecimal lifeLimit =
                    new BigDecimal(lifetimeCap)
                            .multiply(BigDecimal.ONE.add(new BigDecimal(CAP_SLACK)));
            if (life.compareTo(lifeLimit) > 0) {
                return new Decision(
                        false,
                        interval,
                        epsilon,
                        entries.getOrDefault(interval, 0.0),
                        lifetimeSpent(),
                        lifetimeCap,
                        Long.MIN_VALUE,
                        Long.MAX_VALUE,
                        true);
            }
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
        BigDecimal old = BigDecimal.ZERO;
        TreeMap<Interval, Double> dropped = new TreeMap<>();
        for (Map.Entry<Interval, Double> e : entries.entrySet()) {
            if (e.getKey().end() <= p) {
                dropped.put(e.getKey(), e.getValue());
            }
        }
        if (dropped.isEmpty()) {
            return;
        }
        if (deviceUnits) {
            for (double v : dropped.values()) {
                old = old.add(new BigDecimal(v));
            }
            retired = retired.add(old);
        } else {
            retired = retired.max(coverage(dropped, Long.MIN_VALUE, Long.MAX_VALUE, null, 0));
        }
        entries.keySet().removeAll(dropped.keySet());
    }

    private BigDecimal lifetimeExact(Interval extra, double extraAmount) {
        return retired.add(coverage(entries, Long.MIN_VALUE, Long.MAX_VALUE, extra, extraAmount));
    }

    private BigDecimal spentExact(long periodStart, Interval extra, double extraEpsilon) {
        return coverage(entries, periodStart, periodStart + periodMillis, extra, extraEpsilon);
    }

    /**
     * Spend of the entries clipped to [periodStart, periodEnd): their sum (device units) or the
     * maximum over instants of the sum of those covering it (record units).
     */
    private BigDecimal coverage(
            Map<Interval, Double> entries,
            long periodStart,
            long periodEnd,
            Interval extra,
            double extraEpsilon) {
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
