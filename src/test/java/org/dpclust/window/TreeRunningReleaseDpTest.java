package org.dpclust.window;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of the wired running tree ({@link TreeRunningRelease}, tier {@code dp}): the
 * stream job's code path from the window's exact stats cells to the released noisy nodes, on a
 * record pair. Stream: record units, zcdp, d = 1, 1 cell (the cheapest tree: the test runs it
 * 400,000 times), horizon T = 4 windows (L = 3, 7 nodes per tree), {@code rho_per_release} =
 * ρ_tree. D: every window empty; D′: one record at the box's corner (every fixed-point coordinate
 * at the edge of its range, so the sums move by about the whole sum sensitivity) in window 1, which
 * lies in one node per level (windows [1], [0, 1], [0, 3]). Statistic: the privacy-loss variable of
 * the discrete Gaussian over those nodes' count and sum coordinates that the record moves, at the
 * wired calibrated σ's (the other coordinates and nodes have the same distribution under D and D′);
 * running releases are post-processing of the nodes. Each sample runs the tree over a period drawn
 * at random from 2^44 (the node noise is keyed by the period start: independent noise per sample).
 * The tree runs at ρ_tree = m²/2 (m = 1 calibrated, m = 2 half the noise), tested at the ε that ρ =
 * 1/2 implies at δ = 10⁻³, as for the other Gaussian tests.
 */
@Tag("dp")
class TreeRunningReleaseDpTest {
    private static final long W = 10_000;
    private static final int RECORD_WINDOW = 1;

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
                                dimension: 1
                                lower: [0]
                                upper: [1]
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
    void wiredRunningTreePassesCalibratedAndFailsWithHalvedNoise() {
        StreamRuntime calibrated = runtime(DpTester.ZCDP_RHO);
        ClusterStatistics empty = WindowSummaries.empty(calibrated, TestRandoms.SECRET, 0).stats;
        WindowSummaries one = WindowSummaries.empty(calibrated, TestRandoms.SECRET, 0);
        one.add(new double[] {1}, "record".getBytes(StandardCharsets.UTF_8));
        long[] xCounts = one.stats.counts();
        long[] xSums = one.stats.sums();
        TreeRunningRelease probe = new TreeRunningRelease(calibrated, TestRandoms.SECRET);
        double sigmaCount = probe.nodeSigma(true);
        double sigmaSum = probe.nodeSigma(false);
        DpTester.assertZcdpCalibratedPassesAndHalvedFails(
                "wired-tree-running",
                DpTester.Options.defaults().withSamples(10_000),
                (neighbour, rho, rng) -> {
                    TreeRunningRelease t = TREES.computeIfAbsent(rho, r -> tree(runtime(r)));
                    long period = (rng.nextLong() >>> 20) * 4 * W; // a fresh period: fresh keys
                    long[] state = null;
                    double loss = 0;
                    for (int w = 0; w < 4; w++) {
                        ClusterStatistics leaf =
                                neighbour && w == RECORD_WINDOW ? one.stats : empty;
                        try {
                            state =
                                    t.advance(
                                                    state,
                                                    period + w * W,
                                                    leaf,
                                                    (summary, interval, e, r, fp) ->
                                                            accept(interval, r))
                                            .state();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        for (int h = 0; h < 3; h++) {
                            int size = 1 << h;
                            if ((w + 1) % size == 0 && RECORD_WINDOW / size == w / size) {
                                loss += loss(t.node(state, true, h), xCounts, sigmaCount);
                                loss += loss(t.node(state, false, h), xSums, sigmaSum);
                            }
                        }
                    }
                    return loss;
                });
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
