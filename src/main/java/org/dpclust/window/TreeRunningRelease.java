package org.dpclust.window;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.dpclust.config.StreamSpec;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.AccumulatorDigest;
import org.dpclust.privacy.BinaryTreeAggregation;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.ReleaseContext;

/**
 * The running releases of a stream with {@code running.mode: tree} (record units, {@code
 * accounting: zcdp}; docs/zcdp.md#running-releases-published-by-the-stream-job), in plain Java:
 * binary tree aggregation ({@link BinaryTreeAggregation}) of the windows' EXACT {@code stats} cells
 * over the budget period, published on the running topic like the {@code sum} mode's releases
 * ({@link RunningRelease}, whose post-processing it reuses), with {@code mechanism_params} {@code
 * tree_levels} (L), {@code tree_nodes} (the noisy nodes summed) and {@code tree_rho} (ρ_tree).
 *
 * <h2>The tree</h2>
 *
 * Horizon T = the budget period's windows (public); the tree restarts at each period start. Window
 * i of the period (i = (window start − period start) / window) is leaf i: the exact cell counts and
 * centred fixed-point cell sums ({@link ClusterStatistics}, what the window's {@code stats} release
 * noised) if the window's tree charge was accepted, else an empty leaf — as are the windows of the
 * period before the stream's schedule started (all public: the schedule and the ledger's decisions
 * are). Counts and sums are two trees over the same leaves: the count tree with Δ₂² = c² ({@link
 * DpClusterStatistics#countL2SensitivitySquared}) and ρ_count = ρ_tree·f, the sum tree with Δ₂² =
 * c²·d·2^62 ({@link DpClusterStatistics#sumL2SensitivitySquared}) and ρ_sum = ρ_tree − ρ_count, f
 * the stats release's count share ({@link DpClusterStatistics#gaussianCountFraction}). Every
 * completed dyadic node gets discrete Gaussian noise with σ² = L·Δ₂²/(2ρ_part) ({@link
 * BinaryTreeAggregation}), drawn through {@link PrivacyRandom} keyed by HMAC(secret, stream, period
 * start, {@code stats-tree/counts} or {@code /sums}, mechanism id, digest of (level, index, the
 * node's exact sum)), so a replay draws the same noise and other contents independent noise. The
 * running release at window i is the post-processing of the sum of the ≤ L noisy nodes that cover
 * windows 0 .. i ({@link BinaryTreeAggregation#runningSum}); its reported noise scales are √(nodes)
 * times a node's σ.
 *
 * <h2>Privacy and charge</h2>
 *
 * A record lies in one window, hence in exactly one node per level: L nodes, each ρ_part/L-zCDP for
 * its part at the part's sensitivity, so all nodes the record can ever influence cost ρ_count +
 * ρ_sum = ρ_tree by zCDP composition (Bun and Steinke 2016, Lemma 2.3); running releases are
 * post-processing. The tree is a mechanism in addition to the window's own releases, so {@link
 * #release} charges ρ_tree ({@link StreamSpec#rhoPerRelease}; {@link #SUMMARY} in the ledger) on
 * the window's PUBLIC interval through the fenced ledger ({@link WindowRelease.Charger}) BEFORE the
 * leaf enters the tree; a refused charge adds an empty leaf. A record in window w is thus charged
 * the window's summaries' ρ plus ρ_tree on w's interval, which is its whole loss (later nodes that
 * contain w are covered by w's tree charge), and the ledger's per-window maximum composition of
 * record units stays exact. Device units are refused at start-up ({@link StreamSpec}): a device in
 * every window moves a level-h node by 2^h windows' worth. The release states {@code rho} = ρ_tree
 * and the ledger's spend after the tree charge (unlike the free {@code sum} mode).
 *
 * <h2>State</h2>
 *
 * {@code [period start, count tree state, sum tree state]} ({@link BinaryTreeAggregation#state}):
 * {@link StreamSpec#treeStateLongs} longs, about 2L·cells·(d + 1); the operator keeps it in keyed
 * state and a restored state continues byte-identically. It holds private exact partial sums.
 */
public final class TreeRunningRelease {
    /** The tree's name in the ledger (its charge's summary) and in its noise keys. */
    public static final String SUMMARY = "stats-tree";

    private final StreamRuntime rt;
    private final PrivacySecret secret;
    private final String mechanism;
    private final long horizon;
    private final double rho;
    private final double rhoCount;
    private final double rhoSum;
    private final BigInteger sumL2;
    private final BinaryTreeAggregation countTree;
    private final BinaryTreeAggregation sumTree;
    private final DpClusterStatistics.ReleaseParams params;

