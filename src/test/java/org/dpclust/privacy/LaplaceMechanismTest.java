package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class LaplaceMechanismTest {
    private static final DpTester.Options O = DpTester.Options.defaults();

    @Test
    void outputsAreMultiplesOfTheGranularity() {
        PrivacyRandom r = TestRandoms.stream("lap-grid");
        double[][] cases = {
            {0.3, 1, 1}, {1234.5678, 0.01, 0.5}, {-7.25, 3.3, 0.1}, {1e-9, 1e-6, 2}
        };
        for (double[] c : cases) {
            double g = LaplaceMechanism.granularity(c[1], c[2]);
            assertEquals(
                    0,
                    Long.bitCount(Double.doubleToLongBits(g) & 0x000fffffffffffffL),
                    "power of 2");
            double b = c[1] / c[2];
            assertTrue(g <= b * 0x1.0p-40 && g > b * 0x1.0p-41, "g=" + g + " b=" + b);
            for (int i = 0; i < 200; i++) {
                double o = LaplaceMechanism.addNoise(c[0], c[1], c[2], r);
                double k = o / g;
                assertEquals(Math.rint(k), k, 0.0, "output " + o + " not a multiple of " + g);
            }
            double[] v = LaplaceMechanism.addNoise(new double[] {c[0], -c[0], 0}, c[1], c[2], r);
            for (double o : v) {
                assertEquals(Math.rint(o / g), o / g, 0.0);
            }
        }
    }

    @Test
    void effectiveScaleIsAtLeastSensitivityOverEpsilon() {
        double[] sens = {1, 0.3, 1e-6, 12345.678, 3.0};
        double[] eps = {1, 0.1, 0.7, 1e-3, 5};
        for (double s : sens) {
            for (double e : eps) {
                for (int dim : new int[] {1, 3, 1000}) {
                    double sc = LaplaceMechanism.scale(s, e, dim);
                    assertTrue(sc >= s / e, s + "/" + e + " dim " + dim + ": " + sc);
                    // Excess in grid units (g <= b 2^-40): (ceil(s/g) + dim)/e, then ceil of that:
                    // at most
                    // (dim + 1)/e + 1 units, i.e. relative <= ((dim + 1)/e + 1) 2^-40.
                    assertTrue(
                            sc <= (s / e) * (1 + ((dim + 1) / e + 1) * 0x1.0p-40 + 0x1.0p-50),
                            "not wasteful: " + sc);
                }
            }
        }
    }

    @Test
    void rejectsBadParametersNamingThem() {
        PrivacyRandom r = TestRandoms.stream("lap-args");
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> LaplaceMechanism.addNoise(Double.NaN, 1, 1, r))
                        .getMessage()
                        .contains("finite"));
        assertThrows(
                IllegalArgumentException.class,
                () -> LaplaceMechanism.addNoise(Double.POSITIVE_INFINITY, 1, 1, r));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> LaplaceMechanism.addNoise(1, 0, 1, r))
                        .getMessage()
                        .contains("sensitivity"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> LaplaceMechanism.addNoise(1, 1, -1, r))
                        .getMessage()
                        .contains("epsilon"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> LaplaceMechanism.addNoise(1, Double.NaN, 1, r))
                        .getMessage()
                        .contains("sensitivity"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        LaplaceMechanism.addNoise(
                                                new double[] {1, Double.NaN}, 1, 1, r))
                        .getMessage()
                        .contains("values[1]"));
    }

    @Test
    void hugeValuesAreClampedNotWrapped() {
        PrivacyRandom r = TestRandoms.stream("lap-clamp");
        double g = LaplaceMechanism.granularity(1, 1);
        double clamp = 0x1.0p62 * g;
        for (double x : new double[] {1e300, -1e300, 1e7}) {
            double o = LaplaceMechanism.addNoise(x, 1, 1, r);
            assertEquals(Math.signum(x), Math.signum(o));
            assertEquals(Math.min(Math.abs(x), clamp), Math.abs(o), 50, "x=" + x);
        }
    }

    /** A replayed release (same context) gets identical noise; different contents do not. */
    @Test
    void replayGetsIdenticalNoiseAndOtherContentsIndependentNoise() {
        byte[] digest = new AccumulatorDigest().add(new double[] {1.0, 2.0}).add(3L).digest();
        ReleaseContext c = new ReleaseContext("s", 60_000, "dp-kmeans", "laplace", digest);
        double[] x = {1.0, 2.0};
        double[] first =
                LaplaceMechanism.addNoise(x, 1, 1, PrivacyRandom.forRelease(TestRandoms.SECRET, c));
        double[] replay =
                LaplaceMechanism.addNoise(x, 1, 1, PrivacyRandom.forRelease(TestRandoms.SECRET, c));
        org.junit.jupiter.api.Assertions.assertArrayEquals(first, replay, 0.0);
        byte[] other = new AccumulatorDigest().add(new double[] {1.0, 2.5}).add(3L).digest();
        ReleaseContext c2 = new ReleaseContext("s", 60_000, "dp-kmeans", "laplace", other);
        double[] o2 =
                LaplaceMechanism.addNoise(
                        x, 1, 1, PrivacyRandom.forRelease(TestRandoms.SECRET, c2));
        assertFalse(java.util.Arrays.equals(first, o2));
    }
}
