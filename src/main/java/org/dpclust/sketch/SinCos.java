package org.dpclust.sketch;

/**
 * Sine and cosine of one argument with a single range reduction, in plain IEEE double arithmetic
 * (fdlibm's Cody–Waite reduction by π/2 with a three-part π/2 and its {@code __kernel_sin}/{@code
 * __kernel_cos} polynomials, without the tail correction). Java evaluates +, −, ×, / exactly as
 * IEEE 754 prescribes on every JVM (strict semantics since Java 17), so the results are
 * bit-identical everywhere, which is what keeps a sketch accumulator (and the digest that keys its
 * noise) reproducible on replay, at about a third of the cost of {@link StrictMath#sin} plus {@link
 * StrictMath#cos}.
 *
 * <p>Accuracy: within 4e−16 of the true values for |x| ≤ {@value #REDUCTION_LIMIT} (checked against
 * StrictMath in the tests); beyond that it falls back to StrictMath. Both values lie in [−1, 1].
 * Public computation; no privacy role beyond being deterministic.
 */
public final class SinCos {
    /**
     * Largest |x| reduced here: n = round(x·2/π) < 2^20, so n·PIO2_1 (33 significant bits) is
     * exact.
     */
    static final double REDUCTION_LIMIT = 1.0e6;

    private static final double INV_PIO2 = 6.36619772367581382433e-01;
    private static final double PIO2_1 = 1.57079632673412561417e+00;
    private static final double PIO2_2 = 6.07710050630396597660e-11;
    private static final double PIO2_3 = 2.02226624871116645580e-21;
    private static final double S1 = -1.66666666666666324348e-01;
    private static final double S2 = 8.33333333332248946124e-03;
    private static final double S3 = -1.98412698298579493134e-04;
    private static final double S4 = 2.75573137070700676789e-06;
    private static final double S5 = -2.50507602534068634195e-08;
    private static final double S6 = 1.58969099521155010221e-10;
    private static final double C1 = 4.16666666666666019037e-02;
    private static final double C2 = -1.38888888888741095749e-03;
    private static final double C3 = 2.48015872894767294178e-05;
    private static final double C4 = -2.75573143513906633035e-07;
    private static final double C5 = 2.08757232129817482790e-09;
    private static final double C6 = -1.13596475577881948265e-11;

    private SinCos() {}

    /**
     * cos and sin of {@code x[0..n)} into {@code cos[0..n)} and {@code sin[0..n)}: bit for bit what
     * {@link #of} gives for each element, computed in one pass without a branch on the quadrant
     * (the quadrant picks the polynomial by a select and the signs by flipping the sign bit, which
     * is exact), so independent elements overlap in the pipeline instead of waiting on a
     * mispredicted switch. Arguments beyond {@value #REDUCTION_LIMIT} (and NaN, ±∞) are redone by
     * {@link #of}.
     */
    public static void of(double[] x, int n, double[] cos, double[] sin) {
        boolean outside = false;
        for (int i = 0; i < n; i++) {
            double xi = x[i];
            outside |= !(Math.abs(xi) <= REDUCTION_LIMIT);
            double q = Math.rint(xi * INV_PIO2);
            double r = ((xi - q * PIO2_1) - q * PIO2_2) - q * PIO2_3;
            double z = r * r;
            double s = r + z * r * (S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)))));
            double c =
                    1.0
                            - 0.5 * z
                            + z * z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
            long quadrant = (long) q;
            boolean odd = (quadrant & 1) != 0;
            // quadrant 0: (c, s); 1: (−s, c); 2: (−c, −s); 3: (s, −c)
            long cosSign = ((quadrant + 1) & 2) << 62;
            long sinSign = (quadrant & 2) << 62;
            cos[i] = Double.longBitsToDouble(Double.doubleToRawLongBits(odd ? s : c) ^ cosSign);
            sin[i] = Double.longBitsToDouble(Double.doubleToRawLongBits(odd ? c : s) ^ sinSign);
        }
        if (outside) {
            double[] out = new double[2];
            for (int i = 0; i < n; i++) {
                if (!(Math.abs(x[i]) <= REDUCTION_LIMIT)) {
                    of(x[i], out);
                    cos[i] = out[0];
                    sin[i] = out[1];
                }
            }
        }
    }

    /** Writes cos x into out[0] and sin x into out[1]. */
    public static void of(double x, double[] out) {
        if (!(Math.abs(x) <= REDUCTION_LIMIT)) {
            out[0] = StrictMath.cos(x);
            out[1] = StrictMath.sin(x);
            return;
        }
        double n = Math.rint(x * INV_PIO2);
        double r = ((x - n * PIO2_1) - n * PIO2_2) - n * PIO2_3;
        double z = r * r;
        double s = r + z * r * (S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)))));
        double c =
                1.0 - 0.5 * z + z * z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
        switch (((int) n) & 3) {
            case 0 -> {
                out[0] = c;
                out[1] = s;
            }
            case 1 -> {
                out[0] = -s;
                out[1] = c;
            }
            case 2 -> {
                out[0] = -c;
                out[1] = -s;
            }
            default -> {
                out[0] = s;
                out[1] = -c;
            }
        }
    }
}
