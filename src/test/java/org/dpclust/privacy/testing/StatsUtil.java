package org.dpclust.privacy.testing;

/** Small statistics helpers for the tests (critical values at fixed significance levels). */
public final class StatsUtil {
    private StatsUtil() {}

    /** z for one-sided tail probability 1e-4. */
    public static final double Z_1E4 = 3.719;

    /**
     * Upper critical value of chi-square with {@code df} degrees of freedom at tail probability
     * 1e-4 (Wilson–Hilferty approximation, accurate to a few percent for df >= 3).
     */
    public static double chiSquareCritical(int df) {
        double h = 2.0 / (9.0 * df);
        double c = 1 - h + Z_1E4 * Math.sqrt(h);
        return df * c * c * c;
    }

    /** Pearson chi-square statistic of observed counts against expected counts. */
    public static double chiSquare(long[] observed, double[] expected) {
        double s = 0;
        for (int i = 0; i < observed.length; i++) {
            double d = observed[i] - expected[i];
            s += d * d / expected[i];
        }
        return s;
    }

    /** Kolmogorov–Smirnov critical value for n samples at level 1e-3: 1.95/sqrt(n). */
    public static double ksCritical(int n) {
        return 1.95 / Math.sqrt(n);
    }
}
