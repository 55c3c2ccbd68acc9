package org.dpclust.privacy;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Two-sided geometric mechanism on integers (Ghosh, Roughgarden, Sundararajan 2009): adds {@link
 * DiscreteLaplace} noise with scale t/s to each coordinate.
 *
 * <p>Privacy. Private: the integer value(s) passed in, which the caller computes from the data.
 * Neighbouring relation: whatever relation the caller used to bound the L1 sensitivity, i.e. the
 * caller guarantees sum_i |f_i(D) - f_i(D')| <= {@code l1Sensitivity} for all neighbours D, D'
 * (add/remove one unit in this project). Guarantee: pure epsilon-DP. Proof: the output density is
 * P(o | D) ∝ prod_i e^{-|o_i - f_i(D)| s/t} with a normaliser independent of D, so by the triangle
 * inequality P(o | D) / P(o | D') <= e^{(s/t) sum_i |f_i(D) - f_i(D')|} <= e^{(s/t) Δ1} <= e^ε,
 * because the scale is chosen with t/s >= Δ1/ε (see below). The same scale on every coordinate is
 * what makes the vector version use the vector L1 sensitivity.
 *
 * <p>Scale selection (exact, rounding toward more noise): with b = Δ1/ε evaluated in exact rational
 * arithmetic ({@code new BigDecimal(epsilon)} is the exact binary value of the double), s = 2^k
 * with k = clamp(40 - floor(log2 b), 0, 62) and t = ceil(Δ1 2^k / ε). Thus t/s >= Δ1/ε exactly, and
 * t has about 40 significant bits (so the relative excess noise is < 2^-39) unless b is outside
 * [2^-22, 2^40). Requires t < 2^62, i.e. b < 2^62.
 *
 * <p>Arithmetic modulo 2^64. The noised value is {@code value + noise} in Java's wrapping {@code
 * long} arithmetic, i.e. reduced modulo 2^64. A caller's {@code value} is its exact integer query
 * f(D) computed with wrapping {@code long} sums (window accumulators add and subtract records that
 * way), so value ≡ f(D) (mod 2^64) and the output ≡ f(D) + Y (mod 2^64): the reduction modulo 2^64
 * of the exact Z-valued mechanism f(D) + Y, a post-processing of it, so the guarantee above holds
 * whether or not the caller's sum wrapped (one cell with more than 2^32 records of a window, say).
 * A saturating addition would not be: saturate(f(D) mod 2^64 + Y) is no function of f(D) + Y, and a
 * record that makes the sum wrap would move it by about 2^64. Outside wrapped sums both additions
 * agree. The guarantee assumes ideal random bits; see {@link PrivacyRandom} for the computational
 * caveat.
 */
public final class GeometricMechanism {
    private GeometricMechanism() {}

    /** An exact rational noise scale t/s with s a power of two. */
    public record Scale(long t, long s) {
        /** t/s as a double (exact when t < 2^53, which holds unless the scale exceeds 2^53). */
        public double value() {
            return (double) t / (double) s;
        }
    }

    /**
     * The exact scale t/s >= l1Sensitivity/epsilon used by this mechanism (see class javadoc).
     *
     * @throws IllegalArgumentException naming the parameter if l1Sensitivity < 1, epsilon is not
     *     finite and positive, or the scale would need t >= 2^62
     */
    public static Scale exactScale(long l1Sensitivity, double epsilon) {
        if (l1Sensitivity < 1) {
            throw new IllegalArgumentException("l1Sensitivity must be >= 1, got " + l1Sensitivity);
        }
        ReleaseBudget.requireEpsilon(epsilon);
        double approx = l1Sensitivity / epsilon;
        int e = Double.isInfinite(approx) ? 1024 : Math.getExponent(approx);
        int k = Math.max(0, Math.min(62, 40 - e));
        BigDecimal t =
                new BigDecimal(l1Sensitivity)
                        .multiply(new BigDecimal(1L << k))
                        .divide(new BigDecimal(epsilon), 0, RoundingMode.CEILING);
        if (t.compareTo(BigDecimal.valueOf(DiscreteLaplace.MAX_T)) >= 0) {
            throw new IllegalArgumentException(
                    "l1Sensitivity/epsilon too large (scale must be < 2^62): "
                            + l1Sensitivity
                            + "/"
                            + epsilon);
        }
        return new Scale(Math.max(1L, t.longValueExact()), 1L << k);
    }

    /** The effective scale t/s actually used (>= l1Sensitivity/epsilon). */
    public static double scale(long l1Sensitivity, double epsilon) {
        return exactScale(l1Sensitivity, epsilon).value();
    }

    /**
     * The variance of this mechanism's noise at scale b ({@link #scale}), for post-processing that
     * weighs noisy values: 2α/(1 − α)², α = e^{−1/b} (2b² − 1/6 + O(1/b²): the continuous Laplace's
     * 2b² over-states it for small b).
     */
    public static double variance(double scale) {
        if (!(scale > 0)) {
            return 0.0;
        }
        double oneMinusAlpha = -Math.expm1(-1.0 / scale);
        return 2 * (1 - oneMinusAlpha) / (oneMinusAlpha * oneMinusAlpha);
    }

    /** epsilon-DP release of an integer with L1 sensitivity {@code l1Sensitivity}. */
    public static long addNoise(long value, long l1Sensitivity, double epsilon, PrivacyRandom rng) {
        Scale sc = exactScale(l1Sensitivity, epsilon);
        requireRng(rng);
        return value + DiscreteLaplace.sample(rng, sc.t(), sc.s()); // modulo 2^64: class javadoc
    }

    /**
     * epsilon-DP release of an integer vector whose L1 sensitivity (sum over coordinates) is {@code
     * l1Sensitivity}; the same scale is used on every coordinate. Returns a new array.
     */
    public static long[] addNoise(
            long[] values, long l1Sensitivity, double epsilon, PrivacyRandom rng) {
        if (values == null) {
            throw new IllegalArgumentException("values must not be null");
        }
        Scale sc = exactScale(l1Sensitivity, epsilon);
        requireRng(rng);
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i] + DiscreteLaplace.sample(rng, sc.t(), sc.s()); // modulo 2^64
        }
        return out;
    }

    /** Noise with an explicit exact scale (for callers that compute their own integer scale). */
    static long addNoise(long value, Scale sc, PrivacyRandom rng) {
        return value + DiscreteLaplace.sample(rng, sc.t(), sc.s()); // modulo 2^64
    }

    static void requireRng(PrivacyRandom rng) {
        if (rng == null) {
            throw new IllegalArgumentException("rng must not be null");
        }
    }
}
