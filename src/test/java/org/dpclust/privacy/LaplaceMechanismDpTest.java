package org.dpclust.privacy;

import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP tests of {@link LaplaceMechanism} (tier {@code dp}) on worst-case neighbours: a
 * scalar at 0 versus its sensitivity, and a vector whose whole L1 sensitivity sits on two
 * coordinates (projected onto the difference).
 */
@Tag("dp")
class LaplaceMechanismDpTest {
    @Test
    void scalarPassesCalibratedAndFailsWithHalvedNoise() {
        double sens = 1.0;
        DpTester.assertCalibratedPassesAndHalvedFails(
                "laplace-scalar",
                1.0,
                1.0,
                DpTester.Options.defaults(),
                false,
                (neighbour, eps, rng) ->
                        LaplaceMechanism.addNoise(neighbour ? sens : 0.0, sens, eps, rng));
    }

    @Test
    void vectorPassesCalibratedAndFailsWithHalvedNoise() {
        double l1 = 1.0;
        double[] d = {0.25, -3, 7, 0};
        double[] dPrime = {0.75, -3.5, 7, 0}; // the whole L1 sensitivity on two coordinates
        double[] dir = {0.5, -0.5, 0, 0};
        DpTester.assertCalibratedPassesAndHalvedFails(
                "laplace-vector",
                1.0,
                1.0,
                DpTester.Options.defaults(),
                false,
                (neighbour, eps, rng) ->
                        DpTester.project(
                                LaplaceMechanism.addNoise(neighbour ? dPrime : d, l1, eps, rng),
                                dir));
    }
}
