package org.dpclust.privacy;

import java.math.BigInteger;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of {@link GaussianMechanism} (tier {@code dp}) through the (ε, δ) implied by
 * its ρ. Neighbours: 0 versus a vector whose squared L2 distance is exactly Δ₂² = 3² + 4² = 25; the
 * output is projected onto their difference (the other coordinates' noise is independent of it).
 * The mechanism runs at ρ = m²/2 for the harness parameter m, so σ = Δ₂/m: m = 1 is the calibrated
 * σ = Δ₂ (ρ = 1/2) and the harness's halved run (m = 2) is σ = Δ₂/2. The tested ε is the one ρ =
 * 1/2 implies at δ = 1e-3 by {@link Zcdp#epsilon} (about 3.5); since δ = 1e-3 is well below the
 * harness slack δ_tol = 0.01, a calibrated mechanism passes every bucket, while at half the noise
 * the outermost quantile buckets violate p <= e^ε q by about 0.08 (computed for the continuous
 * Gaussian when the test was written).
 */
@Tag("dp")
class GaussianMechanismDpTest {
    @Test
    void vectorPassesCalibratedAndFailsWithHalvedNoise() {
        long[] d = {0, 0, 0, 0};
        long[] dPrime = {3, 4, 0, 0};
        double[] dir = {3, 4, 0, 0};
        BigInteger l2Squared = BigInteger.valueOf(25);
        DpTester.assertZcdpCalibratedPassesAndHalvedFails(
                "gaussian-vector",
                DpTester.Options.defaults(),
                (neighbour, rho, rng) -> {
                    long[] o =
                            GaussianMechanism.addNoise(neighbour ? dPrime : d, l2Squared, rho, rng);
                    double[] x = new double[o.length];
                    for (int i = 0; i < o.length; i++) {
                        x[i] = o[i];
                    }
                    return DpTester.project(x, dir);
                });
    }
}
