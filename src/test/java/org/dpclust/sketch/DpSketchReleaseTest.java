package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class DpSketchReleaseTest {
    private static final DpTester.Options O = DpTester.Options.defaults();
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});

    // ---- add/remove: worst-case pair. Both frequencies are π/4, so the added record x = 1 has
    // phase π/4
    // on whichever feature its mask picks: |cos| + |sin| = √2, the full per-feature sensitivity.
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

    private static double[] output(DpSketchRelease.Result r) {
        double[] out = new double[r.noisySum().length + 1];
        for (int i = 0; i < r.noisySum().length; i++) {
            out[i] = r.noisySum()[i];
        }
        out[out.length - 1] = r.noisyCount();
        return out;
    }

    private static double[] exact(MaskedSketch s) {
        double[] out = new double[s.sums().length + 1];
        for (int i = 0; i < s.sums().length; i++) {
            out[i] = s.sums()[i];
        }
        out[out.length - 1] = s.count();
        return out;
    }

    private static double[] difference(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = b[i] - a[i];
        }
        return d;
    }

    private static DpTester.VoteResult addRemoveVote(
            double epsMechanism, double epsTested, String label) {
        MaskedSketch d = addRemoveBase();
        MaskedSketch dPrime = addRemoveNeighbour();
        long l1 = 0;
        long[] a = d.sums();
        long[] b = dPrime.sums();
        for (int i = 0; i < a.length; i++) {
            l1 += Math.abs(a[i] - b[i]);
        }
        assertTrue(
                l1 >= d.addRemoveL1Units() - 2, "the pair must use the whole sensitivity: " + l1);
        return projectedVote(
                "add/remove",
                label,
                epsTested,
                difference(exact(d), exact(dPrime)),
                rng -> DpSketchRelease.addRemove(d, epsMechanism, 0.01, 1, rng),
                rng -> DpSketchRelease.addRemove(dPrime, epsMechanism, 0.01, 1, rng));
    }

    /**
     * Majority vote of DpTester.testProjected on the mechanism's direct output (noisy sums, noisy
     * count).
     */
    private static DpTester.VoteResult projectedVote(
            String relation,
            String label,
            double epsTested,
            double[] dir,
            Function<PrivacyRandom, DpSketchRelease.Result> onD,
            Function<PrivacyRandom, DpSketchRelease.Result> onDPrime) {
        PrivacyRandom rng = TestRandoms.stream(label);
        DpTester.VoteResult v =
                DpTester.vote(
                        O,
                        () ->
                                DpTester.testProjected(
                                        () -> output(onD.apply(rng)),
                                        () -> output(onDPrime.apply(rng)),
                                        dir,
                                        epsTested,
                                        O));
        System.out.println("DpSketchRelease " + relation + " " + label + ": " + v.summary());
        return v;
    }

    @Test
    void addRemovePassesAtCalibratedNoise() {
        assertTrue(addRemoveVote(1.0, 1.0, "sketch-add-remove").passedByMajority());
    }

    @Test
    void addRemoveFailsWithHalvedNoise() {
        assertFalse(addRemoveVote(2.0, 1.0, "sketch-add-remove-neg").passedByMajority());
    }

    // ---- replace-one: one feature at 5π/4; x = 1 has phase 5π/4, x' = 0.2 has phase π/4: the two
    // records' features are opposite, |Δcos| + |Δsin| = 2√2.
    private static final FrequencyMatrix FIVE_QUARTERS =
            FrequencyMatrix.of(new double[][] {{5 * Math.PI / 4}});

    private static MaskedSketch replaceSketch(double x) {
        MaskedSketch s = new MaskedSketch(FIVE_QUARTERS, UNIT, 1, null);
        s.add(new double[] {0.5}, null);
        s.add(new double[] {x}, null);
        return s;
    }

    private static DpTester.VoteResult replaceVote(
            double epsMechanism, double epsTested, String label) {
        MaskedSketch d = replaceSketch(1.0);
        MaskedSketch dPrime = replaceSketch(0.2);
        double[] dir = difference(exact(d), exact(dPrime));
        assertTrue(Math.abs(dir[0]) + Math.abs(dir[1]) >= 2 * d.addRemoveL1Units() - 4);
        return projectedVote(
                "replace-one",
                label,
                epsTested,
                dir,
                rng -> DpSketchRelease.replaceOne(d, 2, epsMechanism, rng),
                rng -> DpSketchRelease.replaceOne(dPrime, 2, epsMechanism, rng));
    }

    @Test
    void replaceOnePassesAtCalibratedNoise() {
        assertTrue(replaceVote(1.0, 1.0, "sketch-replace").passedByMajority());
    }

    @Test
    void replaceOneFailsWithHalvedNoise() {
        assertFalse(replaceVote(2.0, 1.0, "sketch-replace-neg").passedByMajority());
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
