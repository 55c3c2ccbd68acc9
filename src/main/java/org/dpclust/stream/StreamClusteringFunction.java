package org.dpclust.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.CkmSettings;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.io.OutboundRecord;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmedian.HstWindowSummary;
import org.dpclust.privacy.ContributionBound;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.RecordHasher;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.MaskedSketch;

/**
 * Phase 2 of the window aggregation: one keyed, event-time operator per stream (key = stream id).
 * Its input is {@link WindowPartial}s from phase 1 ({@link WindowPreAggregator}): exact partial
 * summaries, merged into the window's keyed state with one state read and write per partial (not
 * per record), or, for device-unit streams, single records that are contribution-bounded here. Per
 * tumbling window it keeps the window's summaries — never raw records — and, when the watermark
 * passes the window's end, checks the ledger and releases in the fixed summary order. Everything
 * algorithmic is in the core ({@link ClusterStatistics}, {@link DpClusterStatistics}, {@link
 * PrivacyLedger}, {@link ContributionBound}); this class only holds state and calls it.
 *
 * <p>State per stream: per open window, the statistics accumulator (O(cells·d) longs) and, with
 * {@code dp-hst}, one count per point of the public universe (O(|U|) longs; node counts are derived
 * at the release); the last released centroids (O(k·d)); the ledger entries of the current budget
 * period; for device units, additionally the ≤ c kept records per device and open window (their
 * keyed hash, event time and raw clamped features, so a record displaced by one with a smaller hash
 * is subtracted exactly). All window state and the window's timer are gone once the window has
 * fired.
 *
 * <p>Determinism: what enters a window's accumulator does not depend on arrival order or timing
 * (the partition is public and fixed, device bounding keeps the c smallest keyed hashes), and the
 * noise is keyed by HMAC(secret, stream, window, algorithm, mechanism and its parameters, digest of
 * the accumulator). A window replayed after a failure therefore produces a byte-identical release,
 * and a re-release of the same window under other parameters (a redeploy with a new epsilon) draws
 * independent noise.
 *
 * <p>Release schedule (public, docs/event-time.md): Flink time is the Kafka log append time, and a
 * window [s, e) fires when the watermark reaches its close time e + max_lateness − 1 ({@link
 * EventTimePolicy}). Every configured stream's schedule starts at the public first window ({@code
 * job.start}, or after the last window in the ledger snapshot for a job started without state),
 * started by the activation phase 1 sends for each stream — never by a record. From then on every
 * window fires (its timer is chained from the previous window's) up to the schedule's end, and a
 * window without records is released from its all-zero accumulator — noise only, charged like any
 * other — so whether a window had records is not observable. Records never register timers. At the
 * end of a bounded input (watermark +∞) the chain runs to {@code job.end}.
 *
 * <p>Output: encoded {@link CentroidRelease}s ({@code stats}, {@code dp-hst}), {@code ckm} sketch
 * releases and {@link BudgetStatus}es as {@link OutboundRecord}s; the {@code ckm} centroids are
 * decoded from the released sketch downstream, by the {@link SketchDecoder} fed from the side
 * output {@link #RELEASED_SKETCHES}.
 */
