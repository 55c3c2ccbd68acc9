package org.dpclust.bench;

import java.util.Arrays;
import java.util.Map;
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

    /** The folded results (read so the work cannot be optimised away). */
    static long sink() {
        return sink;
    }
}
