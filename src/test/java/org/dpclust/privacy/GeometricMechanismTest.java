package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class GeometricMechanismTest {
    private static final DpTester.Options O = DpTester.Options.defaults();

    @Test
    void scaleIsAtLeastSensitivityOverEpsilonExactlyAndTight() {
        double[] eps = {1.0, 0.1, 0.7, 1.0 / 3, 1e-3, 2.5, 1e6, Math.ulp(1.0)};
        long[] l1 = {1, 2, 3, 17, 1000, 1L << 40};
        for (double e : eps) {
            for (long d : l1) {
                GeometricMechanism.Scale sc;
                try {
                    sc = GeometricMechanism.exactScale(d, e);
                } catch (IllegalArgumentException tooLarge) {
                    assertTrue(d / e >= 0x1.0p61, d + "/" + e);
                    continue;
                }
                // t/s >= d/e  <=>  t*e >= d*s, checked exactly.
                BigDecimal lhs = BigDecimal.valueOf(sc.t()).multiply(new BigDecimal(e));
                BigDecimal rhs = BigDecimal.valueOf(d).multiply(BigDecimal.valueOf(sc.s()));
                assertTrue(lhs.compareTo(rhs) >= 0, d + "/" + e + " -> " + sc);
                assertEquals(0, Long.bitCount(sc.s()) - 1, "s is a power of two");
                double rel = sc.value() / (d / e) - 1;
                if (d / e >= 0x1.0p-22) {
                    assertTrue(rel < 0x1.0p-38, "excess noise " + rel + " for " + d + "/" + e);
                }
            }
        }
    }

    @Test
    void rejectsBadParameters() {
        PrivacyRandom r = TestRandoms.stream("geo-args");
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> GeometricMechanism.addNoise(0, 0, 1, r))
                        .getMessage()
                        .contains("l1Sensitivity"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> GeometricMechanism.addNoise(0, 1, 0, r))
                        .getMessage()
                        .contains("epsilon"));
        assertThrows(
                IllegalArgumentException.class,
                () -> GeometricMechanism.addNoise(0, 1, Double.NaN, r));
        assertThrows(
                IllegalArgumentException.class,
                () -> GeometricMechanism.addNoise(0, 1, Double.POSITIVE_INFINITY, r));
        assertThrows(
                IllegalArgumentException.class,
                () -> GeometricMechanism.addNoise(0, Long.MAX_VALUE, 1e-3, r));
    }

    /**
     * A wrapped sum is noised like any other: with the same noise, neighbours whose exact sums
     * differ by a record's value x give outputs that differ by exactly x modulo 2^64, also when the
     * record makes the caller's long sum wrap (a saturating addition would put them about 2^64
     * apart, revealing the record).
     */
    @Test
    void noisesModulo2To64SoAWrappedSumMovesByTheRecordOnly() {
        long x = 1000;
        long[] sums = {Long.MAX_VALUE - 1, Long.MAX_VALUE - 1 + x}; // the second wrapped
        for (int i = 0; i < 100; i++) {
            long without =
                    GeometricMechanism.addNoise(sums[0], x, 0.01, TestRandoms.stream("m" + i));
            long with = GeometricMechanism.addNoise(sums[1], x, 0.01, TestRandoms.stream("m" + i));
            assertEquals(x, with - without, "output moves by the record modulo 2^64");
            long[] v =
                    GeometricMechanism.addNoise(
                            new long[] {sums[0], sums[1]}, x, 0.01, TestRandoms.stream("v" + i));
            assertEquals(sums[0] - sums[1], v[0] - v[1] - noiseDifference(i), "vector version too");
        }
    }

    /** The difference of the two coordinates' noise of stream "v"+i, from exact zero inputs. */
    private static long noiseDifference(int i) {
        long[] z =
                GeometricMechanism.addNoise(new long[2], 1000, 0.01, TestRandoms.stream("v" + i));
        return z[0] - z[1];
    }
}
