package org.dpclust.kmeans;

import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.TruncatedExponential;

/**
 * One cluster's sampling zone of Lu &amp; Shen (paper 000, Algorithm 2) and the ExpDP draw of the
 * new centroid inside it (Algorithm 1, line 7). docs/algorithms.md#sampling-zone restates both.
 *
 * <p><b>Contract.</b> Given the centroid {@code previous} = S^(t−1) that defined the cluster, its
 * mean {@code mean} = S^(t) and (for {@link ZoneOrientation#PAST_FUTURE}) the next Lloyd mean
 * S^(t+1):
 *
 * <ul>
 *   <li>the convergent zone (Def. 5) is the ball around S^(t) of radius R = ‖S^(t−1) − S^(t)‖;
 *   <li>PAST: Y = S^(t) + (S^(t) − S^(t−1)) is where the line S^(t−1)S^(t), continued in the
 *       direction of motion ("a trend of cluster centroids movement", §5.2), crosses the border; X
 *       is Y rotated on the border by γ ~ ∝ exp(1 − 2γ/π) on [0, π/2]. <b>Construction for d &gt;
 *       2</b> (the paper only draws the plane): the rotation plane is spanned by u = (Y − S^(t))/R
 *       and a direction v drawn uniformly from the unit sphere orthogonal to u (a Gaussian vector
 *       with its u-component removed, normalised); in d = 2 this is a uniformly random sign; in d =
 *       1 there is no rotation (X = Y);
 *   <li>PAST_FUTURE: X = S^(t+1). The paper assumes it lies in the convergent zone, which need not
 *       hold (docs/algorithms.md#lu-and-shen-errors, 9). <b>Fix:</b> when ‖X − S^(t)‖ &gt; R, X is
 *       projected radially onto the border, X ← S^(t) + R (X − S^(t))/‖X − S^(t)‖, and {@link
 *       #projected()} is set, so the zone always lies inside the convergent zone;
 *   <li>λ ~ ∝ exp(2 − 2λ) on [1/2, 1]; the zone is the ball with centre P = S^(t) + λ(X − S^(t))
 *       and radius r = (1 − λ)‖X − S^(t)‖, internally tangent at X to the ball around S^(t) through
 *       X — hence inside the convergent zone (closed ball; the tangent point has probability 0).
 * </ul>
 *
 * <p><b>The draw.</b> A point Ŝ of the zone is parameterised by δ = ‖Ŝ − S^(t)‖/‖X − S^(t)‖ and the
 * angle α between Ŝ − S^(t) and X − S^(t) (X stands in for S^(t+1), which the past strategy does
 * not have). Because the zone lies on X's side (its nearest point is at δ = 2λ − 1 &gt; 0), |α| ≤
 * α_max = asin((1 − λ)/λ) &lt; π/2. The score is q = (1 − δ) + (1 − 2|α|/π) and the density over
 * (δ, |α|), restricted to the zone, is ∝ exp(ε q/4) = exp(ε/2) · exp(−ε δ/4) · exp(−ε|α|/(2π)) — a
 * density on the paper's parameters (δ, α), not on points of R^d. It is sampled exactly by
 * rejection: |α| from its exponential factor on [0, α_max], accepted with probability m(α)/m(0),
 * where m(α) = ∫ exp(−εδ/4) dδ over the chord δ ∈ [λcos α − √((1−λ)² − λ²sin²α), λcos α + √(…)] of
 * the ray at angle α, and m(0) (the chord [2λ − 1, 1]) is the largest such integral because every
 * chord lies inside [2λ − 1, 1]; then δ from the exponential factor on that chord. The direction at
 * angle α uses a fresh uniform direction orthogonal to X − S^(t) as above. All samplers draw from
 * {@link TruncatedExponential} and {@link PrivacyRandom#nextDouble()}: they are exact samplers of
 * densities with the given parameters, and by themselves carry no privacy guarantee — whether the
 * draw is private depends only on whether the zone's inputs are (in paper mode they are exact
 * means: weaknesses 1–3; in strict mode they are released values, so the draw is post-processing).
 */
