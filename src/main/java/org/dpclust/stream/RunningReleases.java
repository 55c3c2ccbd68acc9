package org.dpclust.stream;

import java.util.HashMap;
import java.util.Map;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.window.RunningRelease;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.TreeRunningRelease;
import org.dpclust.window.WindowRelease;
import org.dpclust.window.WindowSummaries;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running releases of the keyed release function's streams ({@code running:}, docs/zcdp.md):
 * the Flink-free {@link RunningRelease} (sum over the span's noisy stats cells, post-processing
 * only) and {@link TreeRunningRelease} (its own ρ per window, charged through the ledger), with
 * their state in the operator's keyed state. Must be used on the current key's stream.
 */
final class RunningReleases {
    private static final Logger LOG = LoggerFactory.getLogger(RunningReleases.class);

    private final Map<String, RunningRelease> sums = new HashMap<>();
    private final Map<String, TreeRunningRelease> trees = new HashMap<>();
    private final KeyedWindowState state;
    private final ReleaseMetrics metrics;

    RunningReleases(
            Map<String, StreamRuntime> runtime,
            PrivacySecret secret,
            KeyedWindowState state,
            ReleaseMetrics metrics) {
        this.state = state;
        this.metrics = metrics;
        runtime.forEach(
                (id, rt) -> {
                    if (rt.spec().running().tree()) {
                        trees.put(id, new TreeRunningRelease(rt, secret));
                    } else if (rt.spec().running().enabled()) {
                        sums.put(id, new RunningRelease(rt, secret));
                    }
                });
    }

    /**
     * The window's running tree step ({@link TreeRunningRelease}), to run before the window's
     * summaries: charges ρ_tree, adds the window's leaf (empty if refused), keeps the tree's state
     * and the running centroids. Null for a stream without a tree.
     */
    TreeRunningRelease.Step treeStep(StreamSpec s, WindowSummaries w, WindowRelease.Charger charger)
            throws Exception {
        TreeRunningRelease tree = trees.get(s.id());
        if (tree == null) {
            return null;
        }
        TreeRunningRelease.Step step =
                tree.release(
                        state.runningTree(),
                        w.windowStart,
                        w.stats,
                        charger,
                        state.runningCentroids());
        state.runningTree(step.state());
        PrivacyLedger.Decision d = step.charged().decision();
        LOG.info(
                "stream {} window [{}, {}) {} {}: rho {}",
                s.id(),
                java.time.Instant.ofEpochMilli(w.windowStart),
                java.time.Instant.ofEpochMilli(w.windowStart + s.windowMillis()),
                TreeRunningRelease.SUMMARY,
                d.accepted() ? "released" : "REFUSED (cap reached)",
                step.charged().rho());
        metrics.charged(s.id(), d);
        if (step.release() != null) {
            state.runningCentroids(step.release().centroids());
        }
        return step;
    }

    /**
     * The running sum release after an accepted {@code stats} release ({@link RunningRelease}):
     * keeps the window's noisy cells in the running state, drops windows that left the span, and
     * post-processes the span's sum. Null for a stream without one. Refused windows never get here:
     * they add nothing.
     */
    Publication afterStats(StreamSpec s, long windowStart, RunningRelease.StatsCells stats)
            throws Exception {
        RunningRelease sum = sums.get(s.id());
        if (sum == null) {
            return null;
        }
        Map<Long, long[]> kept =
                state.keepRunning(
                        windowStart,
                        RunningRelease.pack(stats.cells()),
                        s.runningSpanStart(windowStart));
        RunningRelease.Result r =
                sum.release(
                        windowStart,
                        RunningRelease.span(s, windowStart, kept),
                        stats,
                        state.runningCentroids());
        state.runningCentroids(r.centroids());
        return new Publication.Running(r.published());
    }
}
