package org.dpclust.kmeans;

/**
 * The signal-driven size of the {@code stats} summary's public partition
 * (docs/algorithms.md#cell-rule), learned from {@code evaluate utility} and the cell sweeps of
 * docs/results/algorithms-measurements.md: with the signal x = n·ε/d (n a public or noisy record
 * count, ε the release's budget),
 *
 * <ul>
 *   <li>{@code k·clamp(round(x / }{@value #X_PER_K_CELLS}{@code ), 1, 16)} cells when d ≤ {@value
 *       #D_FEW_CELLS} or x &lt; {@value #X_FEW_CELLS} — few occupied cells carry more signal each,
 *       and their noise no longer swamps them;
 *   <li>otherwise (d &gt; {@value #D_FEW_CELLS}, x ≥ {@value #X_FEW_CELLS}) {@code clamp(round(x /
 *       }{@value #X_PER_CELL}{@code ), max(64, 16k), }{@link #maxCells}{@code (d))}: the default
 *       max(64, 16k) until the signal supports finer cells. In d &gt; 8 a cell of C uniform public
 *       points has a diameter of order C^(−1/d) of the box, so the default's few hundred cells
 *       straddle clusters and bias the release (gmm1e5, d = 10: relative SSE 1.33 at ε = 3 with 160
 *       cells, 1.05 with 5,957); finer cells pay in noise per cell, which the signal per cell x/C
 *       bounds. In d ≤ 8 the default already resolves the clusters and finer cells only lost (s1,
 *       house, ukm).
 * </ul>
 *
 * <p>A function of public inputs only. The cap {@link #maxCells} bounds the state of a window's
 * statistics, C·(1 + d) longs, by {@value #MAX_STATE_LONGS} longs (512 KiB), so a stream that
 * declares a large {@code stats.records_hint} still has bounded state, independent of its records.
 */
public final class CellRule {
    /** The rule follows x at or below this dimension (or below {@link #X_FEW_CELLS}). */
    public static final int D_FEW_CELLS = 8;

    public static final double X_FEW_CELLS = 15;

    /** Signal per k cells. */
    public static final double X_PER_K_CELLS = 25;

    /** Signal per cell of the fine partition (d &gt; {@value #D_FEW_CELLS}). */
    public static final double X_PER_CELL = 3;

    /** The state bound of the fine partition: cells·(1 + d) longs at most. */
    public static final int MAX_STATE_LONGS = 1 << 16;

    private CellRule() {}

    /**
     * The number of cells for k clusters in d dimensions at ε with n records (n: public or a noisy
     * count, never an exact private one).
     */
    public static int cells(int k, int d, double epsilon, double n) {
        double x = Math.max(0, n) * epsilon / d;
        if (d <= D_FEW_CELLS || x < X_FEW_CELLS) {
            return k * (int) Math.max(1, Math.min(16, Math.round(x / X_PER_K_CELLS)));
        }
        int coarse = Math.max(64, 16 * k);
        return (int) Math.max(coarse, Math.min(maxCells(d), Math.round(x / X_PER_CELL)));
    }

    /** The largest fine partition in d dimensions: ⌊{@value #MAX_STATE_LONGS} / (1 + d)⌋. */
    public static int maxCells(int d) {
        return MAX_STATE_LONGS / (1 + d);
    }
}
