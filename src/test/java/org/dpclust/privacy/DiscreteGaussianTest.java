package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.dpclust.privacy.testing.StatsUtil;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class DiscreteGaussianTest {
    private static final int N = 100_000;

    /**
     * Chi-square of N samples against the exact pmf e^{-y²/2σ²}/Z (computed here independently in
     * double over |y| <= 40σ + 40), with consecutive integers merged into bins of expected mass >=
     * 1/60 and two tail bins, at tail probability 1e-4. Fixed seeds per σ².
     */
    private static double[] chiSquare(BigInteger num, BigInteger den, LongSupplier draw) {
        double s2 = num.doubleValue() / den.doubleValue();
        int k = (int) Math.ceil(40 * Math.sqrt(s2)) + 40;
        double[] pmf = new double[2 * k + 1];
        double z = 0;
        for (int y = -k; y <= k; y++) {
            pmf[y + k] = Math.exp(-(double) y * y / (2 * s2));
            z += pmf[y + k];
        }
        // bins: [lo_i, hi_i] over integers, each of mass >= 1/60
        List<int[]> bins = new ArrayList<>();
        List<Double> mass = new ArrayList<>();
        int start = -k;
        double acc = 0;
        for (int y = -k; y <= k; y++) {
            acc += pmf[y + k] / z;
            if (acc >= 1.0 / 60 || y == k) {
                bins.add(new int[] {start, y});
                mass.add(acc);
                start = y + 1;
                acc = 0;
            }
        }
        long[] obs = new long[bins.size()];
        double[] exp = new double[bins.size()];
        for (int i = 0; i < N; i++) {
            long y = draw.getAsLong();
            int b = 0;
            while (b < bins.size() - 1 && y > bins.get(b)[1]) {
                b++;
            }
            obs[b]++;
        }
        for (int b = 0; b < exp.length; b++) {
            exp[b] = mass.get(b) * N;
        }
        return new double[] {
            StatsUtil.chiSquare(obs, exp), StatsUtil.chiSquareCritical(bins.size() - 1)
        };
    }

    @Test
    void pmfMatchesByChiSquareForSmallAndLargeVariances() {
        long[][] params = {{1, 2}, {7, 3}, {10, 1}, {1_000_000, 1}, {123_456_789_012L, 1000}};
        for (long[] p : params) {
            BigInteger num = BigInteger.valueOf(p[0]);
            BigInteger den = BigInteger.valueOf(p[1]);
            PrivacyRandom r = TestRandoms.stream("dgauss-pmf/" + p[0] + "/" + p[1]);
            double[] c = chiSquare(num, den, () -> DiscreteGaussian.sample(r, num, den));
            System.out.printf(
                    java.util.Locale.ROOT,
                    "discrete Gaussian sigma^2=%d/%d: chi2 %.1f, critical %.1f%n",
                    p[0],
                    p[1],
                    c[0],
                    c[1]);
            assertTrue(
                    c[0] < c[1], "sigma^2=" + p[0] + "/" + p[1] + ": chi2 " + c[0] + " >= " + c[1]);
        }
    }

    /** The harness has power: discrete Laplace of the same variance is rejected. */
    @Test
    void chiSquareRejectsALaplaceOfTheSameVariance() {
        // discrete Laplace scale t/s with q = e^{-s/t}: variance 2q/(1-q)^2; t = 3, s = 2 gives
        // 4.34
        PrivacyRandom r = TestRandoms.stream("dgauss-pmf/control");
        BigInteger num = BigInteger.valueOf(13);
        BigInteger den = BigInteger.valueOf(3);
        double[] c = chiSquare(num, den, () -> DiscreteLaplace.sample(r, 3, 2));
        assertTrue(c[0] > c[1], "control chi2 " + c[0] + " <= " + c[1]);
    }

    @Test
    void doubleVarianceIsConvertedExactly() {
        BigInteger[] r = DiscreteGaussian.exactRational(0.1);
        // 0.1 as a double is 3602879701896397 / 2^55
        BigInteger g = BigInteger.valueOf(3602879701896397L);
        BigInteger d = BigInteger.ONE.shiftLeft(55);
        assertTrue(r[0].multiply(d).equals(g.multiply(r[1])), r[0] + "/" + r[1]);
        assertArrayEquals(
                new BigInteger[] {BigInteger.valueOf(6), BigInteger.ONE},
                DiscreteGaussian.exactRational(6.0));
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.exactRational(0));
        assertThrows(
                IllegalArgumentException.class,
                () -> DiscreteGaussian.exactRational(Double.POSITIVE_INFINITY));
    }

    @Test
    void sameStreamSameSamples() {
        PrivacyRandom a = TestRandoms.stream("dgauss-det");
        PrivacyRandom b = TestRandoms.stream("dgauss-det");
        for (int i = 0; i < 100; i++) {
            assertTrue(DiscreteGaussian.sample(a, 2.5) == DiscreteGaussian.sample(b, 2.5));
        }
    }

    @Test
    void uniformBelowIsInRangeAndCoversBothHalves() {
        PrivacyRandom r = TestRandoms.stream("dgauss-uniform");
        BigInteger bound = BigInteger.ONE.shiftLeft(100).add(BigInteger.valueOf(12345));
        BigInteger half = bound.shiftRight(1);
        int high = 0;
        for (int i = 0; i < 2000; i++) {
            BigInteger u = DiscreteGaussian.uniformBelow(r, bound);
            assertTrue(u.signum() >= 0 && u.compareTo(bound) < 0);
            if (u.compareTo(half) >= 0) {
                high++;
            }
        }
        assertTrue(high > 900 && high < 1100, "high half " + high);
    }
}
