package org.dpclust.privacy;

/**
 * Floating-point-safe Laplace mechanism for real values, following the design of Google's "Secure
 * Noise Generation" note: the input is rounded to a public power-of-two granularity and the noise
 * is g times an exact discrete Laplace sample, so the output is a multiple of g and never exposes
 * the low-order floating-point artefacts that break the textbook {@code -b log(U)} Laplace (Mironov
 * 2012).
 *
 * <p>Private: the real value(s) passed in. Neighbouring relation and sensitivity: the caller
 * guarantees sum_i |x_i(D) - x_i(D')| <= Δ1 ({@code sensitivity} / {@code l1Sensitivity}) for all
 * neighbours D, D' (add/remove one unit), in exact real arithmetic on the doubles it passes, and
 * that the values are finite (non-finite values are rejected, which would otherwise be a
 * data-dependent event; callers clamp inputs to declared bounds first).
 *
 * <p>Mechanism. Let b = Δ1/ε (a double; only used to pick g, which is therefore public) and g =
 * 2^(floor(log2 b) - 40). Let r(x)_i = clamp(round(x_i / g), -2^62, 2^62) (round to nearest; x_i/g
 * is exact because g is a power of two). Let Δ̃ = ceil(Δ1/g) + dim, where dim is the number of
 * coordinates. Output o_i = g (r(x)_i + Y_i) with Y_i i.i.d. discrete Laplace of scale T = t/s =
 * {@link GeometricMechanism#exactScale}(Δ̃, ε) >= Δ̃/ε (exact rational arithmetic, rounded toward
 * more noise; in practice s is 1 or 2 since Δ̃/ε >= 2^40).
 *
 * <p>Guarantee: exactly ε-DP (pure). Derivation: rounding moves each coordinate by at most 1/2 grid
 * unit, so |r(x)_i - r(x')_i| <= |x_i - x'_i|/g + 1 before clamping; clamping to an interval is
 * 1-Lipschitz and cannot increase it. Summing, ||r(x) - r(x')||_1 <= Δ1/g + dim, and since the left
 * side is an integer it is <= floor(Δ1/g + dim) <= ceil(Δ1/g) + dim = Δ̃. So r is an integer-valued
 * function with L1 sensitivity <= Δ̃, and r(x) + Y is ε-DP by the two-sided geometric mechanism
 * ({@link GeometricMechanism}: density ratio <= e^{Δ̃ s/t} <= e^ε). Multiplying by g, converting to
 * double and reading the integer sum modulo 2^64 are deterministic post-processing. The effective
 * real-unit scale is g t/s >= (Δ1 + dim g)/ε > Δ1/ε; in grid units the excess is at most (dim +
 * 1)/ε + 1 (the +dim units and two ceilings), so since g <= b 2^-40 the relative excess is at most
 * ((dim + 1)/ε + 1) 2^-40, e.g. below 10^-6 for dim = 1000 and ε = 10^-3.
 *
 * <p>Clamping: if |x_i/g| > 2^62 (|x_i| larger than about 2^22 b, e.g. 4 million when Δ1/ε = 1),
 * r(x)_i is clamped to ±2^62 and the output then carries no information about x_i beyond the clamp
 * (it is noise around ±2^62 g). Callers should keep values within that range (e.g. release sums in
 * fixed point through {@link GeometricMechanism} when they can be large). Outputs above 2^53 g are
 * rounded to the nearest double (still a multiple of g). The guarantee assumes ideal random bits;
 * see {@link PrivacyRandom} for the computational caveat.
 */
public final class LaplaceMechanism {
    private LaplaceMechanism() {}

    /** Grid precision below the scale: g = 2^(floor(log2 b) - GRID_BITS). */
    public static final int GRID_BITS = 40;

    private static final double CLAMP_UNITS = 0x1.0p62;

    /**
     * The public granularity g = 2^(floor(log2(Δ1/ε)) - 40).
     *
     * @throws IllegalArgumentException naming the parameter for non-positive or non-finite inputs,
     *     or a ratio Δ1/ε outside [2^-980, 2^900]
     */
    public static double granularity(double l1Sensitivity, double epsilon) {
        return Math.scalb(1.0, granularityExponent(l1Sensitivity, epsilon));
    }

    private static int granularityExponent(double l1Sensitivity, double epsilon) {
        if (!(l1Sensitivity > 0) || Double.isInfinite(l1Sensitivity)) {
            throw new IllegalArgumentException(
                    "sensitivity must be finite and > 0, got " + l1Sensitivity);
        }
        ReleaseBudget.requireEpsilon(epsilon);
        double b = l1Sensitivity / epsilon;
        if (!(b >= 0x1.0p-980) || !(b <= 0x1.0p900)) {
            throw new IllegalArgumentException(
                    "sensitivity/epsilon out of supported range [2^-980, 2^900]: " + b);
        }
        return Math.getExponent(b) - GRID_BITS;
    }

    /** Δ̃ = ceil(Δ1/g) + dim (see class javadoc). */
    static long integerSensitivity(double l1Sensitivity, int gridExponent, int dimension) {
        double units = Math.ceil(Math.scalb(l1Sensitivity, -gridExponent));
        double total = units + dimension;
        if (!(total < 0x1.0p61)) {
            throw new IllegalArgumentException(
                    "epsilon too large for the grid: integer sensitivity " + total + " >= 2^61");
        }
        return (long) units + dimension;
    }

    /**
     * The effective noise scale in real units, g t/s, used for {@code dimension} coordinates with
     * L1 sensitivity {@code l1Sensitivity}; always >= l1Sensitivity/epsilon.
     */
    public static double scale(double l1Sensitivity, double epsilon, int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
        }
        int ge = granularityExponent(l1Sensitivity, epsilon);
        GeometricMechanism.Scale sc =
                GeometricMechanism.exactScale(
                        integerSensitivity(l1Sensitivity, ge, dimension), epsilon);
        return Math.scalb(sc.value(), ge);
    }

    /** epsilon-DP release of one real value with sensitivity {@code sensitivity}. */
    public static double addNoise(
            double value, double sensitivity, double epsilon, PrivacyRandom rng) {
        return addNoise(new double[] {value}, sensitivity, epsilon, rng)[0];
    }

    /**
     * epsilon-DP release of a real vector with L1 sensitivity {@code l1Sensitivity} (same scale on
     * every coordinate, dim = values.length). Returns a new array of multiples of {@link
     * #granularity}.
     */
    public static double[] addNoise(
            double[] values, double l1Sensitivity, double epsilon, PrivacyRandom rng) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException("values must be a non-empty array");
        }
        GeometricMechanism.requireRng(rng);
        int ge = granularityExponent(l1Sensitivity, epsilon);
        GeometricMechanism.Scale sc =
                GeometricMechanism.exactScale(
                        integerSensitivity(l1Sensitivity, ge, values.length), epsilon);
        long[] rounded = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            double x = values[i];
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("values[" + i + "] must be finite, got " + x);
            }
            double q = Math.rint(Math.scalb(x, -ge));
            rounded[i] = (long) Math.max(-CLAMP_UNITS, Math.min(CLAMP_UNITS, q));
        }
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            long z = GeometricMechanism.addNoise(rounded[i], sc, rng);
            out[i] = Math.scalb((double) z, ge);
        }
        return out;
    }
}