    public TreeRunningRelease(StreamRuntime rt, PrivacySecret secret) {
        StreamSpec s = rt.spec();
        if (!s.running().tree()) {
            throw new IllegalArgumentException("stream '" + s.id() + "' has no running tree");
        }
        this.rt = rt;
        this.secret = secret;
        this.mechanism = Mechanisms.stats(s) + "/running-tree-v1";
        this.horizon = s.budgetPeriodMillis() / s.windowMillis();
        this.rho = s.rhoPerRelease();
        this.rhoCount =
                rho
                        * DpClusterStatistics.gaussianCountFraction(
                                s.statsCountFraction(), s.dimension());
        this.rhoSum = BudgetSplit.remainder(rho, rhoCount);
        this.sumL2 =
                DpClusterStatistics.sumL2SensitivitySquared(s.dimension(), s.unitContribution());
        // empty trees that fix each part's length, horizon and node variance; never add to them
        this.countTree =
                new BinaryTreeAggregation(
                        s.statsCells(),
                        horizon,
                        DpClusterStatistics.countL2SensitivitySquared(s.unitContribution()),
                        rhoCount,
                        (level, index, node) -> {
                            throw new IllegalStateException("a template tree");
                        });
        this.sumTree =
                new BinaryTreeAggregation(
                        s.statsCells() * s.dimension(),
                        horizon,
                        sumL2,
                        rhoSum,
                        (level, index, node) -> {
                            throw new IllegalStateException("a template tree");
                        });
        this.params =
                DpClusterStatistics.ReleaseParams.zcdp(
                        rho, s.statsCountFraction(), s.unitContribution(), s.statsUpdate());
    }

    /** ρ_tree, charged on every window's interval. */
    public double rho() {
        return rho;
    }

    /**
     * One window's tree step.
     *
     * @param state the tree's state after it ({@link StreamSpec#treeStateLongs} longs)
     * @param charged the ledger's decision on the window's tree charge
     * @param release the running release, null when the charge was refused
     */
    public record Step(
            long[] state, WindowRelease.Charged charged, RunningRelease.Result release) {}

    /**
     * Charges ρ_tree for the window, adds its leaf (its exact cells if accepted, else empty) and
     * makes the running release.
     *
     * @param state the tree's state ({@link Step#state()}), or null before the first window
     * @param windowStart the window's start
     * @param exact the window's exact stats cells (private)
     * @param ledger charges the stream's ledger (once, before the leaf enters the tree)
     * @param previous the previous running release's centroids (row-major k·d), or null
     */
    public Step release(
            long[] state,
            long windowStart,
            ClusterStatistics exact,
            WindowRelease.Charger ledger,
            double[] previous)
            throws Exception {
        Advance a = advance(state, windowStart, exact, ledger);
        if (a.running() == null) {
            return new Step(a.state(), a.charged(), null);
        }
        // ---- post-processing: only released noisy nodes and public inputs below this line ----
        Map<String, Double> extra = new TreeMap<>();
        extra.put("windows_summed", (double) a.windows());
        extra.put("tree_levels", (double) a.levels());
        extra.put("tree_nodes", (double) a.nodes());
        extra.put("tree_rho", rho);
        RunningRelease.Result r =
                RunningRelease.postProcess(
                        rt,
                        secret,
                        mechanism,
                        windowStart,
                        rt.spec().runningSpanStart(windowStart),
                        a.windows(),
                        a.running(),
                        params,
                        previous,
                        extra,
                        a.charged());
        return new Step(a.state(), a.charged(), r);
    }

    /**
     * The mechanism's part of a window's step, before post-processing.
     *
     * @param running the noisy running cells (the sum of the covering nodes), null if refused
     * @param windows the windows of the period the running sum covers
     * @param nodes the noisy nodes summed
     */
    record Advance(
            long[] state,
            WindowRelease.Charged charged,
            DpClusterStatistics.NoisyCells running,
            int windows,
            int levels,
            int nodes) {}