public class StreamClusteringFunction
        extends KeyedProcessFunction<String, WindowPartial, OutboundRecord> {
    /** Job accumulator: records that entered a window (operator-side). */
    public static final String ACC_WINDOWED = "records_windowed";

    /**
     * Job accumulator: nanoseconds spent releasing windows (ledger, noise), summed over subtasks;
     * the ckm decoding is {@link SketchDecoder#ACC_DECODE_NANOS}.
     */
    public static final String ACC_RELEASE_NANOS = "release_nanos";

    static final String GUARANTEE_DP = "dp";

    /**
     * Side output: every accepted {@code ckm} release's DP sketch, for the {@link SketchDecoder}
     * downstream, which emits the window's {@code ckm} centroids (decoding is post-processing, kept
     * off this operator).
     */
    public static final OutputTag<ReleasedSketch> RELEASED_SKETCHES =
            new OutputTag<>("released-sketches", ReleasedSketch.TYPE);

    /** Key (window start) and value (a summary's long array) types of the per-window map states. */
    static final TypeInformation<Long> WINDOW_KEY = Types.LONG;

    static final TypeInformation<long[]> WINDOW_VALUE =
            PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO;

    private final List<StreamSpec> streams;
    private final PrivacySecret secret;
    private final Map<String, Map<String, Double>> ledgerSnapshot;
    private final String centroidsTopic;
    private final String sketchesTopic;
    private final String budgetTopic;
    private final EventTimePolicy policy;

    private transient Map<String, StreamRuntime> runtime;
    private transient RecordHasher hasher;
    private transient MapState<Long, long[]> accumulators;
    private transient MapState<Long, long[]> hstCounts;
    private transient MapState<Long, long[]> sketches;
    private transient MapState<String, long[]> kept;
    private transient ValueState<double[]> centroids;
    private transient MapState<String, Double> ledgerEntries;
    private transient ValueState<Boolean> ledgerSeeded;
    private transient ValueState<Long> scheduleStart;
    private transient Counter releases;
    private transient LongCounter windowed;
    private transient LongCounter releaseNanos;
    private transient Counter refused;
    private transient Map<String, Double> spentGauge;

    /**
     * @param ledgerSnapshot totals read from the budget topic at start-up (stream → interval key →
     *     epsilon); used for a stream whose ledger is not in restored state
     * @param policy the public release schedule and window closing (Flink time = append time)
     */
    public StreamClusteringFunction(
            List<StreamSpec> streams,
            PrivacySecret secret,
            Map<String, Map<String, Double>> ledgerSnapshot,
            String centroidsTopic,
            String sketchesTopic,
            String budgetTopic,
            EventTimePolicy policy) {
        this.streams = streams;
        this.secret = secret;
        this.ledgerSnapshot = ledgerSnapshot;
        this.centroidsTopic = centroidsTopic;
        this.sketchesTopic = sketchesTopic;
        this.budgetTopic = budgetTopic;
        this.policy = policy;
    }

    @Override
    public void open(OpenContext ctx) {
        spentGauge = new HashMap<>();
        var group = getRuntimeContext().getMetricGroup().addGroup("dpclust");
        runtime = StreamRuntime.of(streams);
        for (StreamSpec s : streams) {
            spentGauge.put(s.id(), 0.0);
            group.addGroup("stream", s.id()).gauge("spent", () -> spentGauge.get(s.id()));
        }
        hasher = new RecordHasher(secret);
        windowed = new LongCounter();
        getRuntimeContext().addAccumulator(ACC_WINDOWED, windowed);
        releaseNanos = new LongCounter();
        getRuntimeContext().addAccumulator(ACC_RELEASE_NANOS, releaseNanos);
        releases = group.counter("releases");
        refused = group.counter("refused_releases");
        accumulators =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "window-statistics", WINDOW_KEY, WINDOW_VALUE));
        sketches =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "window-sketch", WINDOW_KEY, WINDOW_VALUE));
        hstCounts =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "window-hst-counts", WINDOW_KEY, WINDOW_VALUE));
        kept =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "device-kept-records",
                                        Types.STRING,
                                        PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
        centroids =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "released-centroids",
                                        PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
        ledgerEntries =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>("ledger", Types.STRING, Types.DOUBLE));
        ledgerSeeded =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>("ledger-seeded", Types.BOOLEAN));
        scheduleStart =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>("schedule-start", Types.LONG));
    }

    @Override
    public void processElement(WindowPartial p, Context ctx, Collector<OutboundRecord> out)
            throws Exception {
        StreamRuntime rt = runtime.get(p.streamId);
        StreamSpec s = rt.spec();
        startSchedule(ctx, s);
        if (p.activation) {
            return;
        }
        long windowStart = p.record != null ? s.windowStart(p.record.eventTime) : p.windowStart;
        if (!acceptsWindow(ctx, s, windowStart)) {
            return;
        }
        windowed.add(p.records);
        WindowSummaries w = load(rt, windowStart);
        if (p.record == null) {
            w.merge(p);
        } else if (s.privacyUnit() == PrivacyUnit.RECORD) {
            w.add(p.record);
        } else {
            offerDeviceRecord(rt, windowStart, p.record, w);
        }
        store(windowStart, w);
    }

    // ---- the public release schedule (timers only; no data decides a timer) ----

    /**
     * Starts the stream's release schedule once (state survives restarts): registers the timer of
     * its first window, {@link #firstScheduledWindow}. Called for every element, so also by the
     * activation phase 1 sends for each configured stream before its first watermark; the first
     * window is public whichever element comes first.
     */
    private void startSchedule(Context ctx, StreamSpec s) throws Exception {
        if (scheduleStart.value() != null) {
            return;
        }
        long first = firstScheduledWindow(s);
        scheduleStart.update(first);
        if (policy.scheduled(s, first)) {
            ctx.timerService().registerEventTimeTimer(policy.closeTime(s, first));
        }
    }

    /**
     * The window the schedule starts at: the policy's first window or, for a job started without
     * state on a stream with a ledger, the first window after the last interval in the ledger
     * snapshot (those windows were released by an earlier run; releasing them again would charge
     * and publish them twice). Both are public: the configuration and the published ledger.
     */
    private long firstScheduledWindow(StreamSpec s) {
        long first = policy.firstWindow(s);
        for (String key : ledgerSnapshot.getOrDefault(s.id(), Map.of()).keySet()) {
            long end = PrivacyLedger.Interval.parse(key).end();
            long w = s.windowMillis();
            long after = Math.floorDiv(end, w) * w + (Math.floorMod(end, w) == 0 ? 0 : w);
            first = Math.max(first, after);
        }
        return first;
    }

    /**
     * Whether a partial of this window may still enter state: the window is on the schedule and not
     * closed. Never false in practice for the live schedule (records outside it are dead-lettered
     * upstream, and phase 1 hands over every partial before its watermark closes the window or its
     * input goes idle); a window before a schedule resumed from the ledger is dropped, and dropping
     * keeps "each window fires once".
     */
    private boolean acceptsWindow(Context ctx, StreamSpec s, long windowStart) throws Exception {
        return windowStart >= scheduleStart.value()
                && policy.scheduled(s, windowStart)
                && policy.closeTime(s, windowStart) > ctx.timerService().currentWatermark();
    }

    /**
     * Chains the next window's timer from the one firing: releases continue unconditionally, empty
     * windows included, up to the schedule's end. At the end of a bounded input (watermark +∞) the
     * chain continues only if the schedule has an end (then every scheduled window is released).
     */
    private void scheduleNext(OnTimerContext ctx, StreamSpec s, long windowStart) {
        long next = windowStart + s.windowMillis();
        if (!policy.scheduled(s, next)) {
            return;
        }
        if (ctx.timerService().currentWatermark() == Long.MAX_VALUE && !policy.hasEnd()) {
            return;
        }
        ctx.timerService().registerEventTimeTimer(policy.closeTime(s, next));
    }

    /**
     * The window's summaries from state (wrapped, not copied), or empty ones (a window without
     * records is released too).
     */
    private WindowSummaries load(StreamRuntime rt, long windowStart) throws Exception {
        return WindowSummaries.wrap(
                rt,
                secret,
                windowStart,
                accumulators.get(windowStart),
                rt.frequencies() == null ? null : sketches.get(windowStart),
                rt.hst() == null ? null : hstCounts.get(windowStart));
    }

    private void store(long windowStart, WindowSummaries w) throws Exception {
        accumulators.put(windowStart, w.stats.state());
        if (w.sketch != null) {
            sketches.put(windowStart, w.sketch.state());
        }
        if (w.hst != null) {
            hstCounts.put(windowStart, w.hst);
        }
    }

    /**
     * Keeps the device's c records with the smallest keyed hash. Each kept entry is [hash, event
     * time, raw bits of the clamped features], enough to recompute exactly what the record added to
     * every summary, so a displaced record is subtracted exactly.
     */
    private void offerDeviceRecord(
            StreamRuntime rt, long windowStart, ValidRecord r, WindowSummaries w) throws Exception {
        StreamSpec s = rt.spec();
        int d = s.dimension();
        int stride = 2 + d;
        String key = windowStart + "|" + r.deviceId;
        long[] entries = kept.get(key);
        if (entries == null) {
            entries = new long[0];
        }
        byte[] identity = r.identity();
        long hash = hasher.hash(identity);
        int slot = ContributionBound.offer(entries, stride, hash, s.contributionBound());
        if (slot == ContributionBound.DROP) {
            return;
        }
        if (slot == ContributionBound.APPEND) {
            entries = java.util.Arrays.copyOf(entries, entries.length + stride);
            slot = entries.length / stride - 1;
        } else {
            int off = slot * stride;
            double[] x = new double[d];
            for (int j = 0; j < d; j++) {
                x[j] = Double.longBitsToDouble(entries[off + 2 + j]);
            }
            w.subtract(x, ValidRecord.identity(r.streamId, r.deviceId, entries[off + 1], x));
        }
        int off = slot * stride;
        entries[off] = hash;
        entries[off + 1] = r.eventTime;
        for (int j = 0; j < d; j++) {
            entries[off + 2 + j] = Double.doubleToRawLongBits(r.features[j]);
        }
        kept.put(key, entries);
        w.add(r.features, identity);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<OutboundRecord> out)
            throws Exception {
        long started = System.nanoTime();
        try {
            release(timestamp, ctx, out);
        } finally {
            releaseNanos.add(System.nanoTime() - started);
        }
    }

    private void release(long timestamp, OnTimerContext ctx, Collector<OutboundRecord> out)
            throws Exception {
        String streamId = ctx.getCurrentKey();
        StreamRuntime rt = runtime.get(streamId);
        StreamSpec s = rt.spec();
        long windowStart = policy.windowOfCloseTime(s, timestamp);
        long windowEnd = windowStart + s.windowMillis();
        WindowSummaries w =
                load(rt, windowStart); // empty if the window had no records: it is released too
        accumulators.remove(windowStart);
        sketches.remove(windowStart);
        hstCounts.remove(windowStart);
        clearDeviceEntries(windowStart);
        scheduleNext(ctx, s, windowStart);
        PrivacyLedger ledger = loadLedger(s);
        for (Summary summary : s.summaries()) {
            PrivacyLedger.Decision decision =
                    ledger.charge(
                            new PrivacyLedger.Interval(windowStart, windowEnd),
                            s.epsilonPerRelease());
            BudgetStatus status =
                    ReleaseAssembler.budget(s, "stream", summary.wireName(), decision);
            if (!decision.accepted()) {
                refused.inc();
                out.collect(ReleaseAssembler.toOutbound(budgetTopic, status));
                continue;
            }
            storeLedger(ledger, decision.interval());
            spentGauge.put(streamId, decision.spent());
            if (summary == Summary.CKM) { // the sketch now, its centroids from the SketchDecoder
                releaseCkm(rt, streamId, windowStart, windowEnd, w.sketch, decision, ctx, out);
                releases.inc();
                out.collect(ReleaseAssembler.toOutbound(budgetTopic, status));
                continue;
            }
            DpClusterStatistics.Release r =
                    switch (summary) {
                        case STATS -> releaseStats(rt, streamId, windowStart, w.stats);
                        case CKM ->
                                throw new IllegalStateException(
                                        "ckm centroids are decoded by the SketchDecoder");
                        case DP_HST -> releaseHst(rt, streamId, windowStart, w.hst);
                    };
            CentroidRelease release =
                    ReleaseAssembler.release(
                            s,
                            summary.wireName(),
                            "stream",
                            GUARANTEE_DP,
                            windowStart,
                            windowEnd,
                            1,
                            r,
                            decision);
            out.collect(ReleaseAssembler.toOutbound(centroidsTopic, release));
            releases.inc();
            out.collect(ReleaseAssembler.toOutbound(budgetTopic, status));
        }
    }

    private DpClusterStatistics.Release releaseStats(
            StreamRuntime rt, String streamId, long windowStart, ClusterStatistics stats)
            throws Exception {
        StreamSpec s = rt.spec();
        PrivacyRandom rng =
                PrivacyRandom.forRelease(
                        secret,
                        new ReleaseContext(
                                streamId,
                                windowStart,
                                Summary.STATS.wireName(),
                                DpClusterStatistics.mechanismId(
                                        s.epsilonPerRelease(),
                                        s.statsCountFraction(),
                                        s.unitContribution(),
                                        s.statsCells()),
                                stats.digest()));
        DpClusterStatistics.Release r =
                DpClusterStatistics.release(
                        stats,
                        rt.codec(),
                        currentCentroids(rt),
                        s.epsilonPerRelease(),
                        s.statsCountFraction(),
                        s.unitContribution(),
                        s.statsUpdate(),
                        rng);
        centroids.update(flatten(r.centroids()));
        return r;
    }

    /**
     * Publishes the DP sketch on the sketches topic and hands it to the {@link SketchDecoder} (side
     * output {@link #RELEASED_SKETCHES}), which emits the window's ckm centroids.
     */
    private void releaseCkm(
            StreamRuntime rt,
            String streamId,
            long windowStart,
            long windowEnd,
            MaskedSketch sketch,
            PrivacyLedger.Decision decision,
            OnTimerContext ctx,
            Collector<OutboundRecord> out) {
        StreamSpec s = rt.spec();
        CkmSettings c = s.ckm();
        PrivacyRandom rng =
                PrivacyRandom.forRelease(
                        secret,
                        new ReleaseContext(
                                streamId,
                                windowStart,
                                Summary.CKM.wireName(),
                                "masked-sketch-geometric-v1(epsilon="
                                        + s.epsilonPerRelease()
                                        + ",c="
                                        + s.unitContribution()
                                        + ","
                                        + c
                                        + ")",
                                sketch.digest()));
        DpSketchRelease.Result noisy =
                DpSketchRelease.addRemove(
                        sketch,
                        s.epsilonPerRelease(),
                        c.countFraction(),
                        s.unitContribution(),
                        rng);
        out.collect(
                ReleaseAssembler.toOutbound(
                        sketchesTopic,
                        ReleaseAssembler.sketch(
                                s,
                                windowStart,
                                windowEnd,
                                rt.frequencies(),
                                c.r(),
                                noisy,
                                decision)));
        ctx.output(
                RELEASED_SKETCHES,
                ReleasedSketch.of(streamId, windowStart, windowEnd, noisy, decision));
    }

    private DpClusterStatistics.Release releaseHst(
            StreamRuntime rt, String streamId, long windowStart, long[] multiplicities) {
        StreamSpec s = rt.spec();
        byte[] digest = new org.dpclust.privacy.AccumulatorDigest().add(multiplicities).digest();
        PrivacyRandom rng =
                PrivacyRandom.forRelease(
                        secret,
                        new ReleaseContext(
                                streamId,
                                windowStart,
                                Summary.DP_HST.wireName(),
                                HstWindowSummary.mechanismId(
                                        s.epsilonPerRelease(),
                                        s.unitContribution(),
                                        s.hstUniverse(),
                                        s.hstMaxLevels()),
                                digest));
        HstWindowSummary.Release h =
                rt.hst()
                        .release(
                                multiplicities,
                                s.k(),
                                s.epsilonPerRelease(),
                                s.unitContribution(),
                                rng);
        return new DpClusterStatistics.Release(h.centroids(), new double[0], h.parameters());
    }

    private double[][] currentCentroids(StreamRuntime rt) throws Exception {
        double[] flat = centroids.value();
        if (flat == null) {
            return rt.initial();
        }
        int k = rt.spec().k();
        int d = rt.spec().dimension();
        double[][] c = new double[k][d];
        for (int i = 0; i < k; i++) {
            System.arraycopy(flat, i * d, c[i], 0, d);
        }
        return c;
    }

    private static double[] flatten(double[][] c) {
        int d = c[0].length;
        double[] flat = new double[c.length * d];
        for (int i = 0; i < c.length; i++) {
            System.arraycopy(c[i], 0, flat, i * d, d);
        }
        return flat;
    }

    private void clearDeviceEntries(long windowStart) throws Exception {
        String prefix = windowStart + "|";
        List<String> done = new ArrayList<>();
        for (Iterator<String> it = kept.keys().iterator(); it.hasNext(); ) {
            String k = it.next();
            if (k.startsWith(prefix)) {
                done.add(k);
            }
        }
        for (String k : done) {
            kept.remove(k);
        }
    }

    private PrivacyLedger loadLedger(StreamSpec s) throws Exception {
        if (ledgerSeeded.value() == null) {
            Map<String, Double> seed = ledgerSnapshot.getOrDefault(s.id(), Map.of());
            for (Map.Entry<String, Double> e : seed.entrySet()) {
                ledgerEntries.put(e.getKey(), e.getValue());
            }
            ledgerSeeded.update(true);
        }
        PrivacyLedger ledger =
                new PrivacyLedger(
                        s.cap(), s.budgetPeriodMillis(), s.privacyUnit() == PrivacyUnit.DEVICE);
        for (Map.Entry<String, Double> e : ledgerEntries.entries()) {
            ledger.restore(PrivacyLedger.Interval.parse(e.getKey()), e.getValue());
        }
        return ledger;
    }

    private void storeLedger(PrivacyLedger ledger, PrivacyLedger.Interval charged)
            throws Exception {
        ledgerEntries.put(charged.key(), ledger.entries().get(charged));
        long periodStart = ledger.periodStart(charged.start());
        List<String> old = new ArrayList<>();
        for (String k : ledgerEntries.keys()) {
            if (PrivacyLedger.Interval.parse(k).end() <= periodStart) {
                old.add(k);
            }
        }
        for (String k : old) {
            ledgerEntries.remove(k);
        }
    }
}
