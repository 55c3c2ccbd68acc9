package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.StatsUtil;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * Goodness of fit of every ExpDP sampler (λ, γ, (δ, α), the d &gt; 2 rotation direction) against
 * its density, and the geometry of the zones (inside the convergent zone; PAST_FUTURE projection).
 */
class SamplingZoneTest {
    private static final int N = 40_000;

    /** KS distance of the sample to a CDF. */
    private static double ks(double[] xs, DoubleUnaryOperator cdf) {
        double[] s = xs.clone();
        Arrays.sort(s);
        double d = 0;
        for (int i = 0; i < s.length; i++) {
            double f = cdf.applyAsDouble(s[i]);
            d = Math.max(d, Math.max(f - (double) i / s.length, (double) (i + 1) / s.length - f));
        }
        return d;
    }

    /** CDF of ∝ exp(−r x) on [a, b], r > 0. */
    private static DoubleUnaryOperator expCdf(double r, double a, double b) {
        return x -> x <= a ? 0 : x >= b ? 1 : Math.expm1(-r * (x - a)) / Math.expm1(-r * (b - a));
    }

    @Test
    void lambdaMatchesItsDensity() {
        PrivacyRandom r = TestRandoms.stream("expdp-lambda");
        double[] xs = new double[N];
        for (int i = 0; i < N; i++) {
            xs[i] = SamplingZone.sampleLambda(r);
        }
        assertTrue(ks(xs, expCdf(2, 0.5, 1)) < StatsUtil.ksCritical(N));
        assertTrue(
                ks(xs, x -> (x - 0.5) / 0.5) > StatsUtil.ksCritical(N),
                "the test must reject the uniform density");
    }

    @Test
    void gammaMatchesItsDensityAsTheRotationAngleOfThePastController() {
        PrivacyRandom r = TestRandoms.stream("expdp-gamma");
        double[] prev = {0.1, 0.2, 0.3};
        double[] mean = {0.4, 0.1, 0.5};
        double[] y = new double[3];
        for (int j = 0; j < 3; j++) {
            y[j] = 2 * mean[j] - prev[j];
        }
        double[] angles = new double[N];
        for (int i = 0; i < N; i++) {
            SamplingZone z = SamplingZone.past(prev, mean, r);
            angles[i] = angle(mean, y, z.controller());
        }
        assertTrue(ks(angles, expCdf(2 / Math.PI, 0, Math.PI / 2)) < StatsUtil.ksCritical(N));
        assertTrue(ks(angles, x -> x / (Math.PI / 2)) > StatsUtil.ksCritical(N));
    }

    /** Angle at {@code o} between a − o and b − o. */
    private static double angle(double[] o, double[] a, double[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int j = 0; j < o.length; j++) {
            dot += (a[j] - o[j]) * (b[j] - o[j]);
            na += (a[j] - o[j]) * (a[j] - o[j]);
            nb += (b[j] - o[j]) * (b[j] - o[j]);
        }
        return Math.acos(Math.max(-1, Math.min(1, dot / Math.sqrt(na * nb))));
    }

    /**
     * Expected (δ, |α|) bin probabilities of the target density, by numerical integration over α.
     */
    private static double[] expected(SamplingZone z, double eps, int aBins, int dBins) {
        double aMax = z.maxAngle();
        double lo = 2 * z.lambda() - 1;
        double[] p = new double[aBins * dBins];
        int steps = 4000;
        double total = 0;
        for (int s = 0; s < steps; s++) {
            double a = (s + 0.5) / steps * aMax;
            int ab = Math.min(aBins - 1, (int) (a / aMax * aBins));
            double[] ch = z.chord(a);
            for (int b = 0; b < dBins; b++) {
                double bl = lo + (1 - lo) * b / dBins;
                double bh = lo + (1 - lo) * (b + 1) / dBins;
                double m =
                        Math.exp(-eps * a / (2 * Math.PI))
                                * SamplingZone.exponentialMass(
                                        eps / 4, Math.max(ch[0], bl), Math.min(ch[1], bh));
                p[ab * dBins + b] += m;
                total += m;
            }
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= total;
        }
        return p;
    }

