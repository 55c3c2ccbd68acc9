package org.dpclust.privacy;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Exact discrete Gaussian sampler N_Z(0, σ²) of Canonne, Kamath and Steinke, "The Discrete Gaussian
 * for Differential Privacy" (NeurIPS 2020), Algorithm 3, on top of the exact {@link
 * DiscreteLaplace} sampler (their Algorithm 2).
 *
 * <p>Contract: {@link #sample(PrivacyRandom, BigInteger, BigInteger)} returns Y with P(Y = y) =
 * e^{-y²/(2σ²)} / Σ_{z∈Z} e^{-z²/(2σ²)} for every integer y, exactly (given uniform input bits),
 * where σ² = num/den is a public rational. This class is a sampler, not a mechanism: the privacy
 * statement belongs to {@link GaussianMechanism}.
 *
 * <p>Algorithm (CKS Alg. 3): t = ⌊σ⌋ + 1; repeat { Y ← discrete Laplace with scale t (P ∝
 * e^{-|y|/t}); accept with probability exp(-(|Y| - σ²/t)² / (2σ²)) } and return the accepted Y. The
 * acceptance exponent γ = (|Y|·d·t - n)² / (2·n·d·t²) for σ² = n/d is an exact rational in
 * BigInteger arithmetic; Bernoulli(e^{-γ}) is CKS Algorithm 1 applied ⌊γ⌋ times with γ = 1 and once
 * with the fractional part (e^{-γ} = e^{-1·⌊γ⌋}·e^{-(γ-⌊γ⌋)}, independent draws). Every
 * Bernoulli(a/b) is {@code uniform(b) < a}, exact, with uniform integers from {@link PrivacyRandom}
 * only. No floating point enters any sampling decision.
 *
 * <p>σ² as a double ({@link #sample(PrivacyRandom, double)}) is converted EXACTLY to a rational
 * through {@code new BigDecimal(double)} (the binary value of the double, not its decimal print).
 * Range: t must be below {@link DiscreteLaplace#MAX_T}, i.e. σ < 2^62; the result is Y modulo 2^64
 * exactly, as {@link DiscreteLaplace}'s. Running time is random (the expected number of passes is
 * bounded by a small constant for every σ, CKS §5) and not constant-time; timing is operator-side.
 */
public final class DiscreteGaussian {
    private DiscreteGaussian() {}

    /** Samples N_Z(0, σ²) with σ² = num/den exactly. */
    public static long sample(PrivacyRandom rng, BigInteger num, BigInteger den) {
        if (rng == null) {
            throw new IllegalArgumentException("rng must not be null");
        }
        if (num == null || den == null || num.signum() <= 0 || den.signum() <= 0) {
            throw new IllegalArgumentException("sigma^2 = num/den needs num, den > 0");
        }
        // floor(sqrt(n/d)) = floor(sqrt(floor(n/d)))
        BigInteger tBig = num.divide(den).sqrt().add(BigInteger.ONE);
        if (tBig.compareTo(BigInteger.valueOf(DiscreteLaplace.MAX_T)) >= 0) {
            throw new IllegalArgumentException("sigma must be < 2^62");
        }
        long t = tBig.longValueExact();
        BigInteger twoNdT2 = BigInteger.TWO.multiply(num).multiply(den).multiply(tBig.pow(2));
        BigInteger dt = den.multiply(tBig);
        BigInteger[] magnitude = new BigInteger[1];
        while (true) {
            // y is Y modulo 2^64; the acceptance uses the exact |Y| (DiscreteLaplace's range)
            long y = DiscreteLaplace.sample(rng, t, 1, magnitude);
            BigInteger a = magnitude[0].multiply(dt).subtract(num);
            if (bernoulliExpMinus(rng, a.multiply(a), twoNdT2)) {
                return y;
            }
        }
    }

    /** Samples N_Z(0, σ²) for σ² given as a double, converted exactly to a rational. */
    public static long sample(PrivacyRandom rng, double sigma2) {
        BigInteger[] r = exactRational(sigma2);
        return sample(rng, r[0], r[1]);
    }

    /**
     * The exact rational {num, den} of a finite positive double.
     *
     * @throws IllegalArgumentException if x is not finite and positive
     */
    public static BigInteger[] exactRational(double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException("sigma^2 must be finite and > 0, got " + x);
        }
        BigDecimal b = new BigDecimal(x);
        if (b.scale() <= 0) {
            return new BigInteger[] {b.toBigIntegerExact(), BigInteger.ONE};
        }
        return new BigInteger[] {b.unscaledValue(), BigInteger.TEN.pow(b.scale())};
    }

    /** Exact Bernoulli(exp(-num/den)) for any rational num/den >= 0 (CKS Algorithm 1). */
    static boolean bernoulliExpMinus(PrivacyRandom rng, BigInteger num, BigInteger den) {
        BigInteger[] qr = num.divideAndRemainder(den);
        for (BigInteger i = BigInteger.ZERO; i.compareTo(qr[0]) < 0; i = i.add(BigInteger.ONE)) {
            if (!DiscreteLaplace.bernoulliExpMinusOne(rng)) {
                return false;
            }
        }
        BigInteger frac = qr[1];
        if (frac.signum() == 0) {
            return true;
        }
        long k = 1;
        while (bernoulli(rng, frac, den) && DiscreteLaplace.bernoulli(rng, 1, k)) {
            k++;
        }
        return (k & 1) == 1;
    }

    /** Exact Bernoulli(a/b), 0 <= a <= b. */
    static boolean bernoulli(PrivacyRandom rng, BigInteger a, BigInteger b) {
        if (b.bitLength() < 63) {
            return rng.nextLong(b.longValueExact()) < a.longValueExact();
        }
        return uniformBelow(rng, b).compareTo(a) < 0;
    }

    /** Uniform integer in [0, bound) by rejection on bitLength(bound) uniform bits: exact. */
    static BigInteger uniformBelow(PrivacyRandom rng, BigInteger bound) {
        int bits = bound.bitLength();
        while (true) {
            BigInteger u = BigInteger.ZERO;
            int have = 0;
            while (have < bits) {
                int take = Math.min(63, bits - have);
                long w = rng.nextLong() >>> (64 - take);
                u = u.shiftLeft(take).or(BigInteger.valueOf(w));
                have += take;
            }
            if (u.compareTo(bound) < 0) {
                return u;
            }
        }
    }
}
