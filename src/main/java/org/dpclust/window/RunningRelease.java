package org.dpclust.window;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.StreamSpec;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.AccumulatorDigest;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseContext;

/**
 * The running release of one stream at one window ({@code running:},
 * docs/zcdp.md#running-releases-published-by-the-stream-job), in plain Java: the sum of the noisy
 * {@code stats} cells of the released windows of its span (the last W windows, or the budget period
 * so far: {@link StreamSpec#runningSpanStart}), post-processed into k centroids by the same code as
 * a window's centroids ({@link DpClusterStatistics#postProcess}), published as a {@link
 * CentroidRelease} with {@code mode} {@value #MODE} and {@code algorithm} {@code stats} on the
 * running topic: {@code window_start} is the first summed window's start, {@code window_end} this
 * window's end, {@code windows_covered} the number of windows summed, and {@code mechanism_params}
 * add {@code windows_summed} and {@code span_windows} (the span's length in windows). The keyed
 * operator keeps the span's noisy cells ({@link #pack}) in keyed state and calls {@link #release}
 * after each accepted {@code stats} release.
 *
 * <h2>Privacy: a function of released values and public inputs only</h2>
 *
 * A running release is computed from (a) the noisy cell counts and fixed-point sums that the window
 * releases of its span computed ({@code DpClusterStatistics.NoisyCells}: the charged mechanism's
 * output — published on the cells topic with {@code stats.publish_cells}, kept operator-side
 * otherwise, post-processing either way), (b) the public schedule (window starts, W, the budget
 * period), (c) which of those windows' {@code stats} charges the ledger accepted — a decision on
 * public amounts, intervals and caps, itself published on the budget topic — (d) the public
 * parameters of the stream (partition, bounds, k, the noise scales) and its previous running
 * centroids (a running release, so again post-processing), and (e) post-processing randomness. No
 * exact summary, record or secret-dependent value other than the post-processing randomness enters
 * it, so by the post-processing property of DP (and of zCDP) it costs nothing: it is charged
 * nothing, draws no noise, and its guarantee is that of the window releases it sums, which the
 * ledger has already charged. Its {@code epsilon} (and {@code rho}) are therefore 0 — its
 * incremental cost, so that a consumer adding up {@code epsilon} over all topics gets the ledger's
 * total — and {@code spent}, {@code cap} (and the ρ spend and cap) are the ledger's after the
 * window's {@code stats} charge. What protects a unit in a running release is what protects it in
 * the windows summed: {@code mechanism_params} carry {@code span_charged_epsilon} (pure) or {@code
 * span_charged_rho} (zCDP), the sum of those windows' {@code stats} charges — the composed cost for
 * a device present in all of them (a record lies in one window, so for record units it is one
 * window's charge).
 *
 * <p>A refused window publishes no running release and adds nothing to the span; the span's
 * arithmetic moves on with the public schedule all the same. Whether a window was refused is public
 * (see (c)), so a refusal changes the running releases only through public values. An empty window
 * is released (and charged) like any other, so its noisy cells are summed like any other.
 *
 * <h2>Noise of the sum</h2>
 *
 * The n summed windows' noises are independent, so the sum's noise standard deviation is √n times
 * one window's; the released scales ({@code count_noise_sd}, …, or the geometric scales) are scaled
 * by √n, and so is the post-processing's 3-scale threshold for usable cells. The signal of a
 * stationary mixture grows n times: a running release over n windows is about √n times less noisy
 * relative to its signal than one window's.
 *
 * <h2>Exactness</h2>
 *
 * The sum is exact in long arithmetic and taken in window order; a cell whose sum would leave the
 * long range saturates at {@link Long#MAX_VALUE} or {@link Long#MIN_VALUE} (never in practice: a
 * cell's fixed-point sum is below 2^31 per record, so it would take 2^32 records in one cell over
 * the span). Replays are byte-identical: the inputs are restored from checkpointed state and the
 * post-processing randomness is keyed by the secret, the window and the sum's digest.
 */
public final class RunningRelease {
    /** {@code CentroidRelease.mode} of running releases. */
    public static final String MODE = "running";

    /** Name of the post-processing in its randomness key. */
    private static final String KEY = "stats-running";

    private final StreamRuntime rt;
    private final PrivacySecret secret;
    private final String mechanism;

    public RunningRelease(StreamRuntime rt, PrivacySecret secret) {
        this.rt = rt;
        this.secret = secret;
        this.mechanism = Mechanisms.stats(rt.spec()) + "/running-sum-v1";
    }

    /**
     * What a window's accepted {@code stats} release leaves for the running releases: its noisy
     * cells, the release's public parameters and the ledger's decision.
     */
    public record StatsCells(
            DpClusterStatistics.NoisyCells cells,
            DpClusterStatistics.ReleaseParams params,
            WindowRelease.Charged charged) {}

    /**
     * A running release.
     *
     * @param published the running topic's record
     * @param centroids its centroids, row-major k·d (the next running release's starting point)
     */
    public record Result(CentroidRelease published, double[] centroids) {}

    /** The noisy cells as kept in state: the counts, then the fixed-point sums (cells·d). */
    public static long[] pack(DpClusterStatistics.NoisyCells c) {
        long[] v = new long[c.counts().length + c.sums().length];
        System.arraycopy(c.counts(), 0, v, 0, c.counts().length);
        System.arraycopy(c.sums(), 0, v, c.counts().length, c.sums().length);
        return v;
    }

