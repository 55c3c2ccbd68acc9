package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.StatsUtil;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class ExponentialMechanismTest {
    private static final DpTester.Options O = DpTester.Options.defaults();

    @Test
    void frequenciesMatchExponentialWeights() {
        double[] u = {0, 1, 2, 0.5, -1.25};
        double sens = 1;
        double eps = 1.5;
        int n = 200_000;
        PrivacyRandom r = TestRandoms.stream("em-freq");
        long[] counts = new long[u.length];
        for (int i = 0; i < n; i++) {
            counts[ExponentialMechanism.select(u, sens, eps, r)]++;
        }
        double z = Arrays.stream(u).map(x -> Math.exp(eps * x / (2 * sens))).sum();
        double[] exp = Arrays.stream(u).map(x -> n * Math.exp(eps * x / (2 * sens)) / z).toArray();
        double chi = StatsUtil.chiSquare(counts, exp);
        assertTrue(
                chi < StatsUtil.chiSquareCritical(u.length - 1),
                "chi2 " + chi + " " + Arrays.toString(counts));
    }

    @Test
    void selectMinimizingPrefersLowCost() {
        PrivacyRandom r = TestRandoms.stream("em-min");
        double[] costs = {5, 1e6, 1e6};
        for (int i = 0; i < 200; i++) {
            assertEquals(0, ExponentialMechanism.selectMinimizing(costs, 1, 1, r));
        }
    }

    @Test
    void hugeGapsAreExactAndFast() {
        // gamma = gap * rate has a large integer part: acceptance exp(-5e5) is never hit.
        PrivacyRandom r = TestRandoms.stream("em-gap");
        for (int i = 0; i < 1000; i++) {
            assertEquals(1, ExponentialMechanism.select(new double[] {0, 1e6}, 1, 1, r));
        }
        // gap of 2^61 - 1 grid units, the largest allowed
        assertTrue(ExponentialMechanism.acceptExpMinus(r, 0, Long.MAX_VALUE));
        assertFalse(ExponentialMechanism.acceptExpMinus(r, (1L << 62) - 1, Long.MAX_VALUE));
    }

    @Test
    void acceptanceProbabilityIsExactForFractionalGamma() {
        // d * a / 2^62 = 3 * 2^60 / 2^62 = 0.75
        PrivacyRandom r = TestRandoms.stream("em-accept");
        int n = 200_000;
        int k = 0;
        int k2 = 0;
        for (int i = 0; i < n; i++) {
            k += ExponentialMechanism.acceptExpMinus(r, 3, 1L << 60) ? 1 : 0;
            k2 += ExponentialMechanism.acceptExpMinus(r, 5, 1L << 61) ? 1 : 0; // gamma = 2.5
        }
        double p = Math.exp(-0.75);
        assertEquals(p, (double) k / n, 5 * Math.sqrt(p * (1 - p) / n));
        double p2 = Math.exp(-2.5);
        assertEquals(p2, (double) k2 / n, 5 * Math.sqrt(p2 * (1 - p2) / n));
    }

    @Test
    void effectiveEpsilonIsAtMostEpsilonAndClose() {
        for (double s : new double[] {1, 0.3, 7.77, 1e-5, 1e5}) {
            for (double e : new double[] {1, 0.1, 0.7, 3}) {
                double eff = ExponentialMechanism.effectiveEpsilon(s, e);
                assertTrue(eff <= e, s + "/" + e + ": " + eff);
                assertTrue(eff >= e * (1 - 0x1.0p-18), s + "/" + e + ": " + eff);
            }
        }
    }

    @Test
    void rejectsBadInputsNamingThem() {
        PrivacyRandom r = TestRandoms.stream("em-args");
        assertThrows(
                IllegalArgumentException.class,
                () -> ExponentialMechanism.select(new double[0], 1, 1, r));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        ExponentialMechanism.select(
                                                new double[] {0, Double.NaN}, 1, 1, r))
                        .getMessage()
                        .contains("utilities[1]"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ExponentialMechanism.select(new double[] {0, 1e300}, 1, 1, r))
                        .getMessage()
                        .contains("2^61"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ExponentialMechanism.select(new double[] {0}, 0, 1, r))
                        .getMessage()
                        .contains("sensitivity"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        ExponentialMechanism.select(
                                                new double[] {0}, 1, Double.NaN, r))
                        .getMessage()
                        .contains("epsilon"));
    }
}
