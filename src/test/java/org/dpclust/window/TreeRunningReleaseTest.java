package org.dpclust.window;

import static org.dpclust.window.WindowTestSpecs.spec;
import static org.dpclust.window.WindowTestSpecs.window;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.StreamSpec;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.Zcdp;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * The running tree's wiring: it charges ρ_tree on every window's interval through the fenced ledger
 * (in memory) before the leaf enters, states that ρ, adds an empty leaf for a refused window, keeps
 * a bounded state, and a tree continued from saved state releases the same bytes.
 */
class TreeRunningReleaseTest {
    private static final long W = 10_000;

    /** Record units, zcdp, stats only, six 10 s windows per minute-long period (T = 6, L = 3). */
    private static final StreamSpec S =
            spec(
                    "    accounting: zcdp\n    budget_delta: 1.0e-9\n"
                            + "    budget_cap: 1\n    budget_period: PT1M\n"
                            + "    running: {mode: tree}\n");

    private static final StreamRuntime RT = StreamRuntime.of(S);

    /** One run of the tree over windows, as the operator drives it. */
    private static final class Run {
        final TreeRunningRelease tree = new TreeRunningRelease(RT, TestRandoms.SECRET);
        final WindowRelease.Charger ledger;
        long[] state;
        double[] previous;

        Run(WindowRelease.Charger ledger) {
            this.ledger = ledger;
        }

        TreeRunningRelease.Step window(long start, int records) throws Exception {
            TreeRunningRelease.Step step =
                    tree.release(
                            state,
                            start,
                            WindowTestSpecs.window(RT, start, records).stats,
                            ledger,
                            previous);
            state = step.state();
            if (step.release() != null) {
                previous = step.release().centroids();
            }
            return step;
        }
    }

    @Test
    void everyWindowIsChargedRhoTreeWhichItsRunningReleaseStates() throws Exception {
        double rhoCap = Zcdp.rhoCap(1, 1e-9);
        double rho = S.rhoPerRelease();
        assertEquals(rhoCap * (1 - 1e-9) / 2, rho, 1e-15, "stats and the tree split the cap");
        WindowReleaseZcdpTest.Ledger ledger = new WindowReleaseZcdpTest.Ledger(S);
        WindowRelease core = new WindowRelease(RT, TestRandoms.SECRET);
        Run run = new Run(ledger);
        for (int w = 0; w < 6; w++) {
            TreeRunningRelease.Step step = run.window(w * W, 100 + w);
            WindowRelease.Outcome o = core.release(window(RT, w * W, 100 + w), ledger, null);
            assertTrue(step.charged().decision().accepted(), "window " + w);
            assertTrue(o.decisions().get(0).accepted(), "stats still fits, window " + w);
            assertEquals(
                    new PrivacyLedger.Interval(w * W, w * W + W),
                    step.charged().decision().interval());
            CentroidRelease r = step.release().published();
            assertEquals(RunningRelease.MODE, r.getMode());
            assertEquals(rho, r.getRho(), 0.0, "the tree release is charged, not free");
            assertEquals(0, r.getWindowStart().toEpochMilli());
            assertEquals(w * W + W, r.getWindowEnd().toEpochMilli());
            assertEquals(w + 1, r.getWindowsCovered());
            assertEquals(3.0, r.getMechanismParams().get("tree_levels"));
            assertEquals(
                    (double) Integer.bitCount(w + 1), r.getMechanismParams().get("tree_nodes"));
            assertEquals(rho, r.getMechanismParams().get("tree_rho"));
            // record units: a window's stats ρ + ρ_tree is the per-window maximum, within the cap
            assertEquals(2 * rho, ((CentroidRelease) centroids(o)).getRhoSpent(), 1e-12);
            assertTrue(2 * rho <= rhoCap);
            long bound = 2L * 3 * 16 * (1 + 2) + 2 * 3 + 3;
            assertEquals(StreamSpec.treeStateLongs(6, 16, 2), run.state.length);
            assertTrue(run.state.length <= bound, "O(L·cells·(d + 1)) state");
        }
        assertEquals(12, ledger.rhos.size(), "one tree and one stats charge per window");
        ledger.rhos.forEach(x -> assertEquals(rho, x, 0.0));
        // the next period restarts the tree
        TreeRunningRelease.Step next = run.window(60_000, 50);
        assertEquals(60_000, next.state()[0]);
        assertEquals(60_000, next.release().published().getWindowStart().toEpochMilli());
        assertEquals(1, next.release().published().getWindowsCovered());
        assertThrows(IllegalStateException.class, () -> run.window(60_000, 50), "added twice");
    }

