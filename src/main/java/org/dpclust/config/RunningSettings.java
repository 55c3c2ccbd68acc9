package org.dpclust.config;

import java.io.Serializable;

/**
 * Public settings of a stream's running releases ({@code running:} in docs/configuration.md;
 * docs/zcdp.md#running-releases-published-by-the-stream-job). Two modes:
 *
 * <ul>
 *   <li>{@code sum} (default): besides each window's {@code stats} centroids, publish centroids
 *       computed from the sum of the noisy cells of the last W windows ({@code running.windows:
 *       W}), or of the windows since the start of the current budget period ({@code
 *       running.windows: period}). Post-processing of released values only: no charge, no noise.
 *   <li>{@code tree}: binary tree aggregation of the windows' exact cells over the budget period
 *       (horizon T = the period's windows; the span is always the period so far), an additional
 *       mechanism charged ρ_tree per window ({@link StreamSpec#rhoPerRelease}). Only for record
 *       units under {@code accounting: zcdp} ({@link StreamSpec} refuses anything else).
 * </ul>
 *
 * <p>The state is bounded: in {@code sum} mode the operator keeps one noisy cell vector (cells·(d +
 * 1) longs) per window of the span, because a sliding sum must subtract the window that leaves it,
 * and a sum since the job's start would grow without bound in value (fixed-point sums would
 * overflow) and hold days of releases in one number; in {@code tree} mode it keeps the tree's open
 * partial sums and latest node per level, about 2L·cells·(d + 1) longs (L = ⌊log₂ T⌋ + 1). {@link
 * StreamSpec} refuses spans whose state would exceed {@link #MAX_STATE_LONGS} longs.
 *
 * @param windows W, windows per running release, &gt;= 2; 0 with {@code period} or when off
 * @param period whether the span is the current budget period so far (resets at its start)
 * @param mode how running releases are made ({@link Mode#SUM} unless configured)
 */
public record RunningSettings(int windows, boolean period, Mode mode) implements Serializable {
    /** How running releases are made ({@code running.mode}). */
    public enum Mode {
        /** Post-processed sums of the windows' noisy cells (free). */
        SUM,
        /** Binary tree aggregation of the windows' exact cells (charged ρ_tree per window). */
        TREE;

        /** The configuration name. */
        public String configName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** No running releases. */
    public static final RunningSettings NONE = new RunningSettings(0, false);

    /** Largest running state per stream, in longs (2^21: 16 MiB), over all windows of the span. */
    public static final long MAX_STATE_LONGS = 1L << 21;

    /** Running releases in {@code sum} mode. */
    public RunningSettings(int windows, boolean period) {
        this(windows, period, Mode.SUM);
    }

    public RunningSettings {
        ConfigException.check(mode != null, "running.mode", "required (sum or tree)");
        ConfigException.check(
                !period || windows == 0, "running.windows", "either a number or period");
        ConfigException.check(
                period || windows == 0 || windows >= 2,
                "running.windows",
                "must be >= 2 (one window is the window's own release) or period, was " + windows);
        ConfigException.check(
                mode == Mode.SUM || period,
                "running.windows",
                "must be period (or absent) with mode tree: the tree spans the budget period");
    }

    /** Whether the stream publishes running releases. */
    public boolean enabled() {
        return period || windows > 0;
    }

    /** Whether running releases are made by tree aggregation (a charged mechanism). */
    public boolean tree() {
        return enabled() && mode == Mode.TREE;
    }
}