    private static double chiSquare(long[] obs, double[] prob) {
        double s = 0;
        for (int i = 0; i < obs.length; i++) {
            if (prob[i] * N >= 5) {
                s += Math.pow(obs[i] - prob[i] * N, 2) / (prob[i] * N);
            }
        }
        return s;
    }

    @Test
    void deltaAlphaMatchTheirDensityInTwoAndFiveDimensions() {
        double eps = 12; // far from flat, so a wrong density is detectable
        for (int d : new int[] {2, 5}) {
            double[] mean = new double[d];
            double[] x = new double[d];
            x[0] = 1;
            double lambda = 0.6;
            double[] centre = new double[d];
            centre[0] = lambda;
            SamplingZone z = new SamplingZone(mean, x, lambda, centre, 1 - lambda, 1.0, false);
            int aBins = 6;
            int dBins = 6;
            long[] obs = new long[aBins * dBins];
            PrivacyRandom r = TestRandoms.stream("expdp-delta-alpha-" + d);
            double lo = 2 * lambda - 1;
            double aMax = z.maxAngle();
            for (int i = 0; i < N; i++) {
                double[] s = z.sample(eps, r);
                double delta = SamplingZone.distance(s, mean);
                double a = angle(mean, x, s);
                assertTrue(
                        SamplingZone.distance(s, centre) <= z.radius() + 1e-12, "outside the zone");
                int ab = Math.min(aBins - 1, (int) (a / aMax * aBins));
                int db = Math.min(dBins - 1, (int) ((delta - lo) / (1 - lo) * dBins));
                obs[ab * dBins + db]++;
            }
            int df = aBins * dBins - 1;
            double fit = chiSquare(obs, expected(z, eps, aBins, dBins));
            assertTrue(fit < StatsUtil.chiSquareCritical(df), "d=" + d + ": chi2=" + fit);
            double wrong = chiSquare(obs, expected(z, 0, aBins, dBins));
            assertTrue(
                    wrong > StatsUtil.chiSquareCritical(df),
                    "the flat density must be rejected, chi2=" + wrong);
        }
    }

    @Test
    void rotationDirectionIsUniformAroundTheAxisInThreeDimensions() {
        double[] u = {0, 0, 1};
        PrivacyRandom r = TestRandoms.stream("expdp-direction");
        double[] phi = new double[N];
        for (int i = 0; i < N; i++) {
            double[] v = SamplingZone.orthogonalUnit(u, r);
            assertEquals(0, v[2], 1e-12);
            assertEquals(1, Math.hypot(v[0], v[1]), 1e-12);
            phi[i] = Math.atan2(v[1], v[0]);
        }
        assertTrue(ks(phi, p -> (p + Math.PI) / (2 * Math.PI)) < StatsUtil.ksCritical(N));
    }

    @Test
    void everyPastZoneLiesInsideTheConvergentZone() {
        PrivacyRandom r = TestRandoms.stream("expdp-past-property");
        for (int trial = 0; trial < 5000; trial++) {
            int d = 1 + (int) r.nextLong(6);
            double scale = Math.pow(10, -3 + 4 * r.nextDouble());
            double[] prev = new double[d];
            double[] mean = new double[d];
            for (int j = 0; j < d; j++) {
                prev[j] = scale * (r.nextDouble() - 0.5);
                mean[j] = scale * (r.nextDouble() - 0.5);
            }
            SamplingZone z = SamplingZone.past(prev, mean, r);
            double big = z.convergentRadius();
            assertEquals(SamplingZone.distance(prev, mean), big, 1e-12 * scale);
            assertEquals(big, z.controllerDistance(), 1e-9 * big, "X is on the border");
            assertTrue(
                    SamplingZone.distance(z.centre(), mean) + z.radius() <= big * (1 + 1e-12),
                    "zone inside");
            assertTrue(z.lambda() >= 0.5 && z.lambda() <= 1);
            double[] s = z.sample(0.1 + 10 * r.nextDouble(), r);
            assertTrue(
                    SamplingZone.distance(s, mean) <= big * (1 + 1e-12),
                    "draw inside the convergent zone");
            assertFalse(z.projected());
        }
    }

