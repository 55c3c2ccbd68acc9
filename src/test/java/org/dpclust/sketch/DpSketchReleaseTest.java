package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * The sketch release: calibration against the paper's formula, the budget split, the small-count
 * rule and argument checks (the statistical DP tests are {@link DpSketchReleaseDpTest}).
 */
class DpSketchReleaseTest {
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});

    // A two-feature sketch and a record x = 1 at phase π/4 on both (the statistical tests are in
    // DpSketchReleaseDpTest).
    private static final FrequencyMatrix QUARTER =
            FrequencyMatrix.of(new double[][] {{Math.PI / 4}, {Math.PI / 4}});

    private static MaskedSketch addRemoveBase() {
        MaskedSketch s = new MaskedSketch(QUARTER, UNIT, 1, TestRandoms.SECRET);
        s.add(new double[] {0.3}, new byte[] {1});
        s.add(new double[] {0.7}, new byte[] {2});
        return s;
    }

    private static MaskedSketch addRemoveNeighbour() {
        MaskedSketch s = addRemoveBase();
        s.add(new double[] {1.0}, new byte[] {3});
        return s;
    }

    // ---- calibration against the paper's formula ----------------------------------------------

    /**
     * Rescaled to paper 003's normalisation, the replace-one noise is the corrected σ_ξ =
     * 4√2·√α_r·m/(√n0·ε): per-part Laplace scale of the noise on the normalised sketch (1/(α_r n0
     * √m))·Σ is b/(α_r n0 √m) = (σ_ξ/2)/√(α_r m n0), i.e. σ_ξ = 2b/√(α_r n0). The printed formula
     * (α_r instead of √α_r) would be √α_r times smaller.
     */
    @Test
    void replaceOneNoiseIsTheCorrectedSigmaXiNotThePrintedOne() {
        int m = 100;
        int r = 10;
        long n0 = 1000;
        double eps = 0.5;
        double alpha = (double) r / m;
        FrequencyMatrix f = FrequencyMatrix.draw(m, 2, 0.3, FrequencyMatrix.Law.GAUSSIAN, 5);
        MaskedSketch s =
                new MaskedSketch(
                        f,
                        new DomainBounds(new double[] {0, 0}, new double[] {1, 1}),
                        r,
                        TestRandoms.SECRET);
        for (int i = 0; i < n0; i++) {
            s.add(new double[] {i / (double) n0, 0.5}, new byte[] {(byte) i, (byte) (i >> 8)});
        }
        DpSketchRelease.Result res =
                DpSketchRelease.replaceOne(s, n0, eps, TestRandoms.stream("sigma-xi"));
        double b = res.parameters().get("sum_noise_scale");
        double sigmaXi = 2 * b / Math.sqrt(alpha * n0);
        double corrected = 4 * Math.sqrt(2) * Math.sqrt(alpha) * m / (Math.sqrt(n0) * eps);
        double printed = 4 * Math.sqrt(2) * alpha * m / (Math.sqrt(n0) * eps);
        assertEquals(corrected, sigmaXi, 1e-6 * corrected);
        assertTrue(sigmaXi >= corrected, "never less noise than the derivation requires");
        assertEquals(1 / Math.sqrt(alpha), sigmaXi / printed, 1e-6);
    }

    @Test
    void defaultBudgetSplitAndSmallCountRule() {
        assertEquals(1 / (1 + Math.cbrt(4e6)), DpSketchRelease.defaultCountFraction(1000), 1e-15);
        assertTrue(
                DpSketchRelease.defaultCountFraction(1000) > 10.0 / 2001,
                "much more than the toolbox's share");
        MaskedSketch empty = new MaskedSketch(QUARTER, UNIT, 2, null);
        PrivacyRandom rng = TestRandoms.stream("small-count");
        boolean sawNonPositive = false;
        for (int i = 0; i < 200 && !sawNonPositive; i++) {
            DpSketchRelease.Result res = DpSketchRelease.addRemove(empty, 0.5, 0.5, 1, rng);
            assertEquals(Math.max(res.noisyCount(), 1L), res.divisor(), 0.0);
            if (res.noisyCount() <= 0) {
                sawNonPositive = true;
                double[] expected = new double[4];
                for (int j = 0; j < 4; j++) {
                    expected[j] = res.noisySum()[j] / MaskedSketch.SCALE; // α_r = 1, divisor 1
                }
                assertArrayEquals(expected, res.sketch(), 0.0);
            }
        }
        assertTrue(sawNonPositive, "an empty window must sometimes get a non-positive noisy count");
    }

    @Test
    void largeEpsilonGivesTheExactSketchAndReplaceOneChecksN() {
        MaskedSketch s = addRemoveNeighbour();
        DpSketchRelease.Result res =
                DpSketchRelease.addRemove(s, 1e9, Double.NaN, 1, TestRandoms.stream("exact"));
        assertArrayEquals(DpSketchRelease.exactSketch(s), res.sketch(), 1e-6);
        assertEquals("add-remove", res.neighbouring().label());
        assertThrows(
                IllegalArgumentException.class,
                () -> DpSketchRelease.replaceOne(s, 2, 1.0, TestRandoms.stream("n")));
        assertThrows(
                IllegalArgumentException.class,
                () -> DpSketchRelease.addRemove(s, 0.0, Double.NaN, 1, TestRandoms.stream("e")));
    }
}
