package org.dpclust.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.WindowSummaries;

/**
 * The keyed state of {@link StreamClusteringFunction} (key = stream), with the state names and
 * types that savepoints depend on: per open window the summaries' long arrays (map state keyed by
 * window start) and the device reservoirs (keyed by {@code windowStart|device}); the last released
 * stats centroids (row-major k·d); the stream's ledger high-water mark ({@link LedgerMark}, state
 * {@code ledger-mark}: the ledger itself lives on the budget topic, charged through the fenced
 * writer; docs/ledger.md); the window the stream's release schedule started at; for streams with
 * {@code running:}, the packed noisy {@code stats} cells of the released windows of the current
 * running span (map state {@code running-cells} keyed by window start, at most the span's windows:
 * {@link org.dpclust.config.RunningSettings}) and the last running centroids ({@code
 * running-centroids}); with {@code running.mode: tree} instead of the cells the tree's state
 * ({@code running-tree}: the period start, the open partial sums and latest node per level of the
 * count and sum trees, {@link org.dpclust.window.TreeRunningRelease}). Only the current key's state
 * is visible.
 */
final class KeyedWindowState {
    /** Key (window start) and value (a summary's long array) types of the per-window map states. */
    static final TypeInformation<Long> WINDOW_KEY = Types.LONG;

    static final TypeInformation<long[]> WINDOW_VALUE =
            PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO;

    private final MapState<Long, long[]> statistics;
    private final MapState<Long, long[]> sketches;
    private final MapState<Long, long[]> hstCounts;
    private final MapState<String, long[]> kept;
    private final ValueState<double[]> centroids;
    private final ValueState<LedgerMark> ledgerMark;
    private final ValueState<Long> scheduleStart;
    private final MapState<Long, long[]> runningCells;
    private final ValueState<double[]> runningCentroids;
    private final ValueState<long[]> runningTree;

    KeyedWindowState(RuntimeContext rc) {
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
        ledgerMark =
                rc.getState(
                        new ValueStateDescriptor<>(
                                "ledger-mark", TypeInformation.of(LedgerMark.class)));
        scheduleStart = rc.getState(new ValueStateDescriptor<>("schedule-start", Types.LONG));
        runningCells = rc.getMapState(windowMap("running-cells"));
        runningCentroids =
                rc.getState(
                        new ValueStateDescriptor<>(
                                "running-centroids",
                                PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
        runningTree = rc.getState(new ValueStateDescriptor<>("running-tree", WINDOW_VALUE));
    }

    private static MapStateDescriptor<Long, long[]> windowMap(String name) {
        return new MapStateDescriptor<>(name, WINDOW_KEY, WINDOW_VALUE);
    }

    /** The window's summaries (wrapping the state arrays, not copying), or empty ones. */
    WindowSummaries summaries(StreamRuntime rt, PrivacySecret secret, long windowStart)
            throws Exception {
        return WindowSummaries.wrap(
                rt,
                secret,
                windowStart,
                statistics.get(windowStart),
                rt.frequencies() == null ? null : sketches.get(windowStart),
                rt.hst() == null ? null : hstCounts.get(windowStart));
    }

    void store(WindowSummaries w) throws Exception {
        statistics.put(w.windowStart, w.stats.state());
        if (w.sketch != null) {
            sketches.put(w.windowStart, w.sketchState());
        }
        if (w.hst != null) {
            hstCounts.put(w.windowStart, w.hst);
        }
    }

    /** The device's reservoir in the window, or null. */
    long[] reservoir(long windowStart, String device) throws Exception {
        return kept.get(windowStart + "|" + device);
    }

    void storeReservoir(long windowStart, String device, long[] entries) throws Exception {
        kept.put(windowStart + "|" + device, entries);
    }

    /** Drops everything of a fired window: its summaries and its device reservoirs. */
    void clear(long windowStart) throws Exception {
        statistics.remove(windowStart);
        sketches.remove(windowStart);
        hstCounts.remove(windowStart);
        String prefix = windowStart + "|";
        List<String> done = new ArrayList<>();
        for (String k : kept.keys()) {
            if (k.startsWith(prefix)) {
                done.add(k);
            }
        }
        for (String k : done) {
            kept.remove(k);
        }
    }

    /** The last released stats centroids (row-major), or null before the first release. */
    double[] centroids() throws Exception {
        return centroids.value();
    }

    void centroids(double[] released) throws Exception {
        if (released != null) {
            centroids.update(released);
        }
    }

    /** The stream's ledger high-water mark seen so far, or {@link LedgerMark#NONE}. */
    LedgerMark ledgerMark() throws Exception {
        LedgerMark m = ledgerMark.value();
        return m == null ? LedgerMark.NONE : m;
    }

    /** Keeps the later of the stored mark and {@code seen} (after every charge, replays too). */
    void ledgerMark(LedgerMark seen) throws Exception {
        ledgerMark.update(LedgerMark.max(ledgerMark(), seen));
    }

    /** Start of the window the stream's release schedule started at, or null before it started. */
    Long scheduleStart() throws Exception {
        return scheduleStart.value();
    }

    void scheduleStart(long windowStart) throws Exception {
        scheduleStart.update(windowStart);
    }

    /**
     * Adds a released window's packed noisy cells to the running state and drops every window
     * before {@code spanStart}; returns what is left (window start → packed cells).
     */
    Map<Long, long[]> keepRunning(long windowStart, long[] packed, long spanStart)
            throws Exception {
        runningCells.put(windowStart, packed);
        Map<Long, long[]> left = new HashMap<>();
        List<Long> old = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : runningCells.entries()) {
            if (e.getKey() < spanStart) {
                old.add(e.getKey());
            } else {
                left.put(e.getKey(), e.getValue());
            }
        }
        for (Long w : old) {
            runningCells.remove(w);
        }
        return left;
    }

    /** The last running release's centroids (row-major), or null before the first. */
    double[] runningCentroids() throws Exception {
        return runningCentroids.value();
    }

    void runningCentroids(double[] released) throws Exception {
        runningCentroids.update(released);
    }

    /** The running tree's state, or null before its first window. */
    long[] runningTree() throws Exception {
        return runningTree.value();
    }

    void runningTree(long[] tree) throws Exception {
        runningTree.update(tree);
    }
}