    /**
     * The entries of {@code kept} (window start → packed noisy cells) that belong to the span of
     * the running release at {@code windowStart}: those from {@link StreamSpec#runningSpanStart} up
     * to {@code windowStart}. Everything before the span start can be dropped from state.
     */
    public static SortedMap<Long, long[]> span(
            StreamSpec s, long windowStart, Map<Long, long[]> kept) {
        long from = s.runningSpanStart(windowStart);
        SortedMap<Long, long[]> in = new TreeMap<>();
        for (Map.Entry<Long, long[]> e : kept.entrySet()) {
            if (e.getKey() >= from && e.getKey() <= windowStart) {
                in.put(e.getKey(), e.getValue());
            }
        }
        return in;
    }

    /**
     * The running release at the window starting at {@code windowStart}.
     *
     * @param span the packed noisy cells of the span's released windows by window start ({@link
     *     #span}), this window's included
     * @param latest this window's accepted {@code stats} release
     * @param previous the previous running release's centroids (row-major k·d), or null: the public
     *     initial centroids
     */
    public Result release(
            long windowStart, SortedMap<Long, long[]> span, StatsCells latest, double[] previous) {
        StreamSpec s = rt.spec();
        DpClusterStatistics.NoisyCells sum = sum(span, latest.cells());
        int n = span.size();
        Map<String, Double> extra = new TreeMap<>();
        extra.put("windows_summed", (double) n);
        // every summed window's stats release was charged the same public amount
        WindowRelease.Charged charged = latest.charged();
        if (charged.zcdp()) {
            extra.put("span_charged_rho", n * charged.rho());
        } else {
            extra.put("span_charged_epsilon", n * charged.decision().epsilon());
        }
        return postProcess(
                rt,
                secret,
                mechanism,
                windowStart,
                span.firstKey(),
                n,
                sum,
                latest.params(),
                previous,
                extra,
                free(charged));
    }

    /**
     * The post-processing of a running sum into a published running release (shared by the sum and
     * the tree mode, {@link TreeRunningRelease}): randomness keyed by the secret, the window,
     * {@code mechanism} and the sum's digest; centroids by {@link DpClusterStatistics#postProcess};
     * {@code mechanism_params} are the post-processing's, {@code extra} and {@code span_windows}.
     * Only released (noisy) values and public inputs enter it.
     *
     * @param from the first covered window's start
     * @param n the windows the sum covers
     * @param stated the charge the release states
     */
    static Result postProcess(
            StreamRuntime rt,
            PrivacySecret secret,
            String mechanism,
            long windowStart,
            long from,
            int n,
            DpClusterStatistics.NoisyCells sum,
            DpClusterStatistics.ReleaseParams params,
            double[] previous,
            Map<String, Double> extra,
            WindowRelease.Charged stated) {
        StreamSpec s = rt.spec();
        // ---- post-processing: only released noisy values and public inputs below this line ----
        PrivacyRandom rng =
                PrivacyRandom.forRelease(
                        secret,
                        new ReleaseContext(
                                s.id(),
                                windowStart,
                                KEY,
                                mechanism,
                                new AccumulatorDigest()
                                        .add(n)
                                        .add(sum.counts())
                                        .add(sum.sums())
                                        .digest()));
        DpClusterStatistics.Release r =
                DpClusterStatistics.postProcess(
                        sum, rt.codec(), WindowRelease.unflatten(rt, previous), params, rng);
        Map<String, Double> p = new TreeMap<>(r.parameters());
        p.putAll(extra);
        long windowEnd = windowStart + s.windowMillis();
        p.put(
                "span_windows",
                (double) ((windowEnd - s.runningSpanStart(windowStart)) / s.windowMillis()));
        CentroidRelease published =
                ReleaseAssembler.release(
                        s,
                        "stats",
                        MODE,
                        Guarantee.DP,
                        from,
                        windowEnd,
                        n,
                        new ReleasedCentroids(r.centroids(), r.weights(), p),
                        stated);
        return new Result(published, WindowRelease.flatten(r.centroids()));
    }

    /**
     * The sum of the span's packed noisy cells, in window order, with {@code one}'s (a window's)
     * public parameters and its noise scales times √n for n summed windows.
     */
    static DpClusterStatistics.NoisyCells sum(
            SortedMap<Long, long[]> span, DpClusterStatistics.NoisyCells one) {
        int cells = one.counts().length;
        long[] counts = new long[cells];
        long[] sums = new long[one.sums().length];
        for (long[] v : span.values()) {
            for (int i = 0; i < cells; i++) {
                counts[i] = saturatedAdd(counts[i], v[i]);
            }
            for (int i = 0; i < sums.length; i++) {
                sums[i] = saturatedAdd(sums[i], v[cells + i]);
            }
        }
        double root = Math.sqrt(span.size());
        return new DpClusterStatistics.NoisyCells(
                counts,
                sums,
                one.epsilonCount(),
                one.epsilonSum(),
                one.countSensitivity(),
                one.sumSensitivity(),
                one.countScale() * root,
                one.sumScale() * root,
                one.gaussian());
    }

    /**
     * The window's charge as the running release states it: nothing spent by this release (ε and ρ
     * 0), the ledger's spend and cap after the window's charge.
     */
    private static WindowRelease.Charged free(WindowRelease.Charged c) {
        PrivacyLedger.Decision d = c.decision();
        PrivacyLedger.Decision none =
                new PrivacyLedger.Decision(
                        d.accepted(),
                        d.interval(),
                        0.0,
                        d.intervalTotal(),
                        d.spent(),
                        d.cap(),
                        d.periodStart(),
                        d.periodEnd(),
                        d.lifetime());
        return new WindowRelease.Charged(
                none, c.zcdp() ? 0.0 : Double.NaN, c.rhoSpent(), c.rhoCap(), c.delta());
    }

    /** a + b, or the long bound on the side it would overflow to. */
    static long saturatedAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }
}