    private static Object centroids(WindowRelease.Outcome o) {
        return ((org.dpclust.io.Publication.Centroids) o.published().get(0)).value();
    }

    /** A refused decision of the window's tree charge. */
    private static WindowRelease.Charged refused(PrivacyLedger.Interval interval, double rho) {
        return new WindowRelease.Charged(
                new PrivacyLedger.Decision(false, interval, 0, 0, 1, 1, 0, 60_000),
                rho,
                0,
                1,
                1e-9);
    }

    @Test
    void aRefusedWindowAddsAnEmptyLeafAndPublishesNothing() throws Exception {
        WindowReleaseZcdpTest.Ledger a = new WindowReleaseZcdpTest.Ledger(S);
        Run refusing =
                new Run(
                        (summary, interval, budget, fp) ->
                                interval.start() == 2 * W
                                        ? refused(interval, ((ReleaseBudget.Zcdp) budget).rho())
                                        : a.charge(summary, interval, budget, fp));
        Run empty = new Run(new WindowReleaseZcdpTest.Ledger(S));
        for (int w = 0; w < 6; w++) {
            TreeRunningRelease.Step r = refusing.window(w * W, 80);
            TreeRunningRelease.Step e = empty.window(w * W, w == 2 ? 0 : 80);
            assertArrayEquals(e.state(), r.state(), "window " + w + ": the same tree");
            if (w == 2) {
                assertNull(r.release(), "a refused window publishes no running release");
                assertNotNull(e.release());
            }
        }
        // and the refusal kept the window's records out: accepted, they change the tree
        Run full = new Run(new WindowReleaseZcdpTest.Ledger(S));
        for (int w = 0; w < 6; w++) {
            full.window(w * W, 80);
        }
        assertEquals(full.state[1], refusing.state[1], "as many windows added");
        assertTrue(!java.util.Arrays.equals(full.state, refusing.state));
    }

    @Test
    void aTreeContinuedFromSavedStateReleasesTheSameBytes() throws Exception {
        Run straight = new Run(new WindowReleaseZcdpTest.Ledger(S));
        List<CentroidRelease> expected = new ArrayList<>();
        List<long[]> states = new ArrayList<>();
        for (int w = 0; w < 6; w++) {
            expected.add(straight.window(w * W, 60 + 7 * w).release().published());
            states.add(straight.state);
        }
        WindowReleaseZcdpTest.Ledger ledger = new WindowReleaseZcdpTest.Ledger(S);
        Run before = new Run(ledger);
        for (int w = 0; w < 3; w++) {
            before.window(w * W, 60 + 7 * w);
        }
        Run restored = new Run(ledger); // a new instance, as after a restart
        restored.state = before.state.clone();
        restored.previous = before.previous.clone();
        for (int w = 3; w < 6; w++) {
            CentroidRelease r = restored.window(w * W, 60 + 7 * w).release().published();
            assertEquals(expected.get(w), r, "window " + w);
            assertArrayEquals(states.get(w), restored.state);
        }
    }

    /**
     * The tree charge pays for the nodes a window completes, so its fingerprint covers the tree
     * state the leaf joins: a replay from the same state is the same charge (and the same bytes),
     * while a restart without the tree state — whose new nodes would hold the window's records a
     * second time, with other noise — is charged again (privacy review of the tree wiring).
     */
    @Test
    void aWindowRedrawnWithoutItsTreeStateIsChargedAgain() throws Exception {
        List<String> fingerprints = new ArrayList<>();
        WindowReleaseZcdpTest.Ledger inner = new WindowReleaseZcdpTest.Ledger(S);
        WindowRelease.Charger recording =
                (summary, interval, budget, fingerprint) -> {
                    fingerprints.add(fingerprint);
                    return inner.charge(summary, interval, budget, fingerprint);
                };
        Run run = new Run(recording);
        for (int w = 0; w < 3; w++) {
            run.window(w * W, 60 + 7 * w);
        }
        long[] beforeThree = run.state.clone();
        double[] previous = run.previous.clone();
        run.window(3 * W, 81);
        Run replay = new Run(recording);
        replay.state = beforeThree;
        replay.previous = previous;
        replay.window(3 * W, 81);
        assertEquals(fingerprints.get(3), fingerprints.get(4), "a replay is the same charge");
        assertArrayEquals(run.state, replay.state, "and the same tree");
        Run fresh = new Run(recording); // restarted without the tree state
        fresh.window(3 * W, 81);
        assertNotEquals(fingerprints.get(3), fingerprints.get(5), "new nodes: a new charge");
    }

