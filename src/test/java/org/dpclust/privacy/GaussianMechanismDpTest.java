package org.dpclust.privacy;

import java.math.BigInteger;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of {@link GaussianMechanism} (tier {@code dp}). Neighbours: 0 versus a vector
 * whose squared L2 distance is exactly Δ₂² = 3² + 4² = 25; the statistic is the output projected
 * onto their difference (the other coordinates' noise is independent of it), one part for {@link
 * DpTester#assertZcdpCalibratedPassesAndLeakyFails}: the mechanism runs at ρ = 1/2 (σ = Δ₂), at
 * 1.5ρ and at 2ρ·2 (σ = Δ₂/2). ρ̂ of the projection (a Gaussian with mean shift Δ₂ and variance σ²,
 * so ρ̂ → Δ₂²/(2σ²)) must stay below √1.5·ρ ≈ 0.612 at calibration (standard error 0.002 over 5 ×
 * 100 000 draws a side) and exceed it at 1.5ρ (0.75, standard error 0.006 over 100 000). The
 * hockey-stick test at the ε that ρ = 1/2 implies at δ = 10⁻³ (about 3.54) passes calibrated and
 * fails at half the noise, where the outermost quantile buckets violate p ≤ e^ε q by about 0.08.
 */
@Tag("dp")
class GaussianMechanismDpTest {
    @Test
    void vectorPassesCalibratedAndFailsWithLessNoise() {
        long[] d = {0, 0, 0, 0};
        long[] dPrime = {3, 4, 0, 0};
        double[] dir = {3, 4, 0, 0};
        BigInteger l2Squared = BigInteger.valueOf(25);
        DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                "gaussian-vector",
                DpTester.Options.defaults(),
                (neighbour, rho, rng) -> {
                    long[] o =
                            GaussianMechanism.addNoise(neighbour ? dPrime : d, l2Squared, rho, rng);
                    double[] x = new double[o.length];
                    for (int i = 0; i < o.length; i++) {
                        x[i] = o[i];
                    }
                    return new double[] {DpTester.project(x, dir)};
                });
    }
}
