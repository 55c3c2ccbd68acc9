package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void saturatesAtTheLongRange() {
        PrivacyRandom r = TestRandoms.stream("geo-sat");
        for (int i = 0; i < 100; i++) {
            long v = GeometricMechanism.addNoise(Long.MAX_VALUE - 1, 1000, 0.01, r);
            assertTrue(v > Long.MAX_VALUE - 1_000_000_000L, "no wrap-around: " + v);
        }
    }

    // --- statistical DP tests: worst-case neighbours 0 vs sensitivity -------------------------

    private static DpTester.VoteResult scalar(double epsMechanism, double epsTested, String label) {
        long l1 = 2;
        PrivacyRandom r = TestRandoms.stream(label);
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testDiscrete(
                                        () ->
                                                (int)
                                                        GeometricMechanism.addNoise(
                                                                0, l1, epsMechanism, r),
                                        () ->
                                                (int)
                                                        GeometricMechanism.addNoise(
                                                                l1, l1, epsMechanism, r),
                                        epsTested,
                                        O));
        System.out.println("GeometricMechanism scalar " + label + ": " + v.summary());
        return v;
    }

    @Test
    void scalarPassesAtCalibratedNoise() {
        assertTrue(scalar(1.0, 1.0, "geo-scalar").passedByMajority());
    }

    @Test
    void scalarFailsWithHalvedNoise() {
        assertFalse(scalar(2.0, 1.0, "geo-scalar-neg").passedByMajority());
    }

    private static DpTester.VoteResult vector(double epsMechanism, double epsTested, String label) {
        long l1 = 4;
        long[] d = {0, 0, 0, 0, 0};
        long[] dPrime = {2, 2, 0, 0, 0}; // the whole L1 sensitivity on two coordinates
        double[] dir = {2, 2, 0, 0, 0};
        PrivacyRandom r = TestRandoms.stream(label);
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testProjected(
                                        () ->
                                                toDouble(
                                                        GeometricMechanism.addNoise(
                                                                d, l1, epsMechanism, r)),
                                        () ->
                                                toDouble(
                                                        GeometricMechanism.addNoise(
                                                                dPrime, l1, epsMechanism, r)),
                                        dir,
                                        epsTested,
                                        O));
        System.out.println("GeometricMechanism vector " + label + ": " + v.summary());
        return v;
    }

    private static double[] toDouble(long[] x) {
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = x[i];
        }
        return out;
    }

    @Test
    void vectorPassesAtCalibratedNoise() {
        assertTrue(vector(1.0, 1.0, "geo-vector").passedByMajority());
    }

    @Test
    void vectorFailsWithHalvedNoise() {
        assertFalse(vector(2.0, 1.0, "geo-vector-neg").passedByMajority());
    }
}