    @Test
    void aScheduleStartingMidPeriodCoversTheEarlierWindowsAsEmptyLeaves() throws Exception {
        Run late = new Run(new WindowReleaseZcdpTest.Ledger(S));
        TreeRunningRelease.Step s = late.window(3 * W, 40);
        assertEquals(4, s.release().published().getWindowsCovered());
        assertEquals(1.0, s.release().published().getMechanismParams().get("tree_nodes"));
        Run refused =
                new Run(
                        (summary, interval, budget, fp) ->
                                interval.start() < 3 * W
                                        ? refused(interval, ((ReleaseBudget.Zcdp) budget).rho())
                                        : new WindowReleaseZcdpTest.Ledger(S)
                                                .charge(summary, interval, budget, fp));
        for (int w = 0; w < 4; w++) {
            refused.window(w * W, w < 3 ? 90 : 40);
        }
        assertArrayEquals(refused.state, late.state);
    }

    /**
     * The tree's running counts against the sum mode's over a period of T = 64 windows (L = 7), at
     * the same cap: the sum mode's windows get all of ρ_cap, the tree mode's windows and tree half
     * each. Mean squared error of the running cell counts over 16 cells and 20 periods (fixed
     * keys): at n = 64 windows the tree sums 1 node (expected variance ratio tree/sum = 1·L·2/64 =
     * 0.22), at n = 63 six nodes (6·L·2/63 = 1.33).
     */
    @Test
    void theTreeBeatsTheSumAtAPowerOfTwoAndLosesJustBefore() throws Exception {
        String zcdp = "    accounting: zcdp\n    budget_delta: 1.0e-9\n    budget_cap: 1\n";
        StreamSpec treeSpec = spec(zcdp + "    budget_period: PT640S\n    running: {mode: tree}\n");
        StreamSpec sumSpec =
                spec(zcdp + "    budget_period: PT640S\n    running: {windows: period}\n");
        StreamRuntime rt = StreamRuntime.of(treeSpec);
        TreeRunningRelease tree = new TreeRunningRelease(rt, TestRandoms.SECRET);
        WindowReleaseZcdpTest.Ledger ledger = new WindowReleaseZcdpTest.Ledger(treeSpec);
        double[] treeErr = new double[2];
        double[] sumErr = new double[2];
        long period = 640_000;
        for (int p = 0; p < 20; p++) {
            long[] state = null;
            long[] exact = new long[16];
            long[] noisySum = new long[16];
            for (int w = 0; w < 64; w++) {
                long start = p * period + w * W;
                WindowSummaries win = WindowTestSpecs.window(rt, start, 50);
                TreeRunningRelease.Advance a = tree.advance(state, start, win.stats, ledger);
                state = a.state();
                long[] one =
                        org.dpclust.kmeans.DpClusterStatistics.noiseGaussian(
                                        win.stats,
                                        rt.codec(),
                                        sumSpec.rhoPerRelease(),
                                        Double.NaN,
                                        1,
                                        org.dpclust.privacy.PrivacyRandom.forRelease(
                                                TestRandoms.SECRET,
                                                new org.dpclust.privacy.ReleaseContext(
                                                        "s", start, "stats", "sum", new byte[1])))
                                .counts();
                for (int c = 0; c < 16; c++) {
                    exact[c] += win.stats.counts()[c];
                    noisySum[c] += one[c];
                }
                if (w >= 62) {
                    for (int c = 0; c < 16; c++) {
                        treeErr[w - 62] += Math.pow(a.running().counts()[c] - exact[c], 2);
                        sumErr[w - 62] += Math.pow(noisySum[c] - exact[c], 2);
                    }
                }
            }
        }
        System.out.printf(
                java.util.Locale.ROOT,
                "running counts MSE per cell, tree vs sum: n = 63: %.1f vs %.1f; n = 64: %.1f vs"
                        + " %.1f%n",
                treeErr[0] / 320,
                sumErr[0] / 320,
                treeErr[1] / 320,
                sumErr[1] / 320);
        assertTrue(treeErr[1] < 0.5 * sumErr[1], "n = 64: one node against 64 windows");
        assertTrue(treeErr[0] > sumErr[0], "n = 63: six nodes of L·2 windows' variance each");
    }
}
