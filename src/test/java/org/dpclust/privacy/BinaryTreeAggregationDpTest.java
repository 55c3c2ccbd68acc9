package org.dpclust.privacy;

import java.math.BigInteger;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of a running tree release ({@link BinaryTreeAggregation}; tier {@code dp}).
 * Horizon T = 8 windows (L = 4 levels, 15 nodes), one count per window. D: every window empty; D′:
 * one record in window 5, which lies in one node per level, so the transcript of released nodes
 * moves by 1 in 4 nodes (squared L2 = L·Δ₂² = 4, the whole tree's sensitivity). Statistic: the
 * privacy-loss variable of the discrete Gaussian over those 4 nodes at the calibrated σ (the other
 * nodes' noise is the same under D and D′), one part, since all nodes share σ; the running sums are
 * post-processing of the nodes. {@link DpTester#assertZcdpCalibratedPassesAndLeakyFails}: ρ̂ of the
 * loss must stay below √1.5·ρ at ρ = 1/2 and exceed it at 1.5ρ; the hockey-stick test at the ε that
 * ρ = 1/2 implies at δ = 10⁻³ passes calibrated and fails at half the noise. N = 20 000 a side (24
 * / 10 standard errors of ρ̂ from the threshold).
 */
@Tag("dp")
class BinaryTreeAggregationDpTest {
    @Test
    void runningTreeReleasePassesCalibratedAndFailsWithLessNoise() {
        double sigma =
                Math.sqrt(
                        new BinaryTreeAggregation(
                                        1, 8, BigInteger.ONE, DpTester.ZCDP_RHO, (h, i, x) -> null)
                                .variance());
        DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                "tree-running-count",
                DpTester.Options.defaults().withSamples(20_000),
                (neighbour, rho, rng) -> {
                    BinaryTreeAggregation t =
                            new BinaryTreeAggregation(1, 8, BigInteger.ONE, rho, (h, i, x) -> rng);
                    double loss = 0;
                    for (int w = 0; w < 8; w++) {
                        t.add(new long[] {neighbour && w == 5 ? 1 : 0});
                        // the nodes completed by window w that contain window 5
                        for (int h = 0; h < BinaryTreeAggregation.levels(8); h++) {
                            long size = 1L << h;
                            if ((w + 1) % size == 0 && 5 / size == w / size) {
                                loss += DpTester.gaussianLoss(t.node(h)[0], 0, 1, sigma);
                            }
                        }
                    }
                    return new double[] {loss};
                });
    }
}
