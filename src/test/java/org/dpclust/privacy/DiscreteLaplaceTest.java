package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.privacy.testing.StatsUtil;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class DiscreteLaplaceTest {
    /**
     * Mean 0 and variance 2q/(1-q)^2 with q = e^{-s/t}. Tolerances are 5 standard errors: the
     * sample mean has sd sqrt(Var/n); the sample variance has sd sqrt((m4 - Var^2)/n) with the
     * exact fourth moment m4 = 2q(1 + 10q + q^2)/(1-q)^4 of the two-sided geometric.
     */
    @Test
    void meanAndVarianceMatch() {
        long[][] params = {
            {1, 1}, {3, 1}, {10, 3}, {1, 4}, {1L << 40, 1L << 38}, {(1L << 41) + 12345, 7}
        };
        PrivacyRandom r = TestRandoms.stream("dlap-moments");
        int n = 100_000;
        for (long[] p : params) {
            long t = p[0];
            long s = p[1];
            double q = Math.exp(-(double) s / t);
            double var = 2 * q / ((1 - q) * (1 - q));
            double m4 = 2 * q * (1 + 10 * q + q * q) / Math.pow(1 - q, 4);
            double sum = 0;
            double sumSq = 0;
            for (int i = 0; i < n; i++) {
                double y = DiscreteLaplace.sample(r, t, s);
                sum += y;
                sumSq += y * y;
            }
            double mean = sum / n;
            double sampleVar = sumSq / n - mean * mean;
            String label = "t=" + t + " s=" + s;
            assertEquals(0, mean, 5 * Math.sqrt(var / n), label + " mean");
            assertEquals(var, sampleVar, 5 * Math.sqrt((m4 - var * var) / n), label + " variance");
        }
    }

    /** Exact pmf P(y) = (1-q)/(1+q) q^|y| by chi-square over -8..8 plus two tail cells. */
    @Test
    void pmfMatchesByChiSquare() {
        long t = 3;
        long s = 2;
        double q = Math.exp(-(double) s / t);
        int n = 200_000;
        long[] counts = new long[19];
        double[] exp = new double[19];
        PrivacyRandom r = TestRandoms.stream("dlap-pmf");
        for (int i = 0; i < n; i++) {
            long y = DiscreteLaplace.sample(r, t, s);
            counts[y < -8 ? 0 : y > 8 ? 18 : (int) y + 9]++;
        }
        double c = (1 - q) / (1 + q);
        for (int y = -8; y <= 8; y++) {
            exp[y + 9] = n * c * Math.pow(q, Math.abs(y));
        }
        double tail = n * c * Math.pow(q, 9) / (1 - q);
        exp[0] = tail;
        exp[18] = tail;
        double chi = StatsUtil.chiSquare(counts, exp);
        assertTrue(chi < StatsUtil.chiSquareCritical(18), "chi2 " + chi);
    }

    @Test
    void exactBernoulliOfExpMinusGamma() {
        PrivacyRandom r = TestRandoms.stream("bern-exp");
        int n = 200_000;
        int one = 0;
        int third = 0;
        int zero = 0;
        int full = 0;
        for (int i = 0; i < n; i++) {
            one += DiscreteLaplace.bernoulliExpMinusOne(r) ? 1 : 0;
            third += DiscreteLaplace.bernoulliExpMinusRational(r, 1, 3) ? 1 : 0;
            zero += DiscreteLaplace.bernoulliExpMinusRational(r, 0, 5) ? 1 : 0;
            full += DiscreteLaplace.bernoulliExpMinusRational(r, 7, 7) ? 1 : 0;
        }
        checkRate(Math.exp(-1), one, n);
        checkRate(Math.exp(-1.0 / 3), third, n);
        checkRate(Math.exp(-1), full, n);
        assertEquals(n, zero);
    }

    private static void checkRate(double p, int k, int n) {
        assertEquals(p, (double) k / n, 5 * Math.sqrt(p * (1 - p) / n));
    }

    @Test
    void rejectsInvalidParameters() {
        PrivacyRandom r = TestRandoms.stream("dlap-args");
        assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.sample(r, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.sample(r, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.sample(r, 1L << 62, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> DiscreteLaplace.bernoulliExpMinusRational(r, 4, 3));
    }

    @Test
    void hugeScaleSaturatesInsteadOfOverflowing() {
        PrivacyRandom r = TestRandoms.stream("dlap-huge");
        boolean sawLarge = false;
        for (int i = 0; i < 2000; i++) {
            long y = DiscreteLaplace.sample(r, (1L << 62) - 1, 1);
            assertTrue(y != Long.MIN_VALUE);
            sawLarge |= Math.abs(y) > (1L << 62);
        }
        assertTrue(sawLarge, "values beyond 2^62 expected at scale ~2^62");
    }

    /**
     * A draw beyond the long range is kept exactly (for the Gaussian's acceptance) and returned
     * modulo 2^64, never saturated: added modulo 2^64, a saturated sample would give the private
     * value away (f(D) = output − Long.MAX_VALUE).
     */
    @Test
    void aDrawBeyondTheLongRangeIsExactModulo2To64() {
        long t = 1L << 61;
        java.math.BigInteger exact = DiscreteLaplace.floorDivExact(5, t, 8, 1); // 2^64 + 5
        assertEquals(
                java.math.BigInteger.ONE.shiftLeft(64).add(java.math.BigInteger.valueOf(5)), exact);
        assertEquals(5L, exact.longValue());
        assertEquals(
                java.math.BigInteger.ONE.shiftLeft(63).add(java.math.BigInteger.ONE),
                DiscreteLaplace.floorDivExact(3, t, 8, 2)); // (2^64 + 3) / 2
        assertEquals(null, DiscreteLaplace.floorDivExact(5, 1000, 8, 3), "small: long path");
    }
}
