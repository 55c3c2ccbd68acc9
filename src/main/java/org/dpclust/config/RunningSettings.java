package org.dpclust.config;

import java.io.Serializable;

/**
 * Public settings of a stream's running releases ({@code running:} in docs/configuration.md;
 * docs/zcdp.md#running-releases-published-by-the-stream-job): besides each window's {@code stats}
 * centroids, publish centroids computed from the sum of the noisy cells of the last W windows
 * ({@code running.windows: W}), or of the windows since the start of the current budget period
 * ({@code running.windows: period}). Post-processing of released values only: no charge, no noise.
 *
 * <p>The span is bounded: the operator keeps one noisy cell vector (cells·(d + 1) longs) per window
 * of the span, because a sliding sum must subtract the window that leaves it, and a sum since the
 * job's start would grow without bound in value (fixed-point sums would overflow) and hold days of
 * releases in one number. {@link StreamSpec} refuses spans whose state would exceed {@link
 * #MAX_STATE_LONGS} longs.
 *
 * @param windows W, windows per running release, &gt;= 2; 0 with {@code period} or when off
 * @param period whether the span is the current budget period so far (resets at its start)
 */
public record RunningSettings(int windows, boolean period) implements Serializable {
    /** No running releases. */
    public static final RunningSettings NONE = new RunningSettings(0, false);

    /** Largest running state per stream, in longs (2^21: 16 MiB), over all windows of the span. */
    public static final long MAX_STATE_LONGS = 1L << 21;

    public RunningSettings {
        ConfigException.check(
                !period || windows == 0, "running.windows", "either a number or period");
        ConfigException.check(
                period || windows == 0 || windows >= 2,
                "running.windows",
                "must be >= 2 (one window is the window's own release) or period, was " + windows);
    }

    /** Whether the stream publishes running releases. */
    public boolean enabled() {
        return period || windows > 0;
    }
}
