package org.dpclust.stream;

import java.util.ArrayList;
import java.util.HashMap;
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
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.io.PublicationTypeInfo;
import org.dpclust.privacy.DeviceReservoir;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.RecordHasher;
import org.dpclust.window.Ledgers;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.WindowRelease;
import org.dpclust.window.WindowSummaries;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 of the window aggregation, keyed by stream: holds each open window's summaries, the
 * device reservoirs, the released centroids and the ledger in keyed state, and one event-time timer
 * per window; the algorithms are in the Flink-free core ({@link WindowSummaries}, {@link
 * DeviceReservoir}, {@link WindowRelease}). Input: {@link WindowPartial}s of phase 1 (merged with
 * one state read and write per partial), or single device-unit records, bounded here. When the
 * watermark passes a window's end, the window's release sequence runs and its {@link Publication}s
 * are emitted; accepted {@code ckm} sketches go to {@link #RELEASED_SKETCHES} for the {@link
 * SketchDecoder}. All of a window's state and its timer are gone once it has fired.
 *
 * <p>Empty windows are released too (from the all-zero summaries, charged like any other): from a
 * stream's first record on, every window fires, each timer chained from the previous window's,
 * until the end of a bounded input. Replays are byte-identical: what enters a window does not
 * depend on arrival order, and the noise is keyed by the window's contents (see {@link
 * WindowRelease}). The secret is loaded in {@link #open} from its {@link SecretSource}, never
 * carried in this serialized function.
 */
public class StreamClusteringFunction
        extends KeyedProcessFunction<String, WindowPartial, Publication>
        implements ResultTypeQueryable<Publication> {
    private static final Logger LOG = LoggerFactory.getLogger(StreamClusteringFunction.class);

    /** Job accumulator: records that entered a window (operator-side). */
    public static final String ACC_WINDOWED = "records_windowed";

    /** Job accumulator: nanoseconds spent releasing windows (ledger, noise), over subtasks. */
    public static final String ACC_RELEASE_NANOS = "release_nanos";

    /** Side output: every accepted {@code ckm} release's DP sketch, for the decoder. */
    public static final OutputTag<ReleasedSketch> RELEASED_SKETCHES =
            new OutputTag<>("released-sketches", TypeInformation.of(ReleasedSketch.class));

    /** Key (window start) and value (a summary's long array) types of the per-window map states. */
    static final TypeInformation<Long> WINDOW_KEY = Types.LONG;

    static final TypeInformation<long[]> WINDOW_VALUE =
            PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO;

    private final List<StreamSpec> streams;
    private final SecretSource secretSource;
    private final Map<String, Map<String, Double>> ledgerSnapshot;

    private transient PrivacySecret secret;
    private transient Map<String, StreamRuntime> runtime;
    private transient Map<String, WindowRelease> core;
    private transient RecordHasher hasher;
    private transient MapState<Long, long[]> statistics, sketches, hstCounts;
    private transient MapState<String, long[]> kept;
    private transient ValueState<double[]> centroids;
    private transient MapState<String, Double> ledgerEntries;
    private transient ValueState<Boolean> ledgerSeeded;
    private transient Counter releases, refused;
    private transient LongCounter windowed, releaseNanos;
    private transient Map<String, Double> spentGauge;

    /**
     * @param ledgerSnapshot totals read from the budget topic at start-up (stream → interval key →
     *     epsilon); used for a stream whose ledger is not in restored state
     */
    public StreamClusteringFunction(
            List<StreamSpec> streams,
            SecretSource secretSource,
            Map<String, Map<String, Double>> ledgerSnapshot) {
        this.streams = streams;
        this.secretSource = secretSource;
        this.ledgerSnapshot = ledgerSnapshot;
    }

    /** Publications travel with their own serializer, not Kryo. */
    @Override
    public TypeInformation<Publication> getProducedType() {
        return PublicationTypeInfo.INSTANCE;
    }

    @Override
    public void open(OpenContext ctx) {
        secret = secretSource.load();
        hasher = new RecordHasher(secret);
        runtime = StreamRuntime.of(streams);
        core = new HashMap<>();
        runtime.forEach((id, rt) -> core.put(id, new WindowRelease(rt, secret)));
        var rc = getRuntimeContext();
        var group = rc.getMetricGroup().addGroup("dpclust");
        spentGauge = new HashMap<>();
        for (StreamSpec s : streams) {
            spentGauge.put(s.id(), 0.0);
            group.addGroup("stream", s.id()).gauge("spent", () -> spentGauge.get(s.id()));
        }
        releases = group.counter("releases");
        refused = group.counter("refused_releases");
        rc.addAccumulator(ACC_WINDOWED, windowed = new LongCounter());
        rc.addAccumulator(ACC_RELEASE_NANOS, releaseNanos = new LongCounter());
        statistics = rc.getMapState(windowMap("window-statistics"));
        sketches = rc.getMapState(windowMap("window-sketch"));
        hstCounts = rc.getMapState(windowMap("window-hst-counts"));
        kept =
                rc.getMapState(
                        new MapStateDescriptor<>(
                                "device-kept-records", Types.STRING, WINDOW_VALUE));
        centroids =
                rc.getState(
                        new ValueStateDescriptor<>(
                                "released-centroids",
                                PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
        ledgerEntries =
                rc.getMapState(new MapStateDescriptor<>("ledger", Types.STRING, Types.DOUBLE));
        ledgerSeeded = rc.getState(new ValueStateDescriptor<>("ledger-seeded", Types.BOOLEAN));
        LOG.info(
                "keyed release operator open: {} stream(s), secret from {}",
                streams.size(),
                secretSource);
    }

    private static MapStateDescriptor<Long, long[]> windowMap(String name) {
        return new MapStateDescriptor<>(name, WINDOW_KEY, WINDOW_VALUE);
    }

    @Override
    public void processElement(WindowPartial p, Context ctx, Collector<Publication> out)
            throws Exception {
        StreamRuntime rt = runtime.get(p.streamId);
        StreamSpec s = rt.spec();
        long windowStart = p.record != null ? s.windowStart(p.record.eventTime) : p.windowStart;
        long windowEnd = windowStart + s.windowMillis();
        if (windowEnd - 1 <= ctx.timerService().currentWatermark()) {
            // cannot happen: phase 1 dead-letters records behind its watermark and hands over every
            // partial before its watermark passes the window or its input goes idle; dropping keeps
            // "each window fires once"
            return;
        }
        windowed.add(p.records);
        WindowSummaries w = load(rt, windowStart);
        if (p.record == null) {
            p.mergeInto(w);
        } else if (s.privacyUnit() == PrivacyUnit.RECORD) {
            p.record.addTo(w);
        } else {
            offerDeviceRecord(s, windowStart, p.record, w);
        }
        statistics.put(windowStart, w.stats.state());
        if (w.sketch != null) {
            sketches.put(windowStart, w.sketchState());
        }
        if (w.hst != null) {
            hstCounts.put(windowStart, w.hst);
        }
        ctx.timerService().registerEventTimeTimer(windowEnd - 1);
    }

    /** The window's summaries from state (wrapped, not copied), or empty ones. */
    private WindowSummaries load(StreamRuntime rt, long windowStart) throws Exception {
        return WindowSummaries.wrap(
                rt,
                secret,
                windowStart,
                statistics.get(windowStart),
                rt.frequencies() == null ? null : sketches.get(windowStart),
                rt.hst() == null ? null : hstCounts.get(windowStart));
    }

    /** Device units: the record counts iff it is among its device's c smallest keyed hashes. */
    private void offerDeviceRecord(StreamSpec s, long windowStart, ValidRecord r, WindowSummaries w)
            throws Exception {
        String key = windowStart + "|" + r.deviceId;
        byte[] identity = r.identity();
        DeviceReservoir.Offer o =
                new DeviceReservoir(s.dimension(), s.contributionBound())
                        .offer(kept.get(key), hasher.hash(identity), r.eventTime, r.features);
        if (!o.counts()) {
            return;
        }
        if (o.evicted() != null) {
            double[] x = o.evicted().features();
            w.subtract(x, ValidRecord.identity(r.streamId, r.deviceId, o.evicted().eventTime(), x));
        }
        kept.put(key, o.entries());
        w.add(r.features, identity);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Publication> out)
            throws Exception {
        long started = System.nanoTime();
        StreamRuntime rt = runtime.get(ctx.getCurrentKey());
        StreamSpec s = rt.spec();
        long windowStart = timestamp + 1 - s.windowMillis();
        WindowSummaries w = load(rt, windowStart); // empty if the window had no records
        statistics.remove(windowStart);
        sketches.remove(windowStart);
        hstCounts.remove(windowStart);
        List<String> devices = new ArrayList<>();
        for (String k : kept.keys()) {
            if (k.startsWith(windowStart + "|")) {
                devices.add(k);
            }
        }
        for (String k : devices) {
            kept.remove(k);
        }
        if (ctx.timerService().currentWatermark() != Long.MAX_VALUE) {
            ctx.timerService().registerEventTimeTimer(timestamp + s.windowMillis());
        }
        PrivacyLedger ledger = ledger(s);
        WindowRelease.Outcome o = core.get(s.id()).release(w, ledger, centroids.value());
        if (o.centroids() != null) {
            centroids.update(o.centroids());
        }
        for (int i = 0; i < o.decisions().size(); i++) {
            PrivacyLedger.Decision d = o.decisions().get(i);
            log(s, s.summaries().get(i).wireName(), windowStart, d);
            if (d.accepted()) {
                releases.inc();
                spentGauge.put(s.id(), d.spent());
                Map.Entry<String, Double> e = Ledgers.entry(ledger, d.interval());
                ledgerEntries.put(e.getKey(), e.getValue());
                for (String old : Ledgers.expired(ledger, d.interval(), ledgerEntries.keys())) {
                    ledgerEntries.remove(old);
                }
            } else {
                refused.inc();
            }
        }
        o.published().forEach(out::collect);
        o.sketches().forEach(sk -> ctx.output(RELEASED_SKETCHES, sk));
        releaseNanos.add(System.nanoTime() - started);
    }

    private static void log(
            StreamSpec s, String algorithm, long windowStart, PrivacyLedger.Decision d) {
        LOG.info(
                "stream {} window [{}, {}) {} {}: epsilon {}, spent {}/{}",
                s.id(),
                windowStart,
                windowStart + s.windowMillis(),
                algorithm,
                d.accepted() ? "released" : "REFUSED (cap reached)",
                d.epsilon(),
                d.spent(),
                d.cap());
    }

    /** The stream's ledger from state, seeded once from the budget topic's snapshot. */
    private PrivacyLedger ledger(StreamSpec s) throws Exception {
        if (ledgerSeeded.value() == null) {
            ledgerEntries.putAll(ledgerSnapshot.getOrDefault(s.id(), Map.of()));
            ledgerSeeded.update(true);
        }
        return Ledgers.restore(s, ledgerEntries.entries());
    }
}
