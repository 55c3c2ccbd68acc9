package org.dpclust.privacy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Discrete Gaussian mechanism on integer vectors, calibrated to zero-concentrated DP (zCDP, Bun and
 * Steinke 2016): adds independent {@link DiscreteGaussian} noise N_Z(0, σ²) to each coordinate.
 *
 * <p>Privacy. Private: the integer vector passed in. Neighbouring relation: whatever relation the
 * caller used to bound the L2 sensitivity, i.e. the caller guarantees Σ_i (f_i(D) - f_i(D'))² <=
 * Δ₂² ({@code l2SensitivitySquared}, an integer because f is integer-valued) for all neighbours D,
 * D' (add/remove one unit in this project; the per-summary derivations are next to the summaries:
 * {@code DpClusterStatistics}, {@code DpSketchRelease}, {@code DpHstInitializer}). Guarantee:
 * ρ-zCDP with ρ = Δ₂²/(2σ²) (Canonne, Kamath and Steinke 2020, Theorem 14, multivariate discrete
 * Gaussian). Derivation: for one coordinate and shift μ ∈ Z, the Rényi divergence of order α
 * satisfies D_α(N_Z(μ, σ²) ‖ N_Z(0, σ²)) <= αμ²/(2σ²) (CKS Prop. 5: the privacy loss at y is (2yμ -
 * μ²)/(2σ²) and the discrete Gaussian's moment generating function is dominated by the continuous
 * one, E[e^{tY}] <= e^{t²σ²/2}, CKS Cor. 9); independent coordinates add divergences, so D_α <= α
 * Σ_i μ_i²/(2σ²) <= α Δ₂²/(2σ²) = αρ for every α > 1, which is the definition of ρ-zCDP. Conversion
 * to (ε, δ) and composition: see {@link Zcdp}.
 *
 * <p>Scale selection (exact, rounding toward more noise): σ² = ⌈Δ₂²·2^k/(2ρ)⌉ / 2^k with ρ the
 * exact binary value of the double and k = clamp(60 - ⌊log2(Δ₂²/(2ρ))⌋, 0, 62), so σ² >= Δ₂²/(2ρ)
 * exactly (the realised ρ is at most the requested one) with about 60 significant bits. Requires σ
 * < 2^62. Results are {@code value + noise} modulo 2^64, the reduction of the exact Z-valued
 * release: see {@link GeometricMechanism}'s "Arithmetic modulo 2^64" for why that keeps the
 * guarantee when a caller's wrapping sum wrapped (and saturation would not).
 */
public final class GaussianMechanism {
    private GaussianMechanism() {}

    /** An exact rational variance num/den (den a power of two). */
    public record Variance(BigInteger num, BigInteger den) {
        /** σ² as a double (for reporting). */
        public double value() {
            return new BigDecimal(num).divide(new BigDecimal(den)).doubleValue();
        }

        /** The ρ this variance gives at squared L2 sensitivity Δ₂²: Δ₂²/(2σ²) (for reporting). */
        public double rho(BigInteger l2SensitivitySquared) {
            return new BigDecimal(l2SensitivitySquared.multiply(den))
                    .divide(new BigDecimal(num.shiftLeft(1)), java.math.MathContext.DECIMAL64)
                    .doubleValue();
        }
    }

    /**
     * The exact variance σ² >= Δ₂²/(2ρ) used by this mechanism (see class javadoc).
     *
     * @throws IllegalArgumentException naming the parameter if Δ₂² < 1, rho is not finite and
     *     positive, or σ would reach 2^62
     */
    public static Variance exactVariance(BigInteger l2SensitivitySquared, double rho) {
        if (l2SensitivitySquared == null || l2SensitivitySquared.signum() <= 0) {
            throw new IllegalArgumentException(
                    "l2SensitivitySquared must be >= 1, got " + l2SensitivitySquared);
        }
        ReleaseBudget.requireRho(rho);
        BigDecimal exact =
                new BigDecimal(l2SensitivitySquared)
                        .divide(
                                new BigDecimal(rho).multiply(BigDecimal.valueOf(2)),
                                0,
                                RoundingMode.CEILING);
        int log2 = exact.toBigInteger().bitLength() - 1;
        int k = Math.max(0, Math.min(62, 60 - log2));
        BigInteger num =
                new BigDecimal(l2SensitivitySquared)
                        .multiply(new BigDecimal(BigInteger.ONE.shiftLeft(k)))
                        .divide(
                                new BigDecimal(rho).multiply(BigDecimal.valueOf(2)),
                                0,
                                RoundingMode.CEILING)
                        .toBigIntegerExact();
        BigInteger den = BigInteger.ONE.shiftLeft(k);
        if (num.divide(den)
                        .sqrt()
                        .add(BigInteger.ONE)
                        .compareTo(BigInteger.valueOf(DiscreteLaplace.MAX_T))
                >= 0) {
            throw new IllegalArgumentException(
                    "l2 sensitivity / sqrt(rho) too large (sigma must be < 2^62)");
        }
        return new Variance(num.max(BigInteger.ONE), den);
    }

    /** Convenience: squared L2 sensitivity from a long L2 bound. */
    public static BigInteger squared(long l2Sensitivity) {
        return BigInteger.valueOf(l2Sensitivity).pow(2);
    }

    /** ρ-zCDP release of an integer with sensitivity Δ (Δ₂² = Δ²). */
    public static long addNoise(long value, long sensitivity, double rho, PrivacyRandom rng) {
        Variance v = exactVariance(squared(sensitivity), rho);
        GeometricMechanism.requireRng(rng);
        return value + DiscreteGaussian.sample(rng, v.num(), v.den()); // modulo 2^64
    }

    /**
     * ρ-zCDP release of an integer vector with squared L2 sensitivity {@code l2SensitivitySquared};
     * the same σ² on every coordinate. Returns a new array.
     */
    public static long[] addNoise(
            long[] values, BigInteger l2SensitivitySquared, double rho, PrivacyRandom rng) {
        if (values == null) {
            throw new IllegalArgumentException("values must not be null");
        }
        Variance v = exactVariance(l2SensitivitySquared, rho);
        GeometricMechanism.requireRng(rng);
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i] + DiscreteGaussian.sample(rng, v.num(), v.den()); // modulo 2^64
        }
        return out;
    }
}
