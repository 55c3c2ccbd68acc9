package org.dpclust.privacy;

import java.util.Arrays;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of {@link ExponentialMechanism} (tier {@code dp}). Pair: utilities u = (0, Δ,
 * ..., Δ) versus u' = (Δ, 0, ..., 0) over 100 candidates — every utility moves by the full
 * sensitivity, candidate 0 up and the others down, so the normaliser and the numerator move against
 * each other and the loss reaches ε (a replace-style pair; the mechanism's ε covers it). The output
 * is the selected index (one bucket per index).
 */
@Tag("dp")
class ExponentialMechanismDpTest {
    private static final double SENSITIVITY = 1.0;

    /** {u, u'}: u = (0, v, ..., v) and u' = (v, 0, ..., 0) over 100 candidates. */
    private static long[][] pair(long v) {
        long[] u = new long[100];
        long[] uPrime = new long[100];
        Arrays.fill(u, v);
        u[0] = 0;
        uPrime[0] = v;
        return new long[][] {u, uPrime};
    }

    private static void check(String name, DpTester.Statistic statistic) {
        DpTester.assertCalibratedPassesAndHalvedFails(
                name, 1.0, 1.0, DpTester.Options.defaults(), true, statistic);
    }

    @Test
    void passesCalibratedAndFailsWithHalvedNoise() {
        long[][] p = pair(1);
        double[][] u = {
            Arrays.stream(p[0]).asDoubleStream().toArray(),
            Arrays.stream(p[1]).asDoubleStream().toArray()
        };
        check(
                "exponential-mechanism",
                (neighbour, eps, rng) ->
                        ExponentialMechanism.select(u[neighbour ? 1 : 0], SENSITIVITY, eps, rng));
    }

    /** The grid-unit entry point that PrivGene and the k-median search use, on the same pair. */
    @Test
    void unitsEntryPointPassesCalibratedAndFailsWithHalvedNoise() {
        // the contract's bound: Δ/g plus one grid unit
        long[][] u = pair(ExponentialMechanism.gridSensitivity(SENSITIVITY));
        check(
                "exponential-mechanism-units",
                (neighbour, eps, rng) ->
                        ExponentialMechanism.selectUnits(
                                u[neighbour ? 1 : 0], SENSITIVITY, eps, rng));
    }
}
