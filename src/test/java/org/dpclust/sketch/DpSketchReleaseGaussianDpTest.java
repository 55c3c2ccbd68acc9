package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GaussianMechanism;
import org.dpclust.privacy.Zcdp;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of the Gaussian (zCDP) ckm sketch release ({@link
 * DpSketchRelease#addRemoveGaussian}, what a stream with {@code accounting: zcdp} publishes; tier
 * {@code dp}) on a worst-case device pair. Sketch: m = 4 features, r = 2 per record (keyed masks,
 * as a stream with r < m), every frequency π/4 in unit-box coordinates, so a record at x = 1 has
 * phase π/4 on whichever features its mask picks. D: a few records; D′: D plus one device's c = 3
 * equal records at x = 1 with one identity, hence one mask. The sums move by c times the same
 * feature vector on the mask's 2r coordinates, which is where the triangle inequality behind {@link
 * DpSketchRelease#addRemoveL2SensitivitySquared} is tight: the pair's squared L2 change is
 * c²·r·(2^48 + rounding), within 10⁻⁶ of the bound c²·r·{@link
 * DpSketchRelease#featureL2UnitsSquared()} (asserted, as are the 2r moved coordinates and the
 * count's change c), so the pair uses the whole ρ.
 *
 * <p>Statistic: the privacy-loss variable of the discrete Gaussian at the calibrated σ's, L(o) =
 * Σ_i ((o_i − b_i)² − (o_i − a_i)²)/(2σ_i²) over the sums and the count (a, b the exact values on D
 * and D′; exact for the discrete Gaussian, whose normaliser does not depend on the mean; the sums
 * outside the mask have a_i = b_i and contribute 0), in two parts, the count and the sums (each
 * part's coordinates share a σ). The sums' part is the projection of the noisy sums onto the
 * neighbours' difference vector b − a, scaled: the Neyman–Pearson statistic.
 *
 * <p>{@link DpTester#assertZcdpCalibratedPassesAndLeakyFails}: ρ̂ must stay below √1.5·ρ at ρ = 1/2
 * and exceed it at 1.5ρ (N = 20 000 a side); the hockey-stick test at the ε that ρ = 1/2 implies at
 * δ = 10⁻³ ({@link Zcdp#epsilon}, about 3.5) passes calibrated and fails at half the noise. The
 * discrete Gaussian at σ ≈ 2^26 on all 2m + 1 coordinates is the expensive part.
 */
@Tag("dp")
class DpSketchReleaseGaussianDpTest {
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});
    private static final int M = 4;
    private static final int R = 2;
    private static final int C = 3;
    private static final byte[] DEVICE = {7, 7};

    private static MaskedSketch base() {
        double[][] rows = new double[M][1];
        for (double[] row : rows) {
            row[0] = Math.PI / 4;
        }
        MaskedSketch s = new MaskedSketch(FrequencyMatrix.of(rows), UNIT, R, TestRandoms.SECRET);
        for (int i = 0; i < 5; i++) {
            s.add(new double[] {i / 5.0}, new byte[] {1, (byte) i});
        }
        return s;
    }

    @Test
    void worstCaseDevicePairPassesCalibratedAndFailsWithLessNoise() {
        MaskedSketch d = base();
        MaskedSketch dPrime = base();
        for (int i = 0; i < C; i++) {
            dPrime.add(new double[] {1.0}, DEVICE);
        }
        long[] a = d.sums();
        long[] b = dPrime.sums();
        assertEquals(2 * M, a.length);
        assertEquals(C, dPrime.count() - d.count());
        BigInteger change = BigInteger.ZERO;
        int moved = 0;
        for (int i = 0; i < a.length; i++) {
            change = change.add(BigInteger.valueOf(b[i] - a[i]).pow(2));
            moved += a[i] != b[i] ? 1 : 0;
        }
        assertEquals(2 * R, moved, "one mask: 2r coordinates move");
        BigInteger bound = DpSketchRelease.addRemoveL2SensitivitySquared(R, C);
        assertEquals(
                1.0,
                change.doubleValue() / bound.doubleValue(),
                1e-6,
                "the pair attains the L2 sensitivity");
        DpSketchRelease.Result nominal =
                DpSketchRelease.addRemoveGaussian(
                        d, DpTester.ZCDP_RHO, Double.NaN, C, TestRandoms.stream("nominal"));
        double rhoSum = nominal.parameters().get("rho_sum");
        double rhoCount = nominal.parameters().get("rho_count");
        double ss = Math.sqrt(GaussianMechanism.exactVariance(bound, rhoSum).value());
        double sc =
                Math.sqrt(
                        GaussianMechanism.exactVariance(BigInteger.valueOf((long) C * C), rhoCount)
                                .value());
        // calibration: the pair's own ρ (sums and count) is the release's ρ
        double pairRho = change.doubleValue() / (2 * ss * ss) + C * (double) C / (2 * sc * sc);
        assertEquals(DpTester.ZCDP_RHO, pairRho, 1e-6);
        DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                "sketch-gaussian-device",
                DpTester.Options.defaults().withSamples(20_000),
                (neighbour, rho, rng) -> {
                    DpSketchRelease.Result o =
                            DpSketchRelease.addRemoveGaussian(
                                    neighbour ? dPrime : d, rho, Double.NaN, C, rng);
                    double count =
                            DpTester.gaussianLoss(o.noisyCount(), d.count(), dPrime.count(), sc);
                    double sums = 0;
                    for (int i = 0; i < a.length; i++) {
                        sums += DpTester.gaussianLoss(o.noisySum()[i], a[i], b[i], ss);
                    }
                    return new double[] {count, sums};
                });
    }
}
