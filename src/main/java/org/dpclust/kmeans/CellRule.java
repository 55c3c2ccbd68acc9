package org.dpclust.kmeans;

/**
 * The signal-driven size of the {@code stats} summary's public partition, learned from {@code
 * evaluate utility}: with the signal x = n·ε/d (n a public or noisy record count, ε the release's
 * budget), {@code k·clamp(round(x / }{@value #X_PER_K_CELLS}{@code ), 1, 16)} cells when d ≤
 * {@value #D_FEW_CELLS} or x &lt; {@value #X_FEW_CELLS} — few occupied cells carry more signal
 * each, and their noise no longer swamps them — otherwise the default max(64, 16k). A function of
 * public inputs only.
 */
public final class CellRule {
    /** The rule follows x at or below this dimension (or below {@link #X_FEW_CELLS}). */
    public static final int D_FEW_CELLS = 8;

    public static final double X_FEW_CELLS = 15;

    /** Signal per k cells. */
    public static final double X_PER_K_CELLS = 25;

    private CellRule() {}

    /**
     * The number of cells for k clusters in d dimensions at ε with n records (n: public or a noisy
     * count, never an exact private one).
     */
    public static int cells(int k, int d, double epsilon, double n) {
        double x = Math.max(0, n) * epsilon / d;
        return d <= D_FEW_CELLS || x < X_FEW_CELLS
                ? k * (int) Math.max(1, Math.min(16, Math.round(x / X_PER_K_CELLS)))
                : Math.max(64, 16 * k);
    }
}
