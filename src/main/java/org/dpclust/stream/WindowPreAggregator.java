package org.dpclust.stream;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.util.OutputTag;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.Publication;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.window.DeviceBounding;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.Rejections;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.dpclust.window.WindowSummaries;

/**
 * Phase 1 of the two-phase window aggregation (keyed by {@link SubStreamKey}: stream, salt).
 * Accumulates the window summaries in memory, one {@link WindowSummaries} per open (stream, window)
 * — no serialization; a record (record units) or a record its device's reservoir keeps (device
 * units) is held (its features copied, its identity built) until its window folds a batch of them —
 * and hands them to phase 2 ({@link StreamClusteringFunction}, keyed by stream) as {@link
 * WindowPartial}s:
 *
 * <ul>
 *   <li>before forwarding a watermark, the partials of every window the watermark closes (Flink
 *       time is the log append time; a window closes at {@link EventTimePolicy#closeTime}), so
 *       phase 2 has all of a window's partials before its timer fires;
 *   <li>before every checkpoint barrier ({@link #prepareSnapshotPreBarrier}), all partials — so the
 *       in-memory summaries are empty at a checkpoint: what they had accumulated is in flight
 *       before the barrier and ends up in phase 2's checkpointed state, and records after the
 *       barrier are replayed from the source after a failure;
 *   <li>before forwarding an IDLE watermark status, all partials (phase 2 stops waiting for an idle
 *       channel's watermark, so nothing may be held back behind one);
 *   <li>at the end of input, all partials.
 * </ul>
 *
 * <p><b>Device units.</b> A device-unit stream's sub-key is a public hash of the device id alone
 * ({@link SubStreamKey}), so all of one device's records — of every window — meet in one key, hence
 * in one subtask. Here each record is offered to its device's reservoir of the window ({@link
 * DeviceBounding}: the c records with the smallest keyed hash count, the same deterministic, keyed
 * selection phase 2 applied when it bounded devices itself), kept in this operator's keyed state
 * ({@code device-kept-records}, namespace = window start, map key = device id; at most c entries of
 * 2 + d longs per device and open window, cleared by an event-time timer per (sub-key, window) at
 * the window's close time). A record that now counts is held for the window's next batched fold
 * (below); the record it displaces, if any, is subtracted from the in-memory summaries at once. The
 * partials are therefore deltas: a partial flushed before a barrier holds what the device's kept
 * set gained and lost since the previous flush, and a later one can subtract a record an earlier
 * one added. Their sum — what phase 2 merges before any noise — is, by integer addition, exactly
 * the summaries of each device's final kept set: the same long arrays phase 2's own bounding
 * produced, so releases are byte-identical to that path for any salting, parallelism, flush points
 * or arrival order. The reservoir is checkpointed with the barrier the in-memory deltas were
 * flushed before, so after a failure the replayed records meet the reservoir as it was at the
 * barrier and produce the same deltas (byte-identical replays).
 *
 * <p>What one device can change: in one window, it changes only the summaries of its own kept set —
 * at most c records, each its own clamped features — whatever it sends and in whatever order; its
 * other records change nothing that reaches phase 2's merged sum (a displaced record's addition is
 * cancelled exactly by its subtraction, possibly in a later partial of the same subtask). All of a
 * device's records are folded on one subtask, so its kept set is never split between reservoirs:
 * the merged sum holds at most c of its records, which is the bound the sensitivities (scaled by c)
 * assume. Individual partials are never released.
 *
 * <p>Privacy: nothing here is released; partials are exact operator-side sums. Noise is added once
 * per (stream, window) by phase 2 on the merged accumulator, which is the same long array whatever
 * the split (integer addition), so the release is byte-identical for any number of salt buckets and
 * any parallelism. Memory: one summary per open (stream, window) per subtask (O(m + cells·d + |U|)
 * longs each), the records held for batched folding (record units: every record; device units: the
 * records their reservoirs keep; at most {@link #BATCH} per open window and {@link #MAX_HELD_BYTES}
 * per subtask in all), plus the device reservoirs above.
 */
