package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GaussianMechanism;
import org.dpclust.privacy.Zcdp;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of the Gaussian (zCDP) dp-hst release ({@link
 * HstWindowSummary#releaseGaussian}, i.e. {@link DpHstInitializer#gaussianNodeCounts}, what a
 * stream with {@code accounting: zcdp} publishes; tier {@code dp}) on a worst-case device pair. D:
 * a window of 200 records around (0.1, 0.1); D′: D plus one device's c = 3 records at a universe
 * point whose leaf is at the full depth L, so every released level's node on its path moves by c:
 * squared L2 change L·c², the whole bound {@link DpHstInitializer#allLevelsL2SensitivitySquared}
 * (asserted, with the pair's ρ at the calibrated σ equal to the release's ρ).
 *
 * <p>Statistic: the privacy-loss variable of the discrete Gaussian over the L nodes of that path at
 * the calibrated σ (one σ for every node, hence one part; the other nodes' noise is the same under
 * D and D′, and the centres are post-processing of the noisy counts). {@link
 * DpTester#assertZcdpCalibratedPassesAndLeakyFails}: ρ̂ of the loss must stay below √1.5·ρ at ρ =
 * 1/2 and exceed it at 1.5ρ; the hockey-stick test at the ε that ρ = 1/2 implies at δ = 10⁻³
 * ({@link Zcdp#epsilon}, about 3.5) passes calibrated and fails at half the noise. N = 20 000 a
 * side.
 */
@Tag("dp")
class HstWindowSummaryGaussianDpTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final int C = 3;

    @Test
    void worstCaseDevicePairPassesCalibratedAndFailsWithLessNoise() {
        HstWindowSummary s = new HstWindowSummary(BOX, 32, 3, 3);
        Hst t = s.tree();
        long[] d = HstWindowSummaryTest.window(s, 200, 0.1, 0.1, 1);
        int deep = 0;
        for (int x = 1; x < s.universeSize(); x++) {
            if (t.pathBelowRoot(x).length > t.pathBelowRoot(deep).length) {
                deep = x;
            }
        }
        int[] path = t.pathBelowRoot(deep);
        assertEquals(t.levels(), path.length, "a leaf at the full depth: one node per level");
        long[] dPrime = d.clone();
        dPrime[deep] += C;
        long[] a = t.countsFromMultiplicities(d);
        long[] b = t.countsFromMultiplicities(dPrime);
        long change = 0;
        for (int v = 1; v < a.length; v++) {
            change += (b[v] - a[v]) * (b[v] - a[v]);
        }
        assertEquals(
                DpHstInitializer.allLevelsL2SensitivitySquared(t, C).longValueExact(),
                change,
                "the pair attains the L2 sensitivity");
        double sigma =
                Math.sqrt(
                        GaussianMechanism.exactVariance(
                                        DpHstInitializer.allLevelsL2SensitivitySquared(t, C),
                                        DpTester.ZCDP_RHO)
                                .value());
        assertEquals(
                DpTester.ZCDP_RHO,
                change / (2 * sigma * sigma),
                1e-9,
                "the pair's ρ is the release's");
        DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                "hst-gaussian-device",
                DpTester.Options.defaults().withSamples(20_000),
                (neighbour, rho, rng) -> {
                    long[] o =
                            s.releaseGaussian(neighbour ? dPrime : d, 2, rho, C, rng)
                                    .noisyNodeCounts();
                    double l = 0;
                    for (int v : path) {
                        l += DpTester.gaussianLoss(o[v], a[v], b[v], sigma);
                    }
                    return new double[] {l};
                });
    }
}