    /** The charge, the leaf and the noisy running cells of {@link #release}. */
    Advance advance(
            long[] state, long windowStart, ClusterStatistics exact, WindowRelease.Charger ledger)
            throws Exception {
        StreamSpec s = rt.spec();
        ReleaseBudget budget = new ReleaseBudget.Zcdp(rho);
        WindowRelease.Charged charged =
                WindowRelease.paid(
                        ledger.charge(
                                SUMMARY,
                                new PrivacyLedger.Interval(
                                        windowStart, windowStart + s.windowMillis()),
                                budget,
                                WindowRelease.fingerprint(
                                        secret,
                                        new ReleaseContext(
                                                s.id(),
                                                windowStart,
                                                SUMMARY,
                                                mechanism,
                                                chargeDigest(state, exact)))),
                        budget);
        boolean accepted = charged.decision().accepted();
        long periodStart = s.runningSpanStart(windowStart);
        long index = (windowStart - periodStart) / s.windowMillis();
        boolean fresh = state == null || state[0] != periodStart;
        BinaryTreeAggregation counts = tree(fresh ? null : state, periodStart, true);
        BinaryTreeAggregation sums = tree(fresh ? null : state, periodStart, false);
        if (counts.windows() > index) {
            throw new IllegalStateException(
                    "window " + windowStart + " is already in the running tree");
        }
        while (counts.windows() < index) { // windows of the period before the schedule: empty
            counts.add(new long[s.statsCells()]);
            sums.add(new long[s.statsCells() * s.dimension()]);
        }
        counts.add(accepted ? exact.counts() : new long[s.statsCells()]);
        sums.add(accepted ? exact.sums() : new long[s.statsCells() * s.dimension()]);
        long[] count = counts.state();
        long[] sum = sums.state();
        long[] next = new long[1 + count.length + sum.length];
        next[0] = periodStart;
        System.arraycopy(count, 0, next, 1, count.length);
        System.arraycopy(sum, 0, next, 1 + count.length, sum.length);
        int nodes = counts.nodesInRunningSum();
        DpClusterStatistics.NoisyCells running =
                !accepted
                        ? null
                        : new DpClusterStatistics.NoisyCells(
                                counts.runningSum(),
                                sums.runningSum(),
                                rhoCount,
                                rhoSum,
                                s.unitContribution(),
                                DpClusterStatistics.ceilSqrt(sumL2),
                                Math.sqrt(nodes * counts.variance()),
                                Math.sqrt(nodes * sums.variance()),
                                true);
        return new Advance(next, charged, running, (int) (index + 1), counts.levels(), nodes);
    }

    /**
     * What the tree charge of a window pays for: the nodes this step completes, i.e. the window's
     * leaf AND the tree state it joins (the earlier leaves of those nodes). A replay from the same
     * restored state gives the same digest — the same charge, the same keyed node noise, the same
     * bytes. Anything else that would redraw nodes holding this window (a restart without the tree
     * state, which turns the period's earlier windows into empty leaves) gives another digest, so
     * the ledger charges ρ_tree again instead of treating it as a replay: the window's records then
     * appear in new nodes only after paying for them. (Earlier windows' records cannot reappear in
     * redrawn nodes: with the state restored, every input of the node noise — the state, the leaf,
     * the secret and the mechanism id, whose parameters are public parameters of the state — is the
     * same.)
     */
    private static byte[] chargeDigest(long[] state, ClusterStatistics exact) {
        return new AccumulatorDigest()
                .add(state == null ? new long[0] : state)
                .add(exact.counts())
                .add(exact.sums())
                .digest();
    }

    /**
     * The latest released (noisy, public) node of {@code level} of the count or sum tree in {@code
     * state}, or null: what the tree has published at that level so far.
     */
    long[] node(long[] state, boolean counts, int level) {
        return tree(state, state[0], counts).node(level);
    }

    /** The count ({@code counts}) or sum tree of the period, from {@code state} or new. */
    private BinaryTreeAggregation tree(long[] state, long periodStart, boolean counts) {
        StreamSpec s = rt.spec();
        String name = SUMMARY + (counts ? "/counts" : "/sums");
        BinaryTreeAggregation.NodeRandom random =
                (level, index, node) ->
                        PrivacyRandom.forRelease(
                                secret,
                                new ReleaseContext(
                                        s.id(),
                                        periodStart,
                                        name,
                                        mechanism,
                                        new AccumulatorDigest()
                                                .add(level)
                                                .add(index)
                                                .add(node)
                                                .digest()));
        if (state == null) {
            return (counts ? countTree : sumTree).with(random, null);
        }
        int countLongs = (int) BinaryTreeAggregation.stateLongs(s.statsCells(), horizon);
        int from = counts ? 1 : 1 + countLongs;
        int to = counts ? 1 + countLongs : state.length;
        return (counts ? countTree : sumTree).with(random, Arrays.copyOfRange(state, from, to));
    }

    /** The noise standard deviation σ of every count ({@code counts}) or sum node. */
    double nodeSigma(boolean counts) {
        return Math.sqrt((counts ? countTree : sumTree).variance());
    }
}
