package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.ledger.LedgerClientFactory;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.window.DeviceBounding;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.TreeRunningRelease;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.dpclust.window.WindowRelease;
import org.dpclust.window.WindowSummaries;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 of the window aggregation, keyed by stream: keeps each open window's summaries, the
 * device reservoirs, the released centroids and the stream's ledger mark in keyed state ({@link
 * KeyedWindowState}) and one event-time timer per stream (the next scheduled window's); the
 * algorithms and the schedule arithmetic are in Flink-free classes ({@link WindowSummaries}, {@link
 * org.dpclust.privacy.DeviceReservoir}, {@link WindowRelease}, {@link EventTimePolicy}). Input:
 * {@link WindowPartial}s of phase 1 (one state read and write per partial; for device-unit streams
 * phase 1 has already bounded every device's contribution), activations, or single records (a
 * record partial is accumulated here; of a device-unit stream, bounded here by the same {@link
 * DeviceBounding} phase 1 uses — the reference path the phase-1 bounding is tested against). When
 * the append-time watermark reaches a window's close time ({@link EventTimePolicy#closeTime}), the
 * window's release sequence runs and its {@link Publication}s are emitted; accepted {@code ckm}
 * sketches go to {@link #RELEASED_SKETCHES} for the {@link SketchDecoder}. A fired window leaves no
 * state.
 *
 * <p>The schedule is public (docs/event-time.md): it starts at the stream's first window at or
 * after {@code job.start} — or, without state, after the last interval in the budget topic's
 * snapshot read at start-up ({@link EventTimePolicy#resumeWindow}) — when the first element of the
 * stream arrives, which is the activation phase 1 sends before its first watermark; records
 * register no timers. Every scheduled window fires once the watermark passes its close (which needs
 * records to arrive: docs/privacy.md, known gaps), empty ones too (from all-zero summaries, charged
 * like any other), each timer chained from the previous one, up to {@code job.end}. Replays are
 * byte-identical: what enters a window does not depend on arrival order, and the noise is keyed by
 * the window's contents (see {@link WindowRelease}). The secret is loaded in {@link #open} from its
 * {@link SecretSource}, never carried in this function.
 */
public class StreamClusteringFunction
        extends KeyedProcessFunction<String, WindowPartial, Publication>
        implements ResultTypeQueryable<Publication>, CheckpointedFunction {
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
    private final Map<String, Long> resumeAfter;
    private final EventTimePolicy policy;
    private final LedgerClientFactory ledgerFactory;

    private transient PrivacySecret secret;
    private transient DeviceBounding devices;
    private transient Map<String, StreamRuntime> runtime;
    private transient Map<String, WindowRelease> core;
    private transient RunningReleases running;
    private transient KeyedWindowState state;
    private transient ReleaseMetrics metrics; // every metric of this operator
    private transient LongCounter windowed, releaseNanos;
    private transient StreamLedger ledger;
    private transient SavedPublicParameters savedParameters;
    private transient RuntimeException ledgerFailure; // a failed flush: this task must restart

    /**
     * @param resumeAfter per stream, the end of its latest interval charged on the budget topic at
     *     start-up (one number per stream, {@code ledger.LedgerScan}): a stream without state
     *     resumes its public schedule after it; charges go through {@code ledgerFactory}
     * @param policy the public release schedule
     * @param ledgerFactory opens the ledger client on the TaskManager ({@link
     *     org.dpclust.ledger.LedgerSettings}: the fenced writer on the budget topic)
     */
    public StreamClusteringFunction(
            List<StreamSpec> streams,
            SecretSource secretSource,
            Map<String, Long> resumeAfter,
            EventTimePolicy policy,
            LedgerClientFactory ledgerFactory) {
        this.streams = streams;
        this.secretSource = secretSource;
        this.resumeAfter = resumeAfter;
        this.policy = policy;
        this.ledgerFactory = ledgerFactory;
    }

    @Override
    public TypeInformation<Publication> getProducedType() {
        return PublicationTypeInfo.INSTANCE;
    }

    @Override
    public void open(OpenContext ctx) {
        secret = secretSource.load();
        devices = new DeviceBounding(secret);
        runtime = StreamRuntime.of(streams);
        core = new HashMap<>();
        runtime.forEach((id, rt) -> core.put(id, new WindowRelease(rt, secret)));
        state = new KeyedWindowState(getRuntimeContext());
        metrics =
                ReleaseMetrics.register(
                        getRuntimeContext().getMetricGroup().addGroup("dpclust"), streams);
        running = new RunningReleases(runtime, secret, state, metrics);
        getRuntimeContext().addAccumulator(ACC_WINDOWED, windowed = new LongCounter());
        getRuntimeContext().addAccumulator(ACC_RELEASE_NANOS, releaseNanos = new LongCounter());
        ledger =
                new StreamLedger(
                        ledgerFactory.open(), state, streams.stream().map(StreamSpec::id).toList());
        LOG.info("keyed release open: {} stream(s), secret from {}", streams.size(), secretSource);
    }

    @Override
    public void processElement(WindowPartial p, Context ctx, Collector<Publication> out)
            throws Exception {
        requireLedgerCommitted();
        StreamRuntime rt = runtime.get(p.streamId);
        StreamSpec s = rt.spec();
        startSchedule(ctx, s);
        if (p.activation) {
            return;
        }
        long windowStart = p.record != null ? s.windowStart(p.record.eventTime) : p.windowStart;
        if (!acceptsWindow(ctx, s, windowStart)) {
            return; // never for the live schedule: records outside it are dead-lettered upstream
            // and phase 1 hands over every partial before its watermark closes the window; a
            // window before a schedule resumed from the ledger is dropped (each fires once)
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
    }

    @Override
    public void initializeState(FunctionInitializationContext ctx) throws Exception {
        savedParameters =
                SavedPublicParameters.restore( // refuses changes
                        ctx,
                        streams,
                        policy,
                        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
        savedParameters.save();
        requireLedgerCommitted();
        if (ledger != null) {
            try {
                ledger.flush(); // the charges of the releases this checkpoint publishes
            } catch (RuntimeException e) {
                ledgerFailure = e;
                throw e;
            }
        }
    }

    /**
     * After a failed ledger flush the releases of the failed checkpoint are still in the sink's
     * open transaction: the task must fail (and restart from the last checkpoint), never go on to a
     * later checkpoint that would commit them.
     */
    private void requireLedgerCommitted() {
        if (ledgerFailure != null) {
            throw new IllegalStateException(
                    "a ledger flush failed; the releases it paid for must not be published: "
                            + ledgerFailure.getMessage(),
                    ledgerFailure);
        }
    }

    /**
     * Starts the stream's release schedule once (keyed state survives restarts): registers the
     * timer of its first window. Called for every element, so the first window is public whichever
     * element comes first (in practice the activation).
     */
    private void startSchedule(Context ctx, StreamSpec s) throws Exception {
        if (state.scheduleStart() != null) {
            return;
        }
        long first = policy.resumeWindow(s, resumeAfter.getOrDefault(s.id(), Long.MIN_VALUE));
        state.scheduleStart(first);
        if (policy.scheduled(s, first)) {
            ctx.timerService().registerEventTimeTimer(policy.closeTime(s, first));
            metrics.releasePending(s.id(), policy.closeTime(s, first));
        }
    }

    /** Whether a partial of this window may still enter state: scheduled and not closed. */
    private boolean acceptsWindow(Context ctx, StreamSpec s, long windowStart) throws Exception {
        return windowStart >= state.scheduleStart()
                && policy.scheduled(s, windowStart)
                && policy.closeTime(s, windowStart) > ctx.timerService().currentWatermark();
    }

    /** Device units: the record counts iff it is among its device's c smallest keyed hashes. */
    private void offerDeviceRecord(StreamSpec s, ValidRecord r, WindowSummaries w)
            throws Exception {
        long[] kept = devices.offer(s, state.reservoir(w.windowStart, r.deviceId), r, w);
        if (kept != null) {
            state.storeReservoir(w.windowStart, r.deviceId, kept);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Publication> out)
            throws Exception {
        requireLedgerCommitted();
        long started = System.nanoTime();
        StreamRuntime rt = runtime.get(ctx.getCurrentKey());
        StreamSpec s = rt.spec();
        long windowStart = policy.windowOfCloseTime(s, timestamp);
        WindowSummaries w = state.summaries(rt, secret, windowStart); // empty without records
        state.clear(windowStart);
        long next =
                policy.nextCloseTime(
                        s, windowStart, ctx.timerService().currentWatermark() == Long.MAX_VALUE);
        if (next >= 0) {
            ctx.timerService().registerEventTimeTimer(next);
        }
        metrics.released(s.id(), next);
        WindowRelease.Charger charger = ledger.charger(s);
        TreeRunningRelease.Step tree = running.treeStep(s, w, charger); // charged first
        WindowRelease.Outcome o = core.get(s.id()).release(w, charger, state.centroids());
        state.centroids(o.centroids());
        metrics.released(s, windowStart, o);
        o.published().forEach(out::collect);
        Publication sum = o.stats() == null ? null : running.afterStats(s, windowStart, o.stats());
        if (sum != null) {
            out.collect(sum);
        }
        if (tree != null && tree.release() != null) {
            out.collect(new Publication.Running(tree.release().published()));
        }
        o.sketches().forEach(sketch -> ctx.output(RELEASED_SKETCHES, sketch));
        releaseNanos.add(System.nanoTime() - started);
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
