package org.dpclust.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What every benchmark row records about the machine, and the shared measurement driver.
 *
 * <p>Driver contract ({@link #medianNanos}): the action is run {@code warmups} times unmeasured (so
 * the JIT compiles the hot path), then {@code repetitions} times, each timed with {@link
 * System#nanoTime}; the result is the median of the measured times, which is robust to a repetition
 * disturbed by other processes on a shared machine. The action returns a value that is folded into
 * a sink, so the JIT cannot remove the work. Not JMH: no forked JVMs, no blackhole; numbers are
 * indicative, single-threaded.
 */
public final class BenchEnvironment {
    private static long sink;

    private BenchEnvironment() {}

    /** Processors available to the JVM. */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** JVM name and version, e.g. "OpenJDK 64-Bit Server VM 17.0.12". */
    public static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
    }

    /** Appends the {@code cores} and {@code jvm} columns to a row. */
    public static Map<String, Object> withMachine(Map<String, Object> row) {
        row.put("cores", cores());
        row.put("jvm", jvm());
        return row;
    }

    /**
     * Median wall time of {@code repetitions} timed runs of {@code action}, after {@code warmups}
     * runs.
     */
    public static long medianNanos(int warmups, int repetitions, LongSupplier action) {
        if (warmups < 0 || repetitions < 1) {
            throw new IllegalArgumentException("need warmups >= 0 and repetitions >= 1");
        }
        for (int i = 0; i < warmups; i++) {
            sink += action.getAsLong();
        }
        long[] times = new long[repetitions];
        for (int i = 0; i < repetitions; i++) {
            long t0 = System.nanoTime();
            sink += action.getAsLong();
            times[i] = System.nanoTime() - t0;
        }
        Arrays.sort(times);
        return times[repetitions / 2];
    }

    /**
     * A per-unit time from a difference of timings (see {@link #differenceNanos}).
     *
     * @param nanosPerUnit the median paired difference per unit of work, in ns (when unresolved,
     *     the last estimate, for the record only)
     * @param batch how many times each side ran per timing in the final round
     * @param resolved whether the estimate reached the physical floor; an unresolved one must be
     *     reported as such, never as a time
     */
    public record PerUnit(double nanosPerUnit, int batch, boolean resolved) {}

    /**
     * The time per unit of the work {@code full} does beyond {@code base} (e.g. per Lloyd
     * iteration: full = setup + iterations + final pass, base = setup + final pass). After {@code
     * warmups} runs of each, every round times {@code batch} runs of base and then {@code batch}
     * runs of full back to back, {@code repetitions} times, and takes the median of the paired
     * differences divided by {@code batch × units}: pairing lets both sides see the same load from
     * other processes. The estimate is resolved when it is at least {@code floorNanosPerUnit}, a
     * physical lower bound derived from the work a unit does; a smaller (or negative) difference is
     * noise, so the round is repeated with twice the batch, up to {@code maxBatch}, and then
     * reported as unresolved. Never clamped.
     *
     * @param units the units of work full does beyond base, read after each round (e.g. the
     *     iterations actually performed); a round with 0 units is unresolved
     */
    public static PerUnit differenceNanos(
            int warmups,
            int repetitions,
            LongSupplier base,
            LongSupplier full,
            IntSupplier units,
            double floorNanosPerUnit,
            int maxBatch) {
        if (warmups < 0 || repetitions < 1 || maxBatch < 1 || !(floorNanosPerUnit > 0)) {
            throw new IllegalArgumentException(
                    "need warmups >= 0, repetitions >= 1, maxBatch >= 1, a positive floor");
        }
        for (int i = 0; i < warmups; i++) {
            sink += base.getAsLong() + full.getAsLong();
        }
        for (int batch = 1; ; batch = Math.min(2 * batch, maxBatch)) {
            long[] differences = new long[repetitions];
            for (int r = 0; r < repetitions; r++) {
                differences[r] = timeBatch(full, batch) - timeBatch(base, batch);
            }
            Arrays.sort(differences);
            double perUnit =
                    differences[repetitions / 2] / ((double) batch * Math.max(0, units.getAsInt()));
            boolean resolved = units.getAsInt() > 0 && perUnit >= floorNanosPerUnit;
            if (resolved || batch == maxBatch) {
                return new PerUnit(
                        Double.isFinite(perUnit) ? perUnit : Double.NaN, batch, resolved);
            }
        }
    }

    /** The {@code unresolved} column of a row whose difference did not reach the floor. */
    public static String unresolved(PerUnit p, double floorNanosPerUnit) {
        return String.format(
                Locale.ROOT,
                "difference of timings %.4g ns per unit, below the physical floor %.4g ns, even with"
                        + " %d runs per timing: too small to resolve on this machine now",
                p.nanosPerUnit(),
                floorNanosPerUnit,
                p.batch());
    }

    private static long timeBatch(LongSupplier action, int batch) {
        long t0 = System.nanoTime();
        for (int b = 0; b < batch; b++) {
            sink += action.getAsLong();
        }
        return System.nanoTime() - t0;
    }

    /** The folded results (read so the work cannot be optimised away). */
    static long sink() {
        return sink;
    }
}
