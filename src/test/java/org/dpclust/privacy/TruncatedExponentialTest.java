package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpclust.privacy.testing.StatsUtil;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class TruncatedExponentialTest {
    /** CDF of density ∝ e^{cx} on [a,b], in a form that does not overflow for large |c|. */
    private static double cdf(double c, double a, double b, double x) {
        if (x <= a) {
            return 0;
        }
        if (x >= b) {
            return 1;
        }
        if (c == 0) {
            return (x - a) / (b - a);
        }
        if (c < 0) {
            return Math.expm1(c * (x - a)) / Math.expm1(c * (b - a));
        }
        return Math.exp(c * (x - b)) * -Math.expm1(-c * (x - a)) / -Math.expm1(-c * (b - a));
    }

    @Test
    void matchesCdfByKolmogorovSmirnov() {
        double a = -1;
        double b = 2;
        int n = 20_000;
        PrivacyRandom r = TestRandoms.stream("trunc-exp");
        for (double c : new double[] {-3, 0, 2.5, 1e-12, -1e-9, 40, -500}) {
            double[] xs = new double[n];
            for (int i = 0; i < n; i++) {
                xs[i] = TruncatedExponential.sample(r, c, a, b);
                assertTrue(xs[i] >= a && xs[i] <= b, "c=" + c + ": " + xs[i]);
            }
            Arrays.sort(xs);
            double d = 0;
            for (int i = 0; i < n; i++) {
                double f = cdf(c, a, b, xs[i]);
                d = Math.max(d, Math.max(f - (double) i / n, (double) (i + 1) / n - f));
            }
            assertTrue(d < StatsUtil.ksCritical(n), "c=" + c + ": KS D=" + d);
        }
    }

    @Test
    void extremeRatesStayInRangeAndAtTheRightEnd() {
        PrivacyRandom r = TestRandoms.stream("trunc-exp-extreme");
        for (int i = 0; i < 1000; i++) {
            double x = TruncatedExponential.sample(r, 1e300, 0, 1);
            assertTrue(x >= 0 && x <= 1);
            assertEquals(1, x, 1e-250);
            double y = TruncatedExponential.sample(r, -1e300, 0, 1);
            assertEquals(0, y, 1e-250);
        }
        assertEquals(3.0, TruncatedExponential.sample(r, 2, 3, 3));
    }

    @Test
    void rejectsBadParameters() {
        PrivacyRandom r = TestRandoms.stream("trunc-args");
        assertThrows(
                IllegalArgumentException.class,
                () -> TruncatedExponential.sample(r, Double.NaN, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> TruncatedExponential.sample(r, 1, 2, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> TruncatedExponential.sample(r, 1, 0, Double.POSITIVE_INFINITY));
    }
}
