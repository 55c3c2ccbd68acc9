package org.dpclust.privacy;

import java.math.BigInteger;

/**
 * Exact discrete Laplace (two-sided geometric) sampler of Canonne, Kamath and Steinke, "The
 * Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Algorithm 2, in pure long arithmetic.
 *
 * <p>Contract: {@link #sample(PrivacyRandom, long, long)} returns Y with P(Y = y) = (1 - e^{-s/t})
 * / (1 + e^{-s/t}) * e^{-|y| s / t} for every integer y, exactly (given uniform input bits), i.e.
 * the discrete Laplace distribution with scale t/s. This class is a sampler, not a mechanism: the
 * privacy statement belongs to {@link GeometricMechanism}, which uses the fact that P(y)/P(y') <=
 * e^{|y - y'| s/t}.
 *
 * <p>Algorithm (CKS Alg. 2): draw U uniform in {0..t-1}; accept it with probability e^{-U/t} (else
 * restart); draw V ~ Geometric(1 - e^{-1}) on {0,1,...} by counting successes of Bernoulli(e^{-1});
 * X = U + tV is then geometric with P(X = x) ∝ e^{-x/t}; Y = floor(X/s) is geometric with parameter
 * e^{-s/t}; with a fair sign bit B, reject (B = 1, Y = 0) and return (1 - 2B) Y. Bernoulli(e^{-γ})
 * for rational γ = num/den in [0,1] uses CKS Alg. 1 (count K while Bernoulli(γ/K) succeeds; return
 * K odd), where Bernoulli(γ/K) is evaluated as Bernoulli(num/den) AND Bernoulli(1/K) (independent,
 * so exact, and den*K never has to be formed: no overflow). Bernoulli(p) for rational p = a/b is
 * exact: {@code rng.nextLong(b) < a}.
 *
 * <p>Range: the result is Y modulo 2^64 (as a signed long), exactly: when |Y| = floor((U + tV)/s)
 * exceeds a long (possible only when t/s is within a small factor of 2^62) it wraps, like the
 * mechanisms' additions ({@link GeometricMechanism}, "Arithmetic modulo 2^64"), so a mechanism's
 * output is always the exact f(D) + Y reduced modulo 2^64. Saturating instead would not do: added
 * modulo 2^64, a saturated sample would reveal f(D) exactly. Running time is random (expected O(1)
 * loop passes, each O(1) expected) and is not constant-time; timing is operator-side.
 */
public final class DiscreteLaplace {
    private DiscreteLaplace() {}

    /** Largest allowed t (exclusive). */
    public static final long MAX_T = 1L << 62;

    /**
     * Samples discrete Laplace with scale t/s.
     *
     * @throws IllegalArgumentException unless t >= 1, s >= 1 and t < 2^62
     */
    public static long sample(PrivacyRandom rng, long t, long s) {
        return sample(rng, t, s, null);
    }

    /**
     * As {@link #sample(PrivacyRandom, long, long)}; when {@code exactMagnitude} is not null its
     * first element receives |Y| exactly (for {@link DiscreteGaussian}'s acceptance test, which
     * needs the exact value even where the returned long has wrapped).
     */
    static long sample(PrivacyRandom rng, long t, long s, BigInteger[] exactMagnitude) {
        if (rng == null) {
            throw new IllegalArgumentException("rng must not be null");
        }
        if (t < 1 || t >= MAX_T) {
            throw new IllegalArgumentException("t must be in [1, 2^62), got " + t);
        }
        if (s < 1) {
            throw new IllegalArgumentException("s must be >= 1, got " + s);
        }
        while (true) {
            long u = rng.nextLong(t);
            if (!bernoulliExpMinusRational(rng, u, t)) {
                continue;
            }
            long v = 0;
            while (bernoulliExpMinusOne(rng)) {
                v++;
            }
            BigInteger exact = floorDivExact(u, t, v, s);
            long y = exact == null ? floorDivSmall(u, t, v, s) : exact.longValue(); // mod 2^64
            boolean negative = rng.nextBoolean();
            if (negative && (exact == null ? y == 0 : exact.signum() == 0)) {
                continue;
            }
            if (exactMagnitude != null) {
                exactMagnitude[0] = exact != null ? exact : BigInteger.valueOf(y);
            }
            return negative ? -y : y; // negation modulo 2^64 too
        }
    }

    /**
     * floor((u + t*v)/s) for non-negative inputs as a BigInteger when u + t*v does not fit a
     * non-negative long, else null (then {@link #floorDivSmall} computes it in long arithmetic).
     */
    static BigInteger floorDivExact(long u, long t, long v, long s) {
        long hi = Math.multiplyHigh(t, v);
        long lo = t * v;
        if (hi == 0 && lo >= 0 && lo + u >= 0) {
            return null;
        }
        return BigInteger.valueOf(t)
                .multiply(BigInteger.valueOf(v))
                .add(BigInteger.valueOf(u))
                .divide(BigInteger.valueOf(s));
    }

    private static long floorDivSmall(long u, long t, long v, long s) {
        return (t * v + u) / s;
    }

    /** Exact Bernoulli(p) for p = num/den, 0 <= num <= den, den >= 1. */
    static boolean bernoulli(PrivacyRandom rng, long num, long den) {
        return rng.nextLong(den) < num;
    }

    /**
     * Exact Bernoulli(exp(-num/den)) for 0 <= num <= den (CKS Algorithm 1).
     *
     * @throws IllegalArgumentException if not 0 <= num <= den or den < 1
     */
    public static boolean bernoulliExpMinusRational(PrivacyRandom rng, long num, long den) {
        if (den < 1 || num < 0 || num > den) {
            throw new IllegalArgumentException(
                    "need 0 <= num <= den, den >= 1; got " + num + "/" + den);
        }
        if (num == 0) {
            return true;
        }
        long k = 1;
        while (bernoulli(rng, num, den) && bernoulli(rng, 1, k)) {
            k++;
        }
        return (k & 1) == 1;
    }

    /** Exact Bernoulli(exp(-1)) (CKS Algorithm 1 with gamma = 1). */
    public static boolean bernoulliExpMinusOne(PrivacyRandom rng) {
        long k = 1;
        while (bernoulli(rng, 1, k)) {
            k++;
        }
        return (k & 1) == 1;
    }
}