public record SamplingZone(
        double[] mean,
        double[] controller,
        double lambda,
        double[] centre,
        double radius,
        double convergentRadius,
        boolean projected) {

    /** λ ~ ∝ exp(2 − 2λ) on [1/2, 1] (the paper's (1/2, 1); the end points have probability 0). */
    public static double sampleLambda(PrivacyRandom rng) {
        return TruncatedExponential.sample(rng, -2.0, 0.5, 1.0);
    }

    /** γ ~ ∝ exp(1 − 2γ/π) on [0, π/2]. */
    public static double sampleGamma(PrivacyRandom rng) {
        return TruncatedExponential.sample(rng, -2.0 / Math.PI, 0.0, Math.PI / 2);
    }

    /**
     * The PAST zone of one cluster (see the class contract); a zero move gives the one-point zone
     * {mean}.
     */
    public static SamplingZone past(double[] previous, double[] mean, PrivacyRandom rng) {
        double radius = distance(previous, mean);
        if (radius == 0) {
            return new SamplingZone(mean.clone(), mean.clone(), 1.0, mean.clone(), 0.0, 0.0, false);
        }
        int d = mean.length;
        double[] u = new double[d];
        for (int j = 0; j < d; j++) {
            u[j] = (mean[j] - previous[j]) / radius;
        }
        double gamma = sampleGamma(rng);
        double[] v = orthogonalUnit(u, rng);
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] =
                    mean[j]
                            + radius
                                    * (v == null
                                            ? u[j]
                                            : Math.cos(gamma) * u[j] + Math.sin(gamma) * v[j]);
        }
        return around(mean, x, radius, false, rng);
    }

    /**
     * The PAST_FUTURE zone: controller X = {@code future} (S^(t+1)), projected radially onto the
     * border of the convergent zone when it lies outside it.
     */
    public static SamplingZone pastFuture(
            double[] previous, double[] mean, double[] future, PrivacyRandom rng) {
        double radius = distance(previous, mean);
        double len = distance(future, mean);
        boolean outside = len > radius;
        double[] x = future.clone();
        if (outside) {
            for (int j = 0; j < x.length; j++) {
                x[j] = mean[j] + (future[j] - mean[j]) * (radius / len);
            }
        }
        return around(mean, x, radius, outside, rng);
    }

    private static SamplingZone around(
            double[] mean, double[] x, double radius, boolean projected, PrivacyRandom rng) {
        double lambda = sampleLambda(rng);
        double[] p = new double[mean.length];
        for (int j = 0; j < p.length; j++) {
            p[j] = mean[j] + lambda * (x[j] - mean[j]);
        }
        return new SamplingZone(
                mean.clone(), x, lambda, p, (1 - lambda) * distance(x, mean), radius, projected);
    }

    /** ‖X − S^(t)‖, the unit of δ. */
    public double controllerDistance() {
        return distance(controller, mean);
    }

    /** α_max = asin((1 − λ)/λ): the largest angle a point of the zone makes with X − S^(t). */
    public double maxAngle() {
        return mean.length == 1 ? 0.0 : Math.asin(Math.min(1.0, (1 - lambda) / lambda));
    }

    /** The chord {δ_lo, δ_hi} of the ray at angle α (0 ≤ α ≤ α_max), in units of ‖X − S^(t)‖. */
    public double[] chord(double alpha) {
        double disc =
                Math.max(
                        0.0,
                        (1 - lambda) * (1 - lambda)
                                - lambda * lambda * Math.sin(alpha) * Math.sin(alpha));
        double mid = lambda * Math.cos(alpha);
        return new double[] {
            Math.max(0.0, mid - Math.sqrt(disc)), Math.min(1.0, mid + Math.sqrt(disc))
        };
    }

    /** ∫ exp(−c δ) dδ over [lo, hi] (c ≥ 0), computed without cancellation. */
    public static double exponentialMass(double c, double lo, double hi) {
        if (hi <= lo) {
            return 0.0;
        }
        if (c == 0) {
            return hi - lo;
        }
        return -Math.exp(-c * lo) * Math.expm1(-c * (hi - lo)) / c;
    }

    /**
     * m(α)/m(0): the exponential mass of {@code chord} relative to that of {@code chord0} (the
     * chord at α = 0, which contains every chord), in [0, 1]. Computed as exp(−c(lo − lo₀)) ·
     * expm1(−c(hi − lo)) / expm1(−c(hi₀ − lo₀)), never as a quotient of the two masses: at a large
     * ε both masses underflow to 0 (e^{−c·lo₀} with c = ε/4), and 0 &lt; 0 would reject forever.
     */
    static double massRatio(double c, double[] chord, double[] chord0) {
        double width = chord[1] - chord[0];
        double width0 = chord0[1] - chord0[0];
        if (width <= 0) {
            return 0.0;
        }
        if (c == 0) {
            return Math.min(1.0, width / width0);
        }
        double ratio =
                Math.exp(-c * Math.max(0.0, chord[0] - chord0[0]))
                        * (Math.expm1(-c * width) / Math.expm1(-c * width0));
        return Math.min(1.0, ratio);
    }

    /**
     * Draws Ŝ with density ∝ exp(ε q(δ, α)/4) over the zone's (δ, α) (see the class contract). A
     * one-point zone returns its point.
     */
    public double[] sample(double epsilon, PrivacyRandom rng) {
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and >= 0, was " + epsilon);
        }
        double len = controllerDistance();
        if (len == 0 || radius == 0) {
            return controller.clone();
        }
        int d = mean.length;
        double c = epsilon / 4;
        double aMax = maxAngle();
        double[] chord0 = chord(0.0);
        double alpha;
        double[] ch;
        while (true) {
            alpha =
                    aMax == 0
                            ? 0.0
                            : TruncatedExponential.sample(rng, -epsilon / (2 * Math.PI), 0.0, aMax);
            ch = chord(alpha);
            if (rng.nextDouble() < massRatio(c, ch, chord0)) {
                break;
            }
        }
        double delta = TruncatedExponential.sample(rng, -c, ch[0], ch[1]);
        double[] u = new double[d];
        for (int j = 0; j < d; j++) {
            u[j] = (controller[j] - mean[j]) / len;
        }
        double[] w = orthogonalUnit(u, rng);
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            out[j] =
                    mean[j]
                            + delta
                                    * len
                                    * (w == null
                                            ? u[j]
                                            : Math.cos(alpha) * u[j] + Math.sin(alpha) * w[j]);
        }
        return out;
    }

    /**
     * A uniformly random unit vector orthogonal to the unit vector u (null in d = 1): a standard
     * Gaussian vector (Box–Muller on {@link PrivacyRandom#nextDouble()}) minus its u-component,
     * normalised; redrawn in the probability-0 event of a zero remainder.
     */
    static double[] orthogonalUnit(double[] u, PrivacyRandom rng) {
        int d = u.length;
        if (d == 1) {
            return null;
        }
        double[] g = new double[d];
        while (true) {
            for (int j = 0; j < d; j++) {
                double r = Math.sqrt(-2 * Math.log(1 - rng.nextDouble()));
                g[j] = r * Math.cos(2 * Math.PI * rng.nextDouble());
            }
            double dot = 0;
            for (int j = 0; j < d; j++) {
                dot += g[j] * u[j];
            }
            double norm = 0;
            for (int j = 0; j < d; j++) {
                g[j] -= dot * u[j];
                norm += g[j] * g[j];
            }
            norm = Math.sqrt(norm);
            if (norm > 1e-12) {
                for (int j = 0; j < d; j++) {
                    g[j] /= norm;
                }
                return g;
            }
        }
    }

    static double distance(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            double t = a[j] - b[j];
            s += t * t;
        }
        return Math.sqrt(s);
    }
}
