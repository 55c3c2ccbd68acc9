package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.junit.jupiter.api.Test;

/**
 * James–Stein shrinkage lowers a noisy centroid's expected squared error where the noise is large
 * against its distance from the target, barely moves it where the noise is small, and never acts in
 * two dimensions or without noise (fixed seeds).
 */
class CentroidShrinkageTest {

    @Test
    void leavesTwoDimensionsNoiselessEstimatesAndTheTargetItselfAlone() {
        DomainBounds two = box(2, 1);
        double[] c = {0.9, 0.1};
        double[] t = {0.5, 0.5};
        assertEquals(1.0, CentroidShrinkage.factor(c, t, 10.0, two));
        assertArrayEquals(c, CentroidShrinkage.shrink(c, t, 10.0, two));
        DomainBounds ten = box(10, 1);
        double[] c10 = new double[10];
        Arrays.fill(c10, 0.7);
        double[] t10 = new double[10];
        Arrays.fill(t10, 0.5);
        assertEquals(1.0, CentroidShrinkage.factor(c10, t10, 0.0, ten));
        assertEquals(1.0, CentroidShrinkage.factor(c10, t10, Double.NaN, ten));
        assertEquals(1.0, CentroidShrinkage.factor(t10, t10, 1.0, ten));
        assertEquals(0.0, CentroidShrinkage.factor(c10, t10, 1.0, ten), "(1 − 8·1/0.4)₊ = 0");
    }

    @Test
    void theFactorIsComputedInUnitBoxCoordinates() {
        // the same offset in a box 10 times wider is 10 times smaller in box widths
        double[] c = {7, 7, 7, 7};
        double[] t = {5, 5, 5, 5};
        double inUnits = CentroidShrinkage.factor(4, 4 * 0.2 * 0.2, 0.01);
        assertEquals(inUnits, CentroidShrinkage.factor(c, t, 0.01, box(4, 10)), 1e-12);
        assertEquals(1 - 2 * 0.01 / 0.16, inUnits, 1e-12);
    }

    @Test
    void lowersTheExpectedSquaredErrorOfALargeNoiseMeanInHighDimension() {
        int d = 50;
        DomainBounds b = box(d, 1);
        SplittableRandom r = new SplittableRandom(36);
        double[] mu = randomMean(d, r);
        double[] target = centre(d);
        for (boolean laplace : new boolean[] {false, true}) {
            double v = 0.04; // noise sd 0.2 box widths per coordinate: ‖noise‖² ≈ 2 vs ‖μ − t‖² ≈ 2
            double raw = 0, shrunk = 0;
            int trials = 4_000;
            for (int t = 0; t < trials; t++) {
                double[] x = noisy(mu, v, laplace, r);
                raw += dist2(x, mu);
                shrunk += dist2(CentroidShrinkage.shrink(x, target, v, b), mu);
            }
            // Gaussian theory: risk ≈ d·v·(1 − (d − 2)·v/E‖x − t‖²) ≈ 2·(1 − 0.48) here
            assertTrue(
                    shrunk < 0.65 * raw,
                    (laplace ? "Laplace" : "Gaussian")
                            + ": shrunk "
                            + shrunk / trials
                            + " vs raw "
                            + raw / trials);
        }
    }

    @Test
    void barelyMovesASmallNoiseMean() {
        int d = 20;
        DomainBounds b = box(d, 1);
        SplittableRandom r = new SplittableRandom(37);
        double[] mu = randomMean(d, r);
        double[] target = centre(d);
        double v = 1e-6;
        double raw = 0, shrunk = 0;
        for (int t = 0; t < 2_000; t++) {
            double[] x = noisy(mu, v, false, r);
            assertTrue(CentroidShrinkage.factor(x, target, v, b) > 0.999);
            raw += dist2(x, mu);
            shrunk += dist2(CentroidShrinkage.shrink(x, target, v, b), mu);
        }
        assertTrue(shrunk <= raw * 1.01, "shrunk " + shrunk + " vs raw " + raw);
    }

    /** A mean uniform in [0.15, 0.85]^d. */
    private static double[] randomMean(int d, SplittableRandom r) {
        double[] mu = new double[d];
        for (int j = 0; j < d; j++) {
            mu[j] = 0.15 + 0.7 * r.nextDouble();
        }
        return mu;
    }

    /** The unit box's centre. */
    private static double[] centre(int d) {
        double[] t = new double[d];
        Arrays.fill(t, 0.5);
        return t;
    }

    private static double[] noisy(double[] mu, double v, boolean laplace, SplittableRandom r) {
        double[] x = mu.clone();
        for (int j = 0; j < x.length; j++) {
            if (laplace) {
                double e = -Math.log(1 - r.nextDouble()) * Math.sqrt(v / 2);
                x[j] += r.nextBoolean() ? e : -e;
            } else {
                x[j] += gaussian(r) * Math.sqrt(v);
            }
        }
        return x;
    }

    private static double gaussian(SplittableRandom r) {
        double u1 = 1 - r.nextDouble(), u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    private static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return s;
    }

    private static DomainBounds box(int d, double width) {
        double[] lo = new double[d], hi = new double[d];
        Arrays.fill(hi, width);
        return new DomainBounds(lo, hi);
    }
}
