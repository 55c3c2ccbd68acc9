package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.geometry.PivotListIndex;
import org.dpclust.io.Publication;
import org.dpclust.io.PublicationTypeInfo;
import org.dpclust.kmedian.NeighbourWalk;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerClient;
import org.dpclust.ledger.LedgerClientFactory;
import org.dpclust.ledger.LedgerDecision;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.window.DeviceBounding;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.Mechanisms;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.RunningRelease;
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
 * register no timers. Every scheduled window fires, empty ones too (from all-zero summaries,
 * charged like any other), each timer chained from the previous one, up to {@code job.end}. Replays
 * are byte-identical: what enters a window does not depend on arrival order, and the noise is keyed
 * by the window's contents (see {@link WindowRelease}). The secret is loaded in {@link #open} from
 * its {@link SecretSource}, never carried in this function.
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
    private final Map<String, Map<String, Double>> ledgerSnapshot;
    private final EventTimePolicy policy;
    private final LedgerClientFactory ledgerFactory;

    private transient PrivacySecret secret;
    private transient DeviceBounding devices;
    private transient Map<String, StreamRuntime> runtime;
    private transient Map<String, WindowRelease> core;
    private transient Map<String, RunningRelease> running;
    private transient Map<String, TreeRunningRelease> trees;
    private transient KeyedWindowState state;
    private transient ReleaseMetrics metrics; // every metric of this operator
    private transient LongCounter windowed, releaseNanos;
    private transient LedgerClient ledger;
    private transient ListState<String> savedParameters;

    /**
     * @param ledgerSnapshot totals read from the budget topic at start-up (stream → interval key →
     *     epsilon), only to resume a stream's public schedule after its last charged interval when
     *     the stream has no state; charges go through {@code ledgerFactory}
     * @param policy the public release schedule
     * @param ledgerFactory opens the ledger client on the TaskManager ({@link
     *     org.dpclust.ledger.LedgerSettings}: the fenced writer on the budget topic)
     */
    public StreamClusteringFunction(
            List<StreamSpec> streams,
            SecretSource secretSource,
            Map<String, Map<String, Double>> ledgerSnapshot,
            EventTimePolicy policy,
            LedgerClientFactory ledgerFactory) {
        this.streams = streams;
        this.secretSource = secretSource;
        this.ledgerSnapshot = ledgerSnapshot;
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
        running = new HashMap<>();
        trees = new HashMap<>();
        runtime.forEach(
                (id, rt) -> {
                    core.put(id, new WindowRelease(rt, secret));
                    if (rt.spec().running().tree()) {
                        trees.put(id, new TreeRunningRelease(rt, secret));
                    } else if (rt.spec().running().enabled()) {
                        running.put(id, new RunningRelease(rt, secret));
                    }
                });
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

    /**
     * The public parameters that shape what a stream's open windows were promised (window, domain,
     * k, summaries, ε per release, privacy unit and its bound, public seed, stats cells), as one
     * readable line. Salting and parallelism are not among them for record units: they change no
     * released byte. For device units the line also names {@code salt_buckets} and where devices
     * are bounded ({@code bounded_in=pre-aggregate}): phase 1 keeps each device's reservoir under
     * its sub-key, so a changed S — or a savepoint of a version that bounded devices in this
     * operator — would meet a window's later records with empty reservoirs and let a device count
     * up to 2c times in a window open across the restore. Such a restore is refused like any other
     * change of public parameters.
     *
     * <p>A stream with {@code running.mode: tree} adds the tree's ρ and its horizon (the budget
     * period): an open tree node sums the leaves of several windows, each charged ρ_tree when it
     * was added, so its noise must stay calibrated to that ρ (a larger ρ after a restore would cost
     * the earlier windows' records more than they were charged), and its dyadic layout to that
     * period.
     */
    public static String publicParameters(StreamSpec s) {
        return "window="
                + s.window()
                + ", dimension="
                + s.dimension()
                + ", lower="
                + java.util.Arrays.toString(s.lower())
                + ", upper="
                + java.util.Arrays.toString(s.upper())
                + ", k="
                + s.k()
                + ", summaries="
                + s.summaries()
                + ", epsilon_per_release="
                + s.epsilonPerRelease()
                + ", privacy_unit="
                + s.privacyUnit().wireName()
                + ", c="
                + s.unitContribution()
                + ", public_seed="
                + s.publicSeed()
                + ", stats.cells="
                + s.statsCells()
                + (s.privacyUnit() == PrivacyUnit.DEVICE
                        ? ", salt_buckets=" + s.saltBuckets() + ", bounded_in=pre-aggregate"
                        : "")
                + (s.running().tree()
                        ? ", running=tree, rho_tree="
                                + s.rhoPerRelease()
                                + ", budget_period="
                                + s.budgetPeriod()
                                + ", tree_mechanism="
                                + Mechanisms.stats(s)
                        : "")
                + placement(s);
    }

    /**
     * Where a record's contribution lands in the ckm and dp-hst states, as the suffix {@code ,
     * placement=[…]} of {@link #publicParameters} (empty without those summaries): the sketch's m
     * and r — a window's sketch calibrates its noise to the configured r, so records added under a
     * larger r before a restore would weigh more than the sensitivity covers — its mask shape
     * (device bounding subtracts an evicted record under the current shape), and its frequency law
     * and σ, and the universe, depth and snap rule of dp-hst (with the walk's and the pivot rule's
     * own parameters, {@link NeighbourWalk#RULE}, {@link PivotListIndex#RULE}) — device bounding
     * subtracts an evicted record with the current frequencies and where the current rule puts it,
     * so records added under others would stay while other contributions were removed, and a device
     * could move up to 3c records' worth.
     */
    static String placement(StreamSpec s) {
        List<String> p = new java.util.ArrayList<>();
        if (s.summaries().contains(Summary.CKM)) {
            p.add("ckm.m=" + s.ckm().m());
            p.add("ckm.r=" + s.ckm().r());
            p.add("ckm.law=" + s.ckm().law());
            p.add("ckm.sigma=" + s.ckm().sigma());
            if (s.ckm().blockMask()) { // uniform masks keep the line they had before the option
                p.add("ckm.mask=" + s.ckm().mask());
            }
        }
        if (s.summaries().contains(Summary.DP_HST)) {
            p.add("hst.universe=" + s.hstUniverse());
            p.add("hst.max_levels=" + s.hstMaxLevels());
            p.add(
                    "hst.snap="
                            + (s.hstWalk()
                                    ? NeighbourWalk.RULE
                                    : s.hstPivot() ? PivotListIndex.RULE : s.hst().snap()));
        }
        return p.isEmpty() ? "" : ", placement=" + p;
    }

    /**
     * Whether a saved {@link #publicParameters} line admits the configured one: equal, or saved by
     * a version before the placement suffix existed, equal without it, and of a stream where the
     * unknown placement cannot matter: record units without ckm (each record adds one count at one
     * point under whichever rule, and nothing is ever subtracted). Such a savepoint of a ckm stream
     * (its r unknown) or of a device-unit dp-hst stream (its snap rule unknown) is refused, see
     * docs/operations.md.
     */
    static boolean admits(String saved, StreamSpec s) {
        String configured = publicParameters(s);
        if (saved.equals(configured)) {
            return true;
        }
        int at = configured.indexOf(", placement=[");
        return at >= 0
                && !saved.contains(", placement=[")
                && saved.equals(configured.substring(0, at))
                && s.privacyUnit() == PrivacyUnit.RECORD
                && !s.summaries().contains(Summary.CKM);
    }

    /**
     * Keeps each configured stream's {@link #publicParameters} in union operator state ({@code
     * public-parameters}, every subtask sees all entries whatever the parallelism) and, on restore,
     * refuses a stream configured with other ones than its state was built under (a configuration
     * changed across a savepoint or checkpoint): its open windows were promised under the saved
     * ones. Fails the job at restore without restarts (a restart would meet the same state), with
     * one line naming both. A stream without a saved entry (new, or a savepoint of an earlier
     * version) is accepted.
     */
    @Override
    public void initializeState(FunctionInitializationContext ctx) throws Exception {
        savedParameters =
                ctx.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>("public-parameters", Types.STRING));
        if (!ctx.isRestored()) {
            return;
        }
        for (String entry : savedParameters.get()) {
            int bar = entry.indexOf('|');
            String id = entry.substring(0, bar);
            String saved = entry.substring(bar + 1);
            for (StreamSpec s : streams) {
                String configured = publicParameters(s);
                if (s.id().equals(id) && !admits(saved, s)) {
                    throw new SuppressRestartsException(
                            new IllegalStateException(
                                    "stream '"
                                            + id
                                            + "': its public parameters changed since its state"
                                            + " was saved (saved: "
                                            + saved
                                            + "; configured: "
                                            + configured
                                            + "); restore the saved configuration, or stop the"
                                            + " job at a window boundary and start the changed"
                                            + " stream under a new stream id"));
                }
            }
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
        savedParameters.clear();
        for (StreamSpec s : streams) {
            savedParameters.add(s.id() + "|" + publicParameters(s));
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
        long first = policy.resumeWindow(s, ledgerSnapshot.getOrDefault(s.id(), Map.of()).keySet());
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
        TreeRunningRelease.Step tree = trees.containsKey(s.id()) ? releaseTree(s, w) : null;
        WindowRelease.Outcome o = core.get(s.id()).release(w, charger(s), state.centroids());
        state.centroids(o.centroids());
        for (int i = 0; i < o.decisions().size(); i++) {
            PrivacyLedger.Decision d = o.decisions().get(i);
            LOG.info(
                    "stream {} window [{}, {}) {}",
                    s.id(),
                    windowStart,
                    windowStart + s.windowMillis(),
                    o.describe(s, i));
            metrics.charged(s.id(), d);
        }
        o.published().forEach(out::collect);
        if (o.stats() != null && running.containsKey(s.id())) {
            out.collect(releaseRunning(s, windowStart, o.stats()));
        }
        if (tree != null && tree.release() != null) {
            out.collect(new Publication.Running(tree.release().published()));
        }
        o.sketches().forEach(sketch -> ctx.output(RELEASED_SKETCHES, sketch));
        releaseNanos.add(System.nanoTime() - started);
    }

    /**
     * The running release after an accepted {@code stats} release ({@link RunningRelease}): keeps
     * the window's noisy cells in the running state, drops windows that left the span, and
     * post-processes the span's sum. Refused windows never get here: they add nothing.
     */
    private Publication releaseRunning(
            StreamSpec s, long windowStart, RunningRelease.StatsCells stats) throws Exception {
        Map<Long, long[]> kept =
                state.keepRunning(
                        windowStart,
                        RunningRelease.pack(stats.cells()),
                        s.runningSpanStart(windowStart));
        RunningRelease.Result r =
                running.get(s.id())
                        .release(
                                windowStart,
                                RunningRelease.span(s, windowStart, kept),
                                stats,
                                state.runningCentroids());
        state.runningCentroids(r.centroids());
        return new Publication.Running(r.published());
    }

    /**
     * The window's running tree step ({@link TreeRunningRelease}), before the window's summaries:
     * charges ρ_tree through the fenced ledger, adds the window's leaf (empty if refused), keeps
     * the tree's state and the running centroids.
     */
    private TreeRunningRelease.Step releaseTree(StreamSpec s, WindowSummaries w) throws Exception {
        TreeRunningRelease.Step step =
                trees.get(s.id())
                        .release(
                                state.runningTree(),
                                w.windowStart,
                                w.stats,
                                charger(s),
                                state.runningCentroids());
        state.runningTree(step.state());
        PrivacyLedger.Decision d = step.charged().decision();
        LOG.info(
                "stream {} window [{}, {}) {} {}: rho {}",
                s.id(),
                w.windowStart,
                w.windowStart + s.windowMillis(),
                TreeRunningRelease.SUMMARY,
                d.accepted() ? "released" : "REFUSED (cap reached)",
                step.charged().rho());
        metrics.charged(s.id(), d);
        if (step.release() != null) {
            state.runningCentroids(step.release().centroids());
        }
        return step;
    }

    /** The stream's charges through {@link #charge}. */
    private WindowRelease.Charger charger(StreamSpec s) {
        return (summary, interval, epsilon, rho, fingerprint) ->
                charge(s, summary, interval, rho, fingerprint);
    }

    /**
     * One summary's charge through the fenced ledger writer (a zCDP release: its ρ, {@code rho} not
     * NaN); keeps the mark it returns.
     */
    private WindowRelease.Charged charge(
            StreamSpec s,
            String summary,
            PrivacyLedger.Interval interval,
            double rho,
            String fingerprint)
            throws Exception {
        LedgerCharge c =
                LedgerCharge.stream(s, summary, interval.start(), interval.end())
                        .withFingerprint(fingerprint);
        LedgerDecision d =
                ledger.charge(Double.isNaN(rho) ? c : c.withRho(rho), state.ledgerMark());
        state.ledgerMark(d.mark());
        return WindowRelease.Charged.of(d);
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
