package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.Zcdp;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of the Gaussian (zCDP) statistics release ({@link
 * DpClusterStatistics#noiseGaussian}; tier {@code dp}) on a worst-case device pair. D: an empty
 * cell; D′: one device with c = 3 records, all at the box's corner in that cell — the count moves
 * by c and each of the d = 2 centred coordinate sums by c·2^31 units, so the pair attains both L2
 * sensitivities (c and c·2^31·√d). Statistic: the privacy-loss variable of the discrete Gaussian at
 * the calibrated σ's, L(o) = Σ_i ((o_i − a_i)² − (o_i − b_i)²)/(2σ_i²), in two parts: the count and
 * the two sums (each part's coordinates share a σ, so ρ̂ recombines them with the true σ's, e.g.
 * under a mutant that mis-scales only the sums). Exact for the discrete Gaussian, whose normaliser
 * does not depend on the mean.
 *
 * <p>{@link DpTester#assertZcdpCalibratedPassesAndLeakyFails}: ρ̂ must stay below √1.5·ρ at ρ = 1/2
 * and exceed it at 1.5ρ (N = 20 000 a side: 24 and 10 standard errors from the threshold); the
 * hockey-stick test at the ε that ρ = 1/2 implies at δ = 10⁻³ ({@link Zcdp#epsilon}, about 3.5)
 * passes calibrated and fails at half the noise, where L ~ N(2, 4) exceeds it with probability
 * about 0.23 (worst violations about 0.08). The discrete Gaussian at σ ≈ 2^32 is the expensive
 * part.
 */
@Tag("dp")
class DpClusterStatisticsGaussianDpTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);
    private static final int C = 3;

    @Test
    void worstCaseDevicePairPassesCalibratedAndFailsWithLessNoise() {
        ClusterStatistics empty = new ClusterStatistics(1, 2);
        ClusterStatistics device = new ClusterStatistics(1, 2);
        long[] corner = new long[2];
        CODEC.encode(BOX.upperCopy(), corner);
        for (int i = 0; i < C; i++) {
            device.add(0, corner);
        }
        assertEquals(C, device.counts()[0]);
        assertEquals((long) C * FixedPointCodec.HALF_RANGE, device.sums()[0]);
        DpClusterStatistics.NoisyCells nominal =
                DpClusterStatistics.noiseGaussian(
                        empty,
                        CODEC,
                        DpTester.ZCDP_RHO,
                        Double.NaN,
                        C,
                        TestRandoms.stream("nominal"));
        double sc = nominal.countScale();
        double ss = nominal.sumScale();
        // calibration: the pair's own ρ (count and sum parts) is the release's ρ
        double pairRho =
                C * (double) C / (2 * sc * sc)
                        + 2 * Math.pow(C * (double) FixedPointCodec.HALF_RANGE, 2) / (2 * ss * ss);
        assertEquals(DpTester.ZCDP_RHO, pairRho, 1e-6);
        DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                "stats-cells-gaussian-device",
                DpTester.Options.defaults().withSamples(20_000),
                (neighbour, rho, rng) -> {
                    DpClusterStatistics.NoisyCells o =
                            DpClusterStatistics.noiseGaussian(
                                    neighbour ? device : empty, CODEC, rho, Double.NaN, C, rng);
                    double count = DpTester.gaussianLoss(o.counts()[0], 0, C, sc);
                    double sums = 0;
                    for (int j = 0; j < 2; j++) {
                        sums +=
                                DpTester.gaussianLoss(
                                        o.sums()[j],
                                        0,
                                        (double) C * FixedPointCodec.HALF_RANGE,
                                        ss);
                    }
                    return new double[] {count, sums};
                });
    }
}
