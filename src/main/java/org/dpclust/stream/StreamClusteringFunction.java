package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.LedgerCharge;
import org.dpclust.io.LedgerClient;
import org.dpclust.io.LedgerClientFactory;
import org.dpclust.io.LedgerDecision;
import org.dpclust.io.Publication;
import org.dpclust.io.PublicationTypeInfo;
import org.dpclust.privacy.DeviceReservoir;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.RecordHasher;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.WindowRelease;
import org.dpclust.window.WindowSummaries;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 of the window aggregation, keyed by stream: keeps each open window's summaries, the
 * device reservoirs, the released centroids and the stream's ledger mark in keyed state ({@link
 * KeyedWindowState}) and one event-time timer per window; the algorithms are in the Flink-free core
 * ({@link WindowSummaries}, {@link DeviceReservoir}, {@link WindowRelease}). Input: {@link
 * WindowPartial}s of phase 1 (one state read and write per partial), or single device-unit records,
 * bounded here. When the watermark passes a window's end, the window's release sequence runs and
 * its {@link Publication}s are emitted; accepted {@code ckm} sketches go to {@link
 * #RELEASED_SKETCHES} for the {@link SketchDecoder}. A fired window leaves no state or timer.
 *
 * <p>Empty windows are released too (from all-zero summaries, charged like any other): from a
 * stream's first record on every window fires, each timer chained from the previous window's, until
 * the end of a bounded input. Replays are byte-identical: what enters a window does not depend on
 * arrival order, and the noise is keyed by the window's contents (see {@link WindowRelease}). The
 * secret is loaded in {@link #open} from its {@link SecretSource}, never carried in this function.
 *
 * <p>Charging: every summary's release is charged to the stream's ledger on the budget topic
 * through its fenced single writer ({@link LedgerClient}, opened in {@link #open} from the factory,
 * docs/ledger.md) under the charge key {@code stream|stream|summary|start:end} with the release's
 * fingerprint, against the latest committed spend — the same ledger batch runs charge. The writer
 * commits the CHARGE or REFUSED status on the budget topic before the charge returns, so this
 * operator emits no budget statuses itself. The ledger's high-water mark after every charge
 * (replays too) is kept in keyed state and passed back with the next charge, so a budget topic that
 * lost history is refused. A replayed timer (restore from a checkpoint) re-charges the same key and
 * fingerprint and gets the recorded decision. A lost history or an unavailable ledger throws: the
 * job fails and restarts.
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

    private final List<StreamSpec> streams;
    private final SecretSource secretSource;
    private final LedgerClientFactory ledgerFactory;

    private transient PrivacySecret secret;
    private transient RecordHasher hasher;
    private transient Map<String, StreamRuntime> runtime;
    private transient Map<String, WindowRelease> core;
    private transient KeyedWindowState state;
    private transient ReleaseMetrics metrics; // every metric of this operator
    private transient LongCounter windowed, releaseNanos;
    private transient LedgerClient ledger;

    /**
     * @param ledgerFactory opens the ledger client on the TaskManager ({@link
     *     org.dpclust.io.LedgerSettings}: the fenced writer on the budget topic)
     */
    public StreamClusteringFunction(
            List<StreamSpec> streams,
            SecretSource secretSource,
            LedgerClientFactory ledgerFactory) {
        this.streams = streams;
        this.secretSource = secretSource;
        this.ledgerFactory = ledgerFactory;
    }

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
        state = new KeyedWindowState(getRuntimeContext());
        metrics =
                ReleaseMetrics.register(
                        getRuntimeContext().getMetricGroup().addGroup("dpclust"), streams);
        getRuntimeContext().addAccumulator(ACC_WINDOWED, windowed = new LongCounter());
        getRuntimeContext().addAccumulator(ACC_RELEASE_NANOS, releaseNanos = new LongCounter());
        ledger = ledgerFactory.open();
        LOG.info("keyed release open: {} stream(s), secret from {}", streams.size(), secretSource);
    }

    @Override
    public void processElement(WindowPartial p, Context ctx, Collector<Publication> out)
            throws Exception {
        StreamRuntime rt = runtime.get(p.streamId);
        StreamSpec s = rt.spec();
        long windowStart = p.record != null ? s.windowStart(p.record.eventTime) : p.windowStart;
        long lastMilli = windowStart + s.windowMillis() - 1;
        if (lastMilli <= ctx.timerService().currentWatermark()) {
            return; // cannot happen: phase 1 dead-letters records behind its watermark and hands
            // over every partial before its watermark passes the window; each window fires once
        }
        windowed.add(p.records);
        WindowSummaries w = state.summaries(rt, secret, windowStart);
        if (p.record == null) {
            p.mergeInto(w);
        } else if (s.privacyUnit() == PrivacyUnit.RECORD) {
            p.record.addTo(w);
        } else {
            offerDeviceRecord(s, p.record, w);
        }
        state.store(w);
        ctx.timerService().registerEventTimeTimer(lastMilli);
        metrics.releasePending(p.streamId, lastMilli);
    }

    /** Device units: the record counts iff it is among its device's c smallest keyed hashes. */
    private void offerDeviceRecord(StreamSpec s, ValidRecord r, WindowSummaries w)
            throws Exception {
        byte[] identity = r.identity();
        DeviceReservoir.Offer o =
                new DeviceReservoir(s.dimension(), s.contributionBound())
                        .offer(
                                state.reservoir(w.windowStart, r.deviceId),
                                hasher.hash(identity),
                                r.eventTime,
                                r.features);
        if (o.counts()) {
            if (o.evicted() != null) {
                double[] x = o.evicted().features();
                long t = o.evicted().eventTime();
                w.subtract(x, ValidRecord.identity(r.streamId, r.deviceId, t, x));
            }
            state.storeReservoir(w.windowStart, r.deviceId, o.entries());
            w.add(r.features, identity);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Publication> out)
            throws Exception {
        long started = System.nanoTime();
        StreamRuntime rt = runtime.get(ctx.getCurrentKey());
        StreamSpec s = rt.spec();
        long windowStart = timestamp + 1 - s.windowMillis();
        WindowSummaries w = state.summaries(rt, secret, windowStart); // empty without records
        state.clear(windowStart);
        boolean chained = ctx.timerService().currentWatermark() != Long.MAX_VALUE;
        if (chained) {
            ctx.timerService().registerEventTimeTimer(timestamp + s.windowMillis());
        }
        metrics.released(s.id(), chained ? timestamp + s.windowMillis() : -1);
        WindowRelease.Outcome o =
                core.get(s.id())
                        .release(
                                w,
                                (summary, interval, epsilon, fingerprint) ->
                                        charge(s, summary, interval, fingerprint),
                                state.centroids());
        state.centroids(o.centroids());
        for (int i = 0; i < o.decisions().size(); i++) {
            PrivacyLedger.Decision d = o.decisions().get(i);
            LOG.info(
                    "stream {} window [{}, {}) {}",
                    s.id(),
                    windowStart,
                    timestamp + 1,
                    o.describe(s, i));
            metrics.charged(s.id(), d);
        }
        o.published().forEach(out::collect);
        o.sketches().forEach(sketch -> ctx.output(RELEASED_SKETCHES, sketch));
        releaseNanos.add(System.nanoTime() - started);
    }

    /** One summary's charge through the fenced ledger writer; keeps the mark it returns. */
    private PrivacyLedger.Decision charge(
            StreamSpec s, String summary, PrivacyLedger.Interval interval, String fingerprint)
            throws Exception {
        LedgerDecision d =
                ledger.charge(
                        LedgerCharge.stream(s, summary, interval.start(), interval.end())
                                .withFingerprint(fingerprint),
                        state.ledgerMark());
        state.ledgerMark(d.mark());
        return d.decision();
    }

    @Override
    public void close() throws Exception {
        if (ledger != null) {
            ledger.close();
            ledger = null;
        }
        super.close();
    }
}
