package org.dpclust.privacy;

/**
 * Sampler for the density ∝ exp(c x) on a bounded interval [a, b] (c may be negative, zero or
 * positive), as needed by the ExpDP k-means algorithm (docs/algorithms.md#sampling-zone).
 *
 * <p>Contract: this is NOT a privacy-noise mechanism and carries no DP guarantee of its own. It
 * draws from {@link PrivacyRandom#nextDouble()} (53-bit uniform) by inverse CDF in floating point,
 * so it is for sampling densities whose parameters (c, a, b) are public, or for post-processing of
 * already-private outputs. Any privacy argument that needs this density with data-dependent
 * parameters must be made (and discretised) by the caller.
 *
 * <p>Method: with r = |c| and w = b - a, draw Y on [0, w] with density ∝ e^{-rY} by Y = -log1p(V
 * expm1(-r w)) / r, V uniform in [0,1) (the inverse of F(y) = expm1(-r y) / expm1(-r w)); return a
 * + Y if c < 0 and b - Y if c > 0. expm1/log1p keep it accurate for small r w and it never
 * overflows for large r w. For c = 0 (or r w so small that the density is flat to double precision)
 * it returns a + V w. Results are clamped to [a, b].
 */
public final class TruncatedExponential {
    private TruncatedExponential() {}

    /**
     * Samples from density ∝ exp(c x) on [a, b].
     *
     * @throws IllegalArgumentException if c, a or b is not finite or a > b
     */
    public static double sample(PrivacyRandom rng, double c, double a, double b) {
        GeometricMechanism.requireRng(rng);
        if (!Double.isFinite(c)) {
            throw new IllegalArgumentException("c must be finite, got " + c);
        }
        if (!Double.isFinite(a) || !Double.isFinite(b) || a > b) {
            throw new IllegalArgumentException("need finite a <= b, got [" + a + ", " + b + "]");
        }
        double w = b - a;
        if (!Double.isFinite(w)) {
            throw new IllegalArgumentException("interval width overflows: [" + a + ", " + b + "]");
        }
        double v = rng.nextDouble();
        double r = Math.abs(c);
        double rw = r * w;
        if (w == 0) {
            return a;
        }
        if (rw < 0x1.0p-60) {
            return Math.min(b, a + v * w);
        }
        double y = -Math.log1p(v * Math.expm1(-rw)) / r;
        double x = c < 0 ? a + y : b - y;
        return Math.max(a, Math.min(b, x));
    }
}
