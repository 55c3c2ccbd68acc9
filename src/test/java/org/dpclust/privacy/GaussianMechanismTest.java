package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class GaussianMechanismTest {
    @Test
    void varianceIsAtLeastTheCalibratedOneAndTight() {
        BigInteger[] sens = {
            BigInteger.ONE, BigInteger.valueOf(25), BigInteger.valueOf(5).pow(2).shiftLeft(62)
        };
        double[] rhos = {1e-6, 1.135e-4, 0.1, 0.5, 3};
        for (BigInteger s : sens) {
            for (double rho : rhos) {
                GaussianMechanism.Variance v = GaussianMechanism.exactVariance(s, rho);
                // exact check: num/den >= s/(2 rho)  <=>  num * 2 rho >= s * den
                BigDecimal lhs = new BigDecimal(v.num()).multiply(new BigDecimal(2 * rho));
                BigDecimal rhs = new BigDecimal(s.multiply(v.den()));
                assertTrue(lhs.compareTo(rhs) >= 0, s + " " + rho);
                double want = s.doubleValue() / (2 * rho);
                assertEquals(want, v.value(), want * 1e-12, s + " " + rho);
                assertEquals(rho, v.rho(s), rho * 1e-12);
            }
        }
    }

    @Test
    void noiseVarianceMatchesSigmaSquared() {
        PrivacyRandom r = TestRandoms.stream("gauss-mech-var");
        BigInteger s = BigInteger.valueOf(2);
        double rho = 0.01; // sigma^2 = 2/0.02 = 100
        int n = 50_000;
        long[] zeros = new long[n];
        long[] o = GaussianMechanism.addNoise(zeros, s, rho, r);
        double ss = 0;
        for (long x : o) {
            ss += (double) x * x;
        }
        // sample variance of N(0,100) has sd 100*sqrt(2/n) = 0.63; 5 sd
        assertEquals(100, ss / n, 3.2);
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMechanism.exactVariance(BigInteger.ZERO, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMechanism.exactVariance(BigInteger.ONE, 0));
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMechanism.exactVariance(BigInteger.ONE, Double.NaN));
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMechanism.exactVariance(BigInteger.ONE.shiftLeft(200), 1e-3));
        assertThrows(
                IllegalArgumentException.class, () -> GaussianMechanism.addNoise(1, 1, 1, null));
    }

    /** As the geometric mechanism: modulo 2^64, so a wrapped sum moves by the record only. */
    @Test
    void noisesModulo2To64SoAWrappedSumMovesByTheRecordOnly() {
        long x = 1000;
        for (int i = 0; i < 100; i++) {
            long without =
                    GaussianMechanism.addNoise(
                            Long.MAX_VALUE - 1, x, 0.5, TestRandoms.stream("g" + i));
            long with =
                    GaussianMechanism.addNoise(
                            Long.MAX_VALUE - 1 + x, x, 0.5, TestRandoms.stream("g" + i));
            assertEquals(x, with - without, "output moves by the record modulo 2^64");
        }
    }
}
