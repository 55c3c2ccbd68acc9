package org.dpclust.window;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of the wired running tree ({@link TreeRunningRelease}, tier {@code dp}): the
 * stream job's code path from the window's exact stats cells to the released noisy nodes, on a
 * record pair. Stream: record units, zcdp, d = 3 (so the sums' L2 sensitivity c·2^31·√d has its √d
 * factor: with d = 1 a tree that dropped it would be calibrated), 1 cell, horizon T = 4 windows (L
 * = 3, 7 nodes per tree), {@code rho_per_release} = ρ_tree. D: every window empty; D′: one record
 * at the box's corner (every fixed-point coordinate at the edge of its range, so the sums move by
 * the whole sum sensitivity, asserted to 10⁻⁶) in window 1, which lies in one node per level
 * (windows [1], [0, 1], [0, 3]). Statistic: the privacy-loss variable of the discrete Gaussian over
 * those nodes' count and sum coordinates that the record moves, at the wired σ's, in two parts: the
 * count tree's and the sum tree's (each tree has one σ, so ρ̂ recombines them with the true σ's);
 * the other coordinates and nodes have the same distribution under D and D′, and running releases
 * are post-processing of the nodes. Each sample runs the tree over a period drawn at random from
 * 2^44 (the node noise is keyed by the period start: independent noise per sample).
 *
 * <p>{@link DpTester#assertZcdpCalibratedPassesAndLeakyFails} at ρ_tree = 1/2: ρ̂ must stay below
 * √1.5·ρ ≈ 0.612 and exceed it at 1.5ρ (N = 8 000 a side: 15 and 6.5 standard errors from the
 * threshold); the hockey-stick test at the ε that ρ = 1/2 implies at δ = 10⁻³ passes calibrated and
 * fails at half the noise. A tree that drops the √d (counts' share 1/4 of ρ, so the pair's ρ is 1/8
 * + 3·3/8 = 1.25) was measured at ρ̂ = 1.232 (docs/privacy-tests.md). The pair's ρ at the wired σ's
 * is asserted after the statistical check, so that a mis-calibrated tree is first reported by its
 * ρ̂.
 */
@Tag("dp")
class TreeRunningReleaseDpTest {
    private static final long W = 10_000;
    private static final int RECORD_WINDOW = 1;
    private static final int D = 3;

    private static final Map<Double, StreamRuntime> RUNTIMES = new ConcurrentHashMap<>();

    private static StreamRuntime runtime(double rho) {
        return RUNTIMES.computeIfAbsent(
                rho,
                r -> {
                    StreamSpec s =
                            ConfigLoader.parse(
                                            """
                            streams:
                              - id: s
                                dimension: 3
                                lower: [0, 0, 0]
                                upper: [1, 1, 1]
                                k: 1
                                window: PT10S
                                budget_period: PT40S
                                budget_cap: 1
                                accounting: zcdp
                                budget_delta: 1.0e-9
                                rho_per_release: %s
                                public_seed: 5
                                stats: {cells: 1}
                                running: {mode: tree}
                            """
                                                    .formatted(r))
                                    .streams()
                                    .get(0);
                    return StreamRuntime.of(s);
                });
    }

    private static final Map<Double, TreeRunningRelease> TREES = new ConcurrentHashMap<>();

    private static TreeRunningRelease tree(StreamRuntime rt) {
        return new TreeRunningRelease(rt, TestRandoms.SECRET);
    }

    /** Accepts every charge (the ledger is tested elsewhere; here only the noise matters). */
    private static WindowRelease.Charged accept(PrivacyLedger.Interval interval, double rho) {
        return new WindowRelease.Charged(
                new PrivacyLedger.Decision(true, interval, 0, 0, 0, 1, 0, 0), rho, 0, 1, 1e-9);
    }

    @Test
    void wiredRunningTreePassesCalibratedAndFailsWithLessNoise() {
        StreamRuntime calibrated = runtime(DpTester.ZCDP_RHO);
        ClusterStatistics empty = WindowSummaries.empty(calibrated, TestRandoms.SECRET, 0).stats;
        WindowSummaries one = WindowSummaries.empty(calibrated, TestRandoms.SECRET, 0);
        one.add(new double[] {1, 1, 1}, "record".getBytes(StandardCharsets.UTF_8));
        long[] xCounts = one.stats.counts();
        long[] xSums = one.stats.sums();
        TreeRunningRelease probe = new TreeRunningRelease(calibrated, TestRandoms.SECRET);
        double sigmaCount = probe.nodeSigma(true);
        double sigmaSum = probe.nodeSigma(false);
        assertEquals(1, xCounts.length);
        assertEquals(1, xCounts[0]);
        assertEquals(D, xSums.length);
        double sumChange = 0;
        for (long x : xSums) {
            sumChange += (double) x * x;
        }
        double sumSensitivity = D * Math.pow(FixedPointCodec.HALF_RANGE, 2);
        assertEquals(1, sumChange / sumSensitivity, 1e-6, "the record attains the sums' √d·2^31");
        DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                "wired-tree-running",
                DpTester.Options.defaults().withSamples(8_000),
                (neighbour, rho, rng) -> {
                    TreeRunningRelease t = TREES.computeIfAbsent(rho, r -> tree(runtime(r)));
                    long period = (rng.nextLong() >>> 20) * 4 * W; // a fresh period: fresh keys
                    long[] state = null;
                    double count = 0;
                    double sums = 0;
                    for (int w = 0; w < 4; w++) {
                        ClusterStatistics leaf =
                                neighbour && w == RECORD_WINDOW ? one.stats : empty;
                        try {
                            state =
                                    t.advance(
                                                    state,
                                                    period + w * W,
                                                    leaf,
                                                    (summary, interval, b, fp) ->
                                                            accept(
                                                                    interval,
                                                                    ((ReleaseBudget.Zcdp) b).rho()))
                                            .state();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        for (int h = 0; h < 3; h++) {
                            int size = 1 << h;
                            if ((w + 1) % size == 0 && RECORD_WINDOW / size == w / size) {
                                count += loss(t.node(state, true, h), xCounts, sigmaCount);
                                sums += loss(t.node(state, false, h), xSums, sigmaSum);
                            }
                        }
                    }
                    return new double[] {count, sums};
                });
        // the pair's ρ at the wired σ's (L = 3 nodes) is the tree's ρ
        double pairRho =
                3 * (1 / (2 * sigmaCount * sigmaCount) + sumChange / (2 * sigmaSum * sigmaSum));
        assertEquals(DpTester.ZCDP_RHO, pairRho, 1e-6, "the wired tree's σ's give the pair ρ_tree");
    }

    /** The privacy loss of a node (mean 0 under D, the record's vector x under D′). */
    private static double loss(long[] node, long[] x, double sigma) {
        double l = 0;
        for (int i = 0; i < x.length; i++) {
            if (x[i] != 0) {
                l += DpTester.gaussianLoss(node[i], 0, x[i], sigma);
            }
        }
        return l;
    }
}
