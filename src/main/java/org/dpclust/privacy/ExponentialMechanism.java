package org.dpclust.privacy;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Exponential mechanism (McSherry and Talwar 2007) in exact arithmetic: selects index i with
 * probability ∝ exp(λ ũ_i), where ũ are the utilities rounded to a public grid and λ <= ε/(2Δ̃).
 *
 * <p>Private: the utilities, which the caller computes from the data. The candidate set (the array
 * length and what each index means) must be data-independent; the CALLER guarantees this.
 * Neighbouring relation and sensitivity: the caller guarantees |u_i(D) - u_i(D')| <= Δ ({@code
 * sensitivity}) for every candidate i and all neighbours D, D' (add/remove one unit).
 *
 * <p>Mechanism. g = 2^(floor(log2 Δ) - 20) (public); ũ_i = round(u_i / g) (exact scaling by a power
 * of two, then round to nearest; |u_i/g| >= 2^61 is rejected); Δ̃ = ceil(Δ/g) + 1; λ = a / 2^62 per
 * grid unit with a = floor(2^62 ε / (2Δ̃)) computed exactly with BigDecimal on the exact binary
 * value of ε (capped at Long.MAX_VALUE, also a rounding down). Sampling is exact rejection
 * sampling: propose i uniformly ({@code rng.nextLong(n)}), accept with probability exp(-λ(ũ_max -
 * ũ_i)) in (0, 1], else propose again. The accepted index has probability ∝ (1/n) exp(-λ(ũ_max -
 * ũ_i)) ∝ exp(λ ũ_i), i.e. exactly the exponential mechanism on ũ with rate λ. The acceptance
 * probability is computed exactly: γ = d a / 2^62 with d = ũ_max - ũ_i < 2^62 via a 128-bit product
 * (Math.multiplyHigh); its integer part n_int via n_int Bernoulli(e^{-1}) trials (stopping at the
 * first failure), its fractional part f = num/2^62 via Bernoulli(e^{-f}) ({@link
 * DiscreteLaplace#bernoulliExpMinusRational}); e^{-γ} = e^{-n_int} e^{-f} and the trials are
 * independent.
 *
 * <p>Guarantee: exactly ε-DP (pure). Derivation: rounding moves each utility by at most 1/2 grid
 * unit, so |ũ_i(D) - ũ_i(D')| <= Δ/g + 1, an integer bound hence <= ceil(Δ/g) + 1 = Δ̃. For the
 * exponential mechanism with rate λ on a score of sensitivity Δ̃, P(i | D)/P(i | D') = e^{λ(ũ_i(D)
 * - ũ_i(D'))} Z(D')/Z(D) <= e^{λΔ̃} e^{λΔ̃} = e^{2λΔ̃} <= e^ε since λ <= ε/(2Δ̃). The effective ε
 * is 2λΔ̃ <= ε (slightly smaller because of the +1 and the rounding down). The number of proposals
 * is random (expected <= n) and data-dependent; running time is operator-side. The guarantee
 * assumes ideal random bits; see {@link PrivacyRandom}.
 */
public final class ExponentialMechanism {
    private ExponentialMechanism() {}

    /** Grid precision below the sensitivity: g = 2^(floor(log2 Δ) - GRID_BITS). */
    public static final int GRID_BITS = 20;

    private static final double MAX_UNITS = 0x1.0p61;
    private static final long FRACTION_MASK = (1L << 62) - 1;

    /**
     * Selects an index with probability ∝ exp(ε u_i / (2Δ)) (up to the grid rounding above).
     *
     * @throws IllegalArgumentException naming the parameter for an empty or non-finite utility
     *     array, a utility with |u/g| >= 2^61, or non-finite/non-positive sensitivity or epsilon
     */
    public static int select(
            double[] utilities, double sensitivity, double epsilon, PrivacyRandom rng) {
        if (utilities == null || utilities.length == 0) {
            throw new IllegalArgumentException("utilities must be a non-empty array");
        }
        GeometricMechanism.requireRng(rng);
        int ge = gridExponent(sensitivity, epsilon);
        int n = utilities.length;
        long[] units = new long[n];
        for (int i = 0; i < n; i++) {
            double u = utilities[i];
            if (!Double.isFinite(u)) {
                throw new IllegalArgumentException("utilities[" + i + "] must be finite, got " + u);
            }
            double q = Math.rint(Math.scalb(u, -ge));
            if (!(Math.abs(q) < MAX_UNITS)) {
                throw new IllegalArgumentException(
                        "utilities[" + i + "] too large for the grid (|u/g| >= 2^61): " + u);
            }
            units[i] = (long) q;
        }
        return sample(units, rateNumerator(sensitivity, epsilon), rng);
    }

    /**
     * Selects an index with probability ∝ exp(λ ũ_i) for utilities ũ already given in grid units of
     * {@link #granularity}(sensitivity): the entry point for callers that compute their utilities
     * exactly on the grid (e.g. sums of per-record terms each rounded to the grid and added as
     * longs, which no accumulation order or rounding can move).
     *
     * <p>Contract: |ũ_i(D) - ũ_i(D')| <= {@link #gridSensitivity}(sensitivity) = ceil(Δ/g) + 1 for
     * every candidate and all neighbours, i.e. the sensitivity Δ plus one grid unit, which is the
     * integer sensitivity the rate λ is calibrated to in {@link #select} (where the extra unit
     * absorbs the rounding of u to the grid). Under it the derivation of the class comment holds
     * verbatim: exactly ε-DP (pure).
     *
     * @throws IllegalArgumentException for an empty array, |ũ_i| >= 2^61, or a bad sensitivity or
     *     epsilon
     */
    public static int selectUnits(
            long[] gridUtilities, double sensitivity, double epsilon, PrivacyRandom rng) {
        if (gridUtilities == null || gridUtilities.length == 0) {
            throw new IllegalArgumentException("utilities must be a non-empty array");
        }
        GeometricMechanism.requireRng(rng);
        long rate = rateNumerator(sensitivity, epsilon);
        for (int i = 0; i < gridUtilities.length; i++) {
            if (!(Math.abs((double) gridUtilities[i]) < MAX_UNITS)) {
                throw new IllegalArgumentException(
                        "utilities[" + i + "] too large for the grid (|u| >= 2^61 units)");
            }
        }
        return sample(gridUtilities, rate, rng);
    }

    /**
     * {@link #selectUnits} with utilities = -costs (low cost preferred); same contract on the cost
     * units.
     */
    public static int selectMinimizingUnits(
            long[] gridCosts, double sensitivity, double epsilon, PrivacyRandom rng) {
        if (gridCosts == null) {
            throw new IllegalArgumentException("costs must not be null");
        }
        long[] u = new long[gridCosts.length];
        for (int i = 0; i < u.length; i++) {
            u[i] = -gridCosts[i];
        }
        return selectUnits(u, sensitivity, epsilon, rng);
    }

    /** Rejection sampling of the class comment on integer utilities with rate a/2^62. */
    private static int sample(long[] units, long rate, PrivacyRandom rng) {
        int n = units.length;
        long max = Long.MIN_VALUE;
        for (long u : units) {
            max = Math.max(max, u);
        }
        while (true) {
            int i = (int) rng.nextLong(n);
            if (acceptExpMinus(rng, max - units[i], rate)) {
                return i;
            }
        }
    }

    /** Selects with utilities = -costs (low cost preferred); same contract as {@link #select}. */
    public static int selectMinimizing(
            double[] costs, double sensitivity, double epsilon, PrivacyRandom rng) {
        if (costs == null) {
            throw new IllegalArgumentException("costs must not be null");
        }
        double[] u = new double[costs.length];
        for (int i = 0; i < costs.length; i++) {
            u[i] = -costs[i];
        }
        return select(u, sensitivity, epsilon, rng);
    }

    /** The public utility grid g = 2^(floor(log2 sensitivity) - 20). */
    public static double granularity(double sensitivity, double epsilon) {
        return Math.scalb(1.0, gridExponent(sensitivity, epsilon));
    }

    /**
     * The power of two g's exponent: g = 2^{@code gridExponent(sensitivity)}, g = {@link
     * #granularity}.
     */
    public static int gridExponent(double sensitivity) {
        return gridExponent(sensitivity, 1.0);
    }

    /**
     * Δ̃ = ceil(Δ/g) + 1: the sensitivity in grid units, including the one unit of rounding slack,
     * that the rate λ is calibrated to (in [2^20 + 1, 2^21 + 1]).
     */
    public static long gridSensitivity(double sensitivity) {
        return integerSensitivity(sensitivity, gridExponent(sensitivity));
    }

    /** The effective epsilon 2λΔ̃ actually guaranteed (<= epsilon), for reporting and tests. */
    public static double effectiveEpsilon(double sensitivity, double epsilon) {
        int ge = gridExponent(sensitivity, epsilon);
        long dt = integerSensitivity(sensitivity, ge);
        return new BigDecimal(rateNumerator(sensitivity, epsilon))
                .multiply(BigDecimal.valueOf(2 * dt))
                .divide(new BigDecimal(BigDecimal.valueOf(2).pow(62).toBigInteger()))
                .doubleValue();
    }

    /** The rate λ per grid unit as a double (exactly a/2^62). */
    static double rate(double sensitivity, double epsilon) {
        return Math.scalb((double) rateNumerator(sensitivity, epsilon), -62);
    }

    private static int gridExponent(double sensitivity, double epsilon) {
        if (!(sensitivity > 0) || Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException(
                    "sensitivity must be finite and > 0, got " + sensitivity);
        }
        ReleaseBudget.requireEpsilon(epsilon);
        if (!(sensitivity >= 0x1.0p-1000)) {
            throw new IllegalArgumentException("sensitivity too small (< 2^-1000): " + sensitivity);
        }
        return Math.getExponent(sensitivity) - GRID_BITS;
    }

    private static long integerSensitivity(double sensitivity, int ge) {
        // sensitivity/g is in [2^20, 2^21): exact and small.
        return (long) Math.ceil(Math.scalb(sensitivity, -ge)) + 1;
    }

    /** a = min(Long.MAX_VALUE, floor(2^62 ε / (2Δ̃))). */
    private static long rateNumerator(double sensitivity, double epsilon) {
        long dt = integerSensitivity(sensitivity, gridExponent(sensitivity, epsilon));
        BigDecimal a =
                new BigDecimal(epsilon)
                        .multiply(new BigDecimal(1L << 62))
                        .divide(BigDecimal.valueOf(2 * dt), 0, RoundingMode.FLOOR);
        return a.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0
                ? Long.MAX_VALUE
                : a.longValueExact();
    }

    /** Exact Bernoulli(exp(-d a / 2^62)) for 0 <= d < 2^62, 0 <= a. */
    static boolean acceptExpMinus(PrivacyRandom rng, long d, long a) {
        if (d == 0 || a == 0) {
            return true;
        }
        long hi = Math.multiplyHigh(d, a); // d*a = hi*2^64 + lo (unsigned lo)
        long lo = d * a;
        long intPart = (hi << 2) | (lo >>> 62); // floor(d*a / 2^62); hi < 2^60 so no overflow
        long frac = lo & FRACTION_MASK;
        for (long k = 0; k < intPart; k++) {
            if (!DiscreteLaplace.bernoulliExpMinusOne(rng)) {
                return false;
            }
        }
        return DiscreteLaplace.bernoulliExpMinusRational(rng, frac, 1L << 62);
    }
}