    @Test
    void pastFutureProjectsAControllerOutsideTheConvergentZoneOntoItsBorder() {
        PrivacyRandom r = TestRandoms.stream("expdp-future-property");
        int projected = 0;
        for (int trial = 0; trial < 5000; trial++) {
            int d = 1 + (int) r.nextLong(6);
            double[] prev = new double[d];
            double[] mean = new double[d];
            double[] future = new double[d];
            for (int j = 0; j < d; j++) {
                prev[j] = r.nextDouble();
                mean[j] = r.nextDouble();
                future[j] = r.nextDouble();
            }
            SamplingZone z = SamplingZone.pastFuture(prev, mean, future, r);
            double big = SamplingZone.distance(prev, mean);
            double len = SamplingZone.distance(future, mean);
            assertEquals(len > big, z.projected());
            if (z.projected()) {
                projected++;
                assertEquals(big, z.controllerDistance(), 1e-12 * big, "projected onto the border");
                assertTrue(
                        angle(mean, future, z.controller()) < 1e-6,
                        "projected along the ray to S^(t+1)");
            } else {
                assertTrue(Arrays.equals(future, z.controller()), "X inside the zone is kept");
            }
            assertTrue(
                    SamplingZone.distance(z.centre(), mean) + z.radius() <= big * (1 + 1e-12),
                    "zone inside");
            double[] s = z.sample(1.0, r);
            assertTrue(
                    SamplingZone.distance(s, mean) <= big * (1 + 1e-12),
                    "draw inside the convergent zone");
        }
        assertTrue(
                projected > 1000,
                "the property test must exercise the projection, got " + projected);
    }

    @Test
    void massRatioIsTheQuotientOfTheMassesAndStaysDefinedWhereBothUnderflow() {
        SamplingZone z =
                new SamplingZone(
                        new double[] {0, 0},
                        new double[] {1, 0},
                        0.9,
                        new double[] {0.9, 0},
                        0.1,
                        1.0,
                        false);
        double[] chord0 = z.chord(0);
        double alpha = 0.5 * z.maxAngle();
        double[] chord = z.chord(alpha);
        double c = 3.0;
        assertEquals(
                SamplingZone.exponentialMass(c, chord[0], chord[1])
                        / SamplingZone.exponentialMass(c, chord0[0], chord0[1]),
                SamplingZone.massRatio(c, chord, chord0),
                1e-12);
        double huge = 1e5; // e^{-c·0.8} underflows: both masses are 0
        assertEquals(0.0, SamplingZone.exponentialMass(huge, chord0[0], chord0[1]));
        assertEquals(1.0, SamplingZone.massRatio(huge, chord0, chord0), 1e-12);
        double r = SamplingZone.massRatio(huge, chord, chord0);
        assertTrue(r >= 0 && r <= 1, "ratio " + r);
    }

    @Test
    void theDrawTerminatesInsideTheZoneAtAVeryLargeEpsilon() {
        PrivacyRandom r = TestRandoms.stream("expdp-large-epsilon");
        for (double eps : new double[] {1e4, 1e6, 1e9}) {
            for (int i = 0; i < 200; i++) {
                SamplingZone z = SamplingZone.past(new double[] {0, 0}, new double[] {3, 4}, r);
                double[] s =
                        assertTimeoutPreemptively(
                                Duration.ofSeconds(10), () -> z.sample(eps, r), "eps " + eps);
                double dist = Math.hypot(s[0] - z.centre()[0], s[1] - z.centre()[1]);
                assertTrue(dist <= z.radius() * (1 + 1e-9) + 1e-12, "outside the zone: " + dist);
            }
        }
    }
}
