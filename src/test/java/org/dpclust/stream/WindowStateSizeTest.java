package org.dpclust.stream;

import static org.dpclust.stream.StreamTestRecords.record;
import static org.dpclust.stream.StreamTestRecords.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateObject;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.io.Publication;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.dpclust.window.WindowSummaries;
import org.junit.jupiter.api.Test;

/**
 * The operator's checkpointed keyed state for one stream with an open window does not grow with the
 * records of the window (record units): the statistics and the sketch are fixed-size arrays, the
 * HST state is one count per point of the public universe.
 */
class WindowStateSizeTest {
    private static final int UNIVERSE = 256;

    private static List<ValidRecord> records(int n) {
        Random rnd = new Random(5);
        List<ValidRecord> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(record("dev-" + (i % 500), 1 + (i % 9_000), rnd.nextDouble(), rnd.nextDouble()));
        }
        return l;
    }

    /**
     * Checkpointed keyed state bytes of phase 2 after one window's records (pre-aggregated, as in
     * the job).
     */
    private static long snapshotBytes(StreamSpec s, int n) throws Exception {
        WindowSummaries w = WindowSummaries.empty(StreamRuntime.of(s), TestRandoms.SECRET, 0);
        records(n).forEach(r -> r.addTo(w));
        StreamClusteringFunction f = StreamTestRecords.function(s, 1, new RecordingLedger());
        try (KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication> h =
                StreamTestRecords.harness(f, p -> p.streamId)) {
            h.processElement(WindowPartial.of("s", w), 0);
            OperatorSubtaskState snap = h.snapshot(1, 1);
            return snap.getManagedKeyedState().stream().mapToLong(StateObject::getStateSize).sum();
        }
    }

    @Test
    void statisticsAndSketchStateDoNotGrowWithTheRecordsOfAWindow() throws Exception {
        StreamSpec stats = spec("    summaries: [stats]\n");
        StreamSpec ckm = spec("    summaries: [stats, ckm]\n    ckm: {m: 64, r: 8}\n");
        long statsBytes = snapshotBytes(stats, 1_000);
        assertEquals(statsBytes, snapshotBytes(stats, 100_000));
        long ckmBytes = snapshotBytes(ckm, 1_000);
        assertEquals(ckmBytes, snapshotBytes(ckm, 100_000));
        assertTrue(
                ckmBytes - statsBytes >= 8 * (2 * 64 + 1),
                "the sketch's 2m + 1 longs are in the snapshot");
    }

    @Test
    void hstStateIsBoundedByTheUniverse() throws Exception {
        StreamSpec stats = spec("    summaries: [stats]\n");
        StreamSpec hst =
                spec(
                        "    summaries: [stats, dp-hst]\n    hst: {universe: "
                                + UNIVERSE
                                + ", max_levels: 6}\n");
        long base = snapshotBytes(stats, 100_000);
        long small = snapshotBytes(hst, 1_000);
        long large = snapshotBytes(hst, 100_000);
        assertEquals(small, large);
        long entryOverhead = 64; // window key, array length, state name and key group bookkeeping
        assertTrue(
                large - base <= 8L * UNIVERSE + entryOverhead,
                "hst state " + (large - base) + " bytes");
        assertTrue(large - base >= 8L * UNIVERSE, "the counts are in the snapshot");
    }

    @Test
    void theMeasuredEntriesMatchTheSummaries() {
        StreamSpec s =
                spec(
                        "    summaries: [stats, ckm, dp-hst]\n    ckm: {m: 64, r: 8}\n    hst: {universe: "
                                + UNIVERSE
                                + ", max_levels: 6}\n");
        Map<Summary, Long> small = WindowStateBytes.of(s, TestRandoms.SECRET, records(100));
        Map<Summary, Long> large = WindowStateBytes.of(s, TestRandoms.SECRET, records(10_000));
        assertEquals(small, large);
        assertEquals(
                8 + 4 + 8L * 16 * 3,
                small.get(Summary.STATS),
                "window key, length, 16 cells x (1 + d) longs");
        assertEquals(8 + 4 + 8L * (2 * 64 + 1), small.get(Summary.CKM));
        assertEquals(8 + 4 + 8L * UNIVERSE, small.get(Summary.DP_HST));
    }
}