public final class WindowPreAggregator extends AbstractStreamOperator<WindowPartial>
        implements OneInputStreamOperator<ValidRecord, WindowPartial>,
                BoundedOneInput,
                Triggerable<String, Long> {
    /**
     * Records found behind this operator's watermark (see {@link #processElement}), as dead
     * letters.
     */
    public static final OutputTag<Publication> LATE =
            new OutputTag<>("late-after-shuffle", PublicationTypeInfo.INSTANCE);

    private final List<StreamSpec> streams;
    private final EventTimePolicy policy;
    private final SecretSource secretSource;
    private transient PrivacySecret secret;
    private transient Counter late;
    private transient LongCounter lateTotal;

    /** Device reservoirs: namespace = window start, map key = device id (see the class doc). */
    private transient MapStateDescriptor<String, long[]> kept;

    private transient DeviceBounding devices;
    private transient InternalTimerService<Long> reservoirTimers;
    private transient Map<String, OpenWindows> open;
    private transient long watermark;

    /**
     * A lower bound of the close time of every open window ({@link Long#MAX_VALUE}: none open), so
     * that a watermark closing nothing costs nothing, whatever the number of streams.
     */
    private transient long earliestClose;

    private transient boolean activated;

    /** Bytes held over all open windows (see {@link #MAX_HELD_BYTES}). */
    private transient long heldBytes;

    /**
     * Records held per open window before they are folded together ({@link WindowSummaries#addAll}:
     * summary by summary, so a stream's tables stay in cache across them instead of every record of
     * an interleaved input evicting the previous stream's).
     */
    static final int BATCH = 128;

    /**
     * Bytes of held records (identities and feature copies) on this subtask, over all its open
     * windows, past which everything held is folded: a bound on what holding can cost whatever the
     * number of open windows or the size of device ids (exceeded by at most the one record that
     * crosses it; the per-window arrays of {@link #BATCH} references are not counted).
     */
    static final long MAX_HELD_BYTES = 1 << 20;

    /** Bytes a held record is counted at: its identity, its features and the two array headers. */
    private static long sizeOf(double[] features, byte[] identity) {
        return 32 + 8L * features.length + (identity == null ? 0 : identity.length);
    }

    /**
     * One open window of a stream on this subtask, with the records that entered it and up to
     * {@link #BATCH} of them not yet folded (record units: records as they come; device units:
     * records their device's reservoir kept; a record they displace is subtracted at once) — always
     * folded before the window's partial is emitted, so no partial, barrier or release ever sees
     * the difference. Folded records are not retained: only the two arrays of {@link #BATCH}
     * references stay with the window.
     */
    private static final class OpenWindow implements DeviceBounding.Target {
        final WindowSummaries summaries;
        long records;
        private double[][] pendingFeatures;
        private byte[][] pendingIdentities;
        private int pending;
        private long pendingBytes;

        OpenWindow(WindowSummaries summaries) {
            this.summaries = summaries;
        }

        /**
         * Holds a record-unit record (a copy of its features), folding when the batch is full (the
         * bytes held are read through {@link #heldBytes()}).
         */
        void offer(ValidRecord r) {
            hold(r.features.clone(), summaries.needsIdentity() ? r.identity() : null);
        }

        /** A device-unit record its reservoir kept: held like a record-unit one. */
        @Override
        public void add(double[] x, byte[] identity) {
            hold(x.clone(), summaries.needsIdentity() ? identity : null);
        }

        /**
         * The record a kept one displaced, subtracted at once — even when its own addition is still
         * held: every summary is an integer sum with no check on its running value, so once the
         * held records are folded the state is exactly that of adding and subtracting in arrival
         * order (and of phase 2 bounding every record itself, which the tests compare byte for
         * byte). Folding first instead would fold at almost every displacement, i.e. one record at
         * a time once a busy device's reservoir is full.
         */
        @Override
        public void subtract(double[] x, byte[] identity) {
            summaries.subtract(x, identity);
        }

        /** Bytes of the records held now. */
        long heldBytes() {
            return pendingBytes;
        }

        private void hold(double[] x, byte[] identity) {
            if (pendingFeatures == null) {
                pendingFeatures = new double[BATCH][];
                pendingIdentities = new byte[BATCH][];
            }
            pendingFeatures[pending] = x;
            pendingIdentities[pending] = identity;
            pendingBytes += sizeOf(x, identity);
            if (++pending == BATCH) {
                fold();
            }
        }

        /** Folds the held records into the summaries; returns the bytes no longer held. */
        long fold() {
            long released = pendingBytes;
            if (pending > 0) {
                summaries.addAll(pendingFeatures, pendingIdentities, pending);
                Arrays.fill(pendingFeatures, 0, pending, null);
                Arrays.fill(pendingIdentities, 0, pending, null);
                pending = 0;
                pendingBytes = 0;
            }
            return released;
        }
    }

    /**
     * The open windows of one stream on this subtask (usually one or two: a short list, no boxing).
     */
    private static final class OpenWindows {
        final StreamRuntime rt;
        final boolean deviceUnit;
        final ArrayList<OpenWindow> windows = new ArrayList<>(4);

        OpenWindows(StreamRuntime rt) {
            this.rt = rt;
            this.deviceUnit = rt.spec().privacyUnit() == PrivacyUnit.DEVICE;
        }

        OpenWindow window(long windowStart, PrivacySecret secret) {
            for (int i = 0; i < windows.size(); i++) {
                OpenWindow w = windows.get(i);
                if (w.summaries.windowStart == windowStart) {
                    return w;
                }
            }
            OpenWindow w = new OpenWindow(WindowSummaries.empty(rt, secret, windowStart));
            windows.add(w);
            return w;
        }
    }

    /**
     * @param policy the public time rules: when a window closes
     * @param secretSource where {@link #open()} loads the secret keying the sketch masks (the
     *     secret itself is never a field of this serialized operator)
     */
    public WindowPreAggregator(
            List<StreamSpec> streams, EventTimePolicy policy, SecretSource secretSource) {
        this.streams = streams;
        this.policy = policy;
        this.secretSource = secretSource;
    }

    @Override
    public void open() throws Exception {
        super.open();
        secret = secretSource.load();
        devices = new DeviceBounding(secret);
        kept =
                new MapStateDescriptor<>(
                        "device-kept-records",
                        Types.STRING,
                        PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);
        reservoirTimers =
                getInternalTimerService("device-reservoirs", LongSerializer.INSTANCE, this);
        open = new HashMap<>();
        StreamRuntime.of(streams).forEach((id, rt) -> open.put(id, new OpenWindows(rt)));
        watermark = Long.MIN_VALUE;
        earliestClose = Long.MAX_VALUE;
        activated = false;
        heldBytes = 0;
        lateTotal = new LongCounter();
        getRuntimeContext().addAccumulator(LatenessFilter.ACC_LATE, lateTotal);
        late = getMetricGroup().addGroup("dpclust").addGroup("rejected").counter(Rejections.LATE);
    }

    /**
     * Folds a record into its window. A record can be behind this operator's watermark although it
     * passed the {@link LatenessFilter}: when an idle source partition resumes, its filter
     * subtask's watermark is behind the combined watermark here (Flink never moves a combined
     * watermark back). Such a record goes to the dead-letter topic with reason {@code late} — its
     * features as clamped, re-encoded, since the original bytes are dropped before the shuffle —
     * instead of into a window that may already have fired.
     */
    @Override
    public void processElement(StreamRecord<ValidRecord> element) throws Exception {
        ValidRecord r = element.getValue();
        OpenWindows o = open.get(r.streamId);
        StreamSpec s = o.rt.spec();
        long windowStart = s.windowStart(r.eventTime);
        long close = policy.closeTime(s, windowStart);
        if (close <= watermark) {
            late.inc();
            lateTotal.add(1);
            output.collect(
                    LATE,
                    new StreamRecord<>(deadLetter(r, windowStart, s.windowMillis()), r.eventTime));
            return;
        }
        OpenWindow w = o.window(windowStart, secret);
        earliestClose = Math.min(earliestClose, close);
        w.records++;
        long before = w.heldBytes();
        if (o.deviceUnit) {
            offerDeviceRecord(s, r, windowStart, w);
        } else {
            w.offer(r);
        }
        heldBytes += w.heldBytes() - before;
        if (heldBytes > MAX_HELD_BYTES) {
            foldAll();
        }
    }

    /** Folds what every open window holds (their partials stay open). */
    private void foldAll() {
        for (OpenWindows o : open.values()) {
            for (OpenWindow w : o.windows) {
                heldBytes -= w.fold();
            }
        }
    }

    /** Records of {@code streamId} held, not yet folded, over its open windows (tests). */
    int heldRecords(String streamId) {
        int held = 0;
        for (OpenWindow w : open.get(streamId).windows) {
            held += w.pending;
        }
        return held;
    }

    /**
     * Bounds a device-unit record against its device's reservoir of the window (keyed state of the
     * current sub-key): a kept record is held in {@code w}, a displaced one subtracted from its
     * summaries (see {@link OpenWindow#subtract}); the first record of a device in the window
     * registers the window's clean-up timer (one per sub-key and window).
     */
    private void offerDeviceRecord(StreamSpec s, ValidRecord r, long windowStart, OpenWindow w)
            throws Exception {
        MapState<String, long[]> reservoirs =
                getPartitionedState(windowStart, LongSerializer.INSTANCE, kept);
        long[] entries = reservoirs.get(r.deviceId);
        if (entries == null) {
            reservoirTimers.registerEventTimeTimer(windowStart, policy.closeTime(s, windowStart));
        }
        long[] after = devices.offer(s, entries, r, w);
        if (after != null) {
            reservoirs.put(r.deviceId, after);
        }
    }

    /**
     * A window closed on this subtask's watermark: its device reservoirs of the timer's sub-key go
     * (its deltas were flushed before the watermark reached the timers, see {@link
     * #processWatermark}).
     */
    @Override
    public void onEventTime(InternalTimer<String, Long> timer) throws Exception {
        getPartitionedState(timer.getNamespace(), LongSerializer.INSTANCE, kept).clear();
    }

    @Override
    public void onProcessingTime(InternalTimer<String, Long> timer) {}

    private Publication deadLetter(ValidRecord r, long windowStart, long size) {
        List<Double> features = new ArrayList<>(r.features.length);
        for (double f : r.features) {
            features.add(f);
        }
        byte[] reencoded =
                AvroCodec.telemetry()
                        .encode(
                                TelemetryRecord.newBuilder()
                                        .setStreamId(r.streamId)
                                        .setDeviceId(r.deviceId)
                                        .setEventTime(Instant.ofEpochMilli(r.eventTime))
                                        .setFeatures(features)
                                        .build());
        return Rejections.deadLetter(
                Rejections.LATE,
                "window ["
                        + windowStart
                        + ", "
                        + (windowStart + size)
                        + ") closed at append-time watermark "
                        + watermark
                        + " after the shuffle (a source partition resumed from idle or found"
                        + " late); "
                        + "original bytes not kept past validation: features re-encoded as clamped",
                r.streamId,
                r.eventTime,
                reencoded,
                null,
                -1,
                -1);
    }

    /**
     * Flushes the partials the watermark closes, then lets Flink fire the timers it reaches (the
     * closed windows' device reservoirs go) and forward it. A record of a closed window arriving
     * later is dead-lettered against {@code watermark}, so it never meets a cleared reservoir.
     */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        activateStreams();
        watermark = mark.getTimestamp();
        flush(watermark);
        super.processWatermark(mark);
    }

    /**
     * Once, before the first watermark this subtask forwards (or the end of its input): one {@link
     * WindowPartial#activation} per configured stream, so phase 2 starts every stream's public
     * release schedule whether or not the stream ever has a record. Phase 2 ignores the repeats
     * (one per subtask, and again after a restart).
     */
    private void activateStreams() {
        if (activated) {
            return;
        }
        activated = true;
        for (StreamSpec s : streams) {
            output.collect(new StreamRecord<>(WindowPartial.activation(s.id())));
        }
    }

    /**
     * Before this subtask's input is declared idle, all partials: phase 2 leaves idle channels out
     * of its watermark, so a partial held across an idle period could reach it after the window
     * fired and be lost.
     */
    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        if (status.isIdle()) {
            flush(Long.MAX_VALUE);
        }
        super.processWatermarkStatus(status);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush(Long.MAX_VALUE);
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() {
        activateStreams();
        flush(Long.MAX_VALUE);
    }

    @Override
    public void finish() throws Exception {
        activateStreams();
        flush(Long.MAX_VALUE);
        super.finish();
    }

    /**
     * Emits (and forgets) the partials of every window whose close time ({@link
     * EventTimePolicy#closeTime}: its end + max_lateness − 1, on the append-time clock) is at or
     * before {@code until}: phase 2's release timer of that window fires at its close time, so the
     * partial reaches phase 2 before the watermark that fires it.
     */
    private void flush(long until) {
        if (earliestClose == Long.MAX_VALUE || until < earliestClose) {
            return; // nothing open, or nothing open closes by then
        }
        long remaining = Long.MAX_VALUE;
        for (Map.Entry<String, OpenWindows> e : open.entrySet()) {
            OpenWindows o = e.getValue();
            for (int i = o.windows.size() - 1; i >= 0; i--) {
                OpenWindow w = o.windows.get(i);
                long close = policy.closeTime(o.rt.spec(), w.summaries.windowStart);
                if (until == Long.MAX_VALUE || close <= until) {
                    heldBytes -= w.fold();
                    o.windows.remove(i);
                    WindowPartial p = WindowPartial.of(e.getKey(), w.summaries);
                    p.records = w.records; // entered the window (device units: kept or not)
                    output.collect(new StreamRecord<>(p, close));
                } else {
                    remaining = Math.min(remaining, close);
                }
            }
        }
        earliestClose = remaining;
    }
}
