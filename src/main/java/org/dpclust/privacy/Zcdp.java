package org.dpclust.privacy;

/**
 * Conversions between zero-concentrated DP (ρ-zCDP, Bun and Steinke 2016) and pure / approximate
 * DP. All inputs are public; this class holds no private data.
 *
 * <ul>
 *   <li>Composition: ρ's add (BS16 Lemma 2.3); the ledger sums them exactly.
 *   <li>Pure to zCDP: an ε-DP release is (ε²/2)-zCDP (BS16 Proposition 1.4), {@link #pureToRho}.
 *   <li>zCDP to (ε, δ): two sound conversions, and {@link #epsilon} returns the smaller:
 *       <ol>
 *         <li>{@link #epsilonBs16}: ε = ρ + 2√(ρ ln(1/δ)) (BS16 Proposition 1.3);
 *         <li>{@link #epsilonCks}: ε = inf_{α>1} αρ + (ln(1/δ) + (α-1) ln(1-1/α) - ln α)/(α-1)
 *             (Canonne, Kamath and Steinke 2020, "The Discrete Gaussian for Differential Privacy",
 *             arXiv:2004.00010, §2.3, Corollary 13; equivalently δ = inf_{α>1}
 *             e^{(α-1)(αρ-ε)}/(α-1)·(1-1/α)^α, which is how {@link #deltaCks} evaluates it). The
 *             bound holds at EVERY α > 1, so the numerical minimisation only has to find a good α,
 *             not the optimum, for the result to be sound; the result is the bound evaluated at the
 *             α found (golden-section search on ln(α-1), the objective being convex in α).
 *       </ol>
 *   <li>Cap: a per-period cap given as (ε, δ) becomes the largest ρ (found by bisection) whose
 *       converted ε is at most ε·(1 - {@value #CAP_MARGIN}); the margin dominates the relative
 *       floating-point error (about 1e-14) of evaluating the bound, so the ρ cap is sound.
 * </ul>
 */
public final class Zcdp {
    private Zcdp() {}

    /** Relative margin kept below the configured ε when converting a cap to ρ. */
    public static final double CAP_MARGIN = 1e-9;

    /** ε²/2: the zCDP parameter of a pure ε-DP release. */
    public static double pureToRho(double epsilon) {
        requirePositive(epsilon, "epsilon");
        return epsilon * epsilon / 2;
    }

    /** BS16 Prop. 1.3: ρ-zCDP implies (ρ + 2√(ρ ln(1/δ)), δ)-DP. */
    public static double epsilonBs16(double rho, double delta) {
        requireRhoDelta(rho, delta);
        return rho + 2 * Math.sqrt(rho * Math.log(1 / delta));
    }

    /** The smaller (tighter) of the two conversions: ρ-zCDP implies (epsilon(ρ, δ), δ)-DP. */
    public static double epsilon(double rho, double delta) {
        if (rho == 0) {
            return 0;
        }
        return Math.min(epsilonBs16(rho, delta), epsilonCks(rho, delta));
    }

    /** CKS20 Cor. 13 in ε form (see class javadoc), evaluated at a numerically good α. */
    public static double epsilonCks(double rho, double delta) {
        requireRhoDelta(rho, delta);
        double logInvDelta = Math.log(1 / delta);
        return minOverAlpha(alpha -> cksEpsilonAt(alpha, rho, logInvDelta));
    }

    /**
     * Golden-section minimisation of a convex function of α over α - 1 in [e^-30, e^30] (searched
     * on ln(α - 1)); returns the function's value at the α found.
     */
    private static double minOverAlpha(java.util.function.DoubleUnaryOperator f) {
        double lo = -30;
        double hi = 30;
        double phi = (Math.sqrt(5) - 1) / 2;
        for (int i = 0; i < 200; i++) {
            double a = hi - phi * (hi - lo);
            double b = lo + phi * (hi - lo);
            if (f.applyAsDouble(Math.exp(a) + 1) <= f.applyAsDouble(Math.exp(b) + 1)) {
                hi = b;
            } else {
                lo = a;
            }
        }
        return f.applyAsDouble(Math.exp((lo + hi) / 2) + 1);
    }

    /** αρ + (ln(1/δ) + (α-1) ln(1-1/α) - ln α)/(α-1): an upper bound on ε for any α > 1. */
    static double cksEpsilonAt(double alpha, double rho, double logInvDelta) {
        double am1 = alpha - 1;
        return alpha * rho + (logInvDelta + am1 * Math.log1p(-1 / alpha) - Math.log(alpha)) / am1;
    }

    /**
     * CKS20 Cor. 13 in δ form: the δ for which ρ-zCDP implies (ε, δ)-DP, evaluated at a numerically
     * good α (sound for any α > 1).
     */
    public static double deltaCks(double rho, double epsilon) {
        requirePositive(rho, "rho");
        requirePositive(epsilon, "epsilon");
        return Math.min(1, Math.exp(minOverAlpha(alpha -> logDeltaAt(alpha, rho, epsilon))));
    }

    private static double logDeltaAt(double alpha, double rho, double epsilon) {
        double am1 = alpha - 1;
        return am1 * (alpha * rho - epsilon) - Math.log(am1) + alpha * Math.log1p(-1 / alpha);
    }

    /**
     * The largest ρ such that {@link #epsilon}(ρ, δ) <= ε·(1 - {@value #CAP_MARGIN}): the ρ budget
     * equivalent to an (ε, δ) cap.
     *
     * @throws IllegalArgumentException unless ε > 0 finite and 0 < δ < 1
     */
    public static double rhoCap(double epsilon, double delta) {
        requirePositive(epsilon, "epsilon");
        requireRhoDelta(1, delta);
        double target = epsilon * (1 - CAP_MARGIN);
        double lo = 0;
        double hi = epsilon;
        while (epsilon(hi, delta) <= target) {
            hi *= 2;
        }
        for (int i = 0; i < 200; i++) {
            double mid = (lo + hi) / 2;
            if (mid == lo || mid == hi) {
                break;
            }
            if (epsilon(mid, delta) <= target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static void requireRhoDelta(double rho, double delta) {
        if (!(rho >= 0) || Double.isInfinite(rho)) {
            throw new IllegalArgumentException("rho must be finite and >= 0, got " + rho);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
    }

    private static void requirePositive(double x, String name) {
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(name + " must be finite and > 0, got " + x);
        }
    }
}
