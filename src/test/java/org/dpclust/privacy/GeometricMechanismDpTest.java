package org.dpclust.privacy;

import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP tests of {@link GeometricMechanism} (tier {@code dp}) on worst-case neighbours: a
 * scalar at 0 versus its sensitivity, and a vector whose whole L1 sensitivity sits on two
 * coordinates (projected onto the difference: the other coordinates' noise is orthogonal to it).
 */
@Tag("dp")
class GeometricMechanismDpTest {
    @Test
    void scalarPassesCalibratedAndFailsWithHalvedNoise() {
        long l1 = 2;
        DpTester.assertCalibratedPassesAndHalvedFails(
                "geometric-scalar",
                1.0,
                1.0,
                DpTester.Options.defaults(),
                true,
                (neighbour, eps, rng) ->
                        GeometricMechanism.addNoise(neighbour ? l1 : 0, l1, eps, rng));
    }

    @Test
    void vectorPassesCalibratedAndFailsWithHalvedNoise() {
        long l1 = 4;
        long[] d = {0, 0, 0, 0, 0};
        long[] dPrime = {2, 2, 0, 0, 0}; // the whole L1 sensitivity on two coordinates
        double[] dir = {2, 2, 0, 0, 0};
        DpTester.assertCalibratedPassesAndHalvedFails(
                "geometric-vector",
                1.0,
                1.0,
                DpTester.Options.defaults(),
                false,
                (neighbour, eps, rng) -> {
                    long[] o = GeometricMechanism.addNoise(neighbour ? dPrime : d, l1, eps, rng);
                    double[] x = new double[o.length];
                    for (int i = 0; i < o.length; i++) {
                        x[i] = o[i];
                    }
                    return DpTester.project(x, dir);
                });
    }
}
