package org.dpclust.stream;

import static org.dpclust.stream.StreamTestRecords.record;
import static org.dpclust.stream.StreamTestRecords.releases;
import static org.dpclust.stream.StreamTestRecords.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.Publication;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.junit.jupiter.api.Test;

/**
 * Phase 1 + phase 2 in Flink's operator harnesses: however the records of a window are split into
 * partials (salt buckets, subtasks, checkpoint flushes) and in whatever order the partials arrive,
 * the releases are byte-identical to accumulating every record in phase 2.
 */
class WindowPreAggregatorTest {
    private static final long W = 10_000;
    private static final String ALL =
            "    summaries: [stats, ckm, dp-hst]\n    hst: {universe: 128, max_levels: 5}\n"
                    + "    ckm: {m: 64, r: 8}\n";

    private static List<ValidRecord> records() {
        List<ValidRecord> l = new ArrayList<>();
        Random rnd = new Random(3);
        for (int i = 0; i < 600; i++) {
            double c = i % 2 == 0 ? 0.25 : 0.75;
            l.add(
                    record(
                            "dev-" + (i % 37),
                            (i % 3) * W + rnd.nextInt((int) W),
                            c + rnd.nextGaussian() * 0.05,
                            c - rnd.nextGaussian() * 0.05));
        }
        return l;
    }

    /** Phase 2 over the given partials (in the given order), then the end of input; its output. */
    private static List<Publication> phase2(StreamSpec s, List<WindowPartial> partials)
            throws Exception {
        StreamClusteringFunction f = StreamTestRecords.function(s, 3, new RecordingLedger());
        try (KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication> h =
                StreamTestRecords.harness(f, p -> p.streamId)) {
            for (WindowPartial p : partials) {
                h.processElement(p, 0);
            }
            h.processWatermark(Long.MAX_VALUE);
            List<Publication> out = new ArrayList<>(h.extractOutputValues());
            out.addAll(
                    StreamTestRecords.decoded(s, h)); // the ckm centroids, from the SketchDecoder
            return out;
        }
    }

    /**
     * Phase 1 with one harness per sub-key (as if every salt bucket ran on its own subtask),
     * flushing one of them before a checkpoint barrier every {@code flushEvery} records; the
     * partials, shuffled.
     */
    private static List<WindowPartial> phase1(
            StreamSpec s, List<ValidRecord> records, int flushEvery) throws Exception {
        SubStreamKey key = new SubStreamKey(List.of(s));
        Map<String, KeyedOneInputStreamOperatorTestHarness<String, ValidRecord, WindowPartial>>
                harnesses = new LinkedHashMap<>();
        long checkpoint = 0;
        for (ValidRecord r : records) {
            String k = key.getKey(r);
            var h = harnesses.get(k);
            if (h == null) {
                h =
                        new KeyedOneInputStreamOperatorTestHarness<>(
                                new WindowPreAggregator(
                                        List.of(s),
                                        StreamTestRecords.policy(3),
                                        TestRandoms.secretSource()),
                                key,
                                Types.STRING);
                h.open();
                harnesses.put(k, h);
            }
            h.processElement(r, r.eventTime);
            if (++checkpoint % flushEvery == 0) {
                h.prepareSnapshotPreBarrier(checkpoint);
            }
        }
        List<WindowPartial> partials = new ArrayList<>();
        for (var h : harnesses.values()) {
            h.processWatermark(Long.MAX_VALUE);
            partials.addAll(h.extractOutputValues());
            h.close();
        }
        java.util.Collections.shuffle(partials, new Random(11));
        return partials;
    }

    private static void assertSameBytes(List<Publication> expected, List<Publication> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(
                    StreamTestRecords.topic(expected.get(i)),
                    StreamTestRecords.topic(actual.get(i)));
            assertArrayEquals(
                    StreamTestRecords.bytes(expected.get(i)),
                    StreamTestRecords.bytes(actual.get(i)),
                    "output " + i);
        }
    }

    @Test
    void releasesAreByteIdenticalWithAndWithoutSaltingAndPreAggregation() throws Exception {
        StreamSpec one = spec(ALL);
        StreamSpec four = spec(ALL + "    salt_buckets: 4\n");
        List<ValidRecord> in = records();
        List<Publication> direct = phase2(one, in.stream().map(WindowPartial::of).toList());
        assertEquals(
                6,
                releases(direct).size(),
                "3 windows x 2 summaries (the cap 2.5 refuses the third)");
        List<WindowPartial> salted = phase1(four, records(), 50);
        assertTrue(
                salted.size() > 12, "the windows were split into many partials: " + salted.size());
        assertSameBytes(direct, phase2(one, phase1(one, records(), 1_000_000)));
        assertSameBytes(direct, phase2(four, salted));
        assertSameBytes(direct, phase2(one, phase1(one, records(), 7)));
    }

    /**
     * Adversarial: records whose device ids are large enough to make phase 1 fold every open window
     * early (each id a third of the subtask's held-bytes cap) change nothing but their own
     * contribution — the releases are byte-identical to phase 2 folding every record itself, with
     * and without checkpoint flushes between.
     */
    @Test
    void recordsThatForceEarlyFoldsLeaveTheReleasesByteIdentical() throws Exception {
        StreamSpec one = spec(ALL);
        String huge = "h".repeat((int) (WindowPreAggregator.MAX_HELD_BYTES / 3));
        List<ValidRecord> in = records();
        for (int i = 0; i < in.size(); i += 40) {
            in.get(i).deviceId = huge + i;
        }
        List<Publication> direct = phase2(one, in.stream().map(WindowPartial::of).toList());
        assertEquals(6, releases(direct).size());
        assertSameBytes(direct, phase2(one, phase1(one, in, 1_000_000)));
        assertSameBytes(direct, phase2(one, phase1(one, in, 7)));
    }

    @Test
    void aPartialIsEmittedBeforeTheWatermarkThatClosesItsWindowAndNothingIsHeldAtACheckpoint()
            throws Exception {
        StreamSpec s = spec(ALL);
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new WindowPreAggregator(
                                List.of(s),
                                StreamTestRecords.policy(3),
                                TestRandoms.secretSource()),
                        new SubStreamKey(List.of(s)),
                        Types.STRING);
        h.open();
        h.processElement(record("a", 5, 0.2, 0.2), 5);
        h.processElement(record("a", W + 5, 0.2, 0.2), W + 5);
        assertEquals(0, h.extractOutputValues().size(), "records are folded in memory");
        h.processWatermark(W - 1);
        List<Object> out = new ArrayList<>(h.getOutput());
        assertEquals(
                3, out.size(), "the stream's activation, window 0's partial, then the watermark");
        assertTrue(((WindowPartial) ((StreamRecord<?>) out.get(0)).getValue()).activation);
        assertEquals(0L, ((WindowPartial) ((StreamRecord<?>) out.get(1)).getValue()).windowStart);
        assertTrue(out.get(2) instanceof org.apache.flink.streaming.api.watermark.Watermark);
        h.processWatermark(W);
        assertEquals(2, h.extractOutputValues().size(), "one activation per subtask, not again");
        h.prepareSnapshotPreBarrier(1);
        assertEquals(
                3,
                h.extractOutputValues().size(),
                "window 1's partial is flushed before the barrier");
        assertEquals(1, h.extractOutputValues().get(2).records);
        h.close();
    }

    @Test
    void recordUnitRecordsAreHeldInBatchesBoundedPerWindowAndInBytesPerSubtask() throws Exception {
        StreamSpec s = spec(ALL);
        WindowPreAggregator op = phase1(s);
        var h = harness(op, s);
        for (int i = 1; i < WindowPreAggregator.BATCH; i++) {
            h.processElement(record("a", i, 0.2, 0.2), i);
        }
        assertEquals(WindowPreAggregator.BATCH - 1, op.heldRecords("s"));
        h.processElement(record("a", 0, 0.2, 0.2), 0);
        assertEquals(0, op.heldRecords("s"), "a full batch is folded");
        // records of three windows with huge device ids: the subtask's byte cap folds all of them
        String huge = "d".repeat((int) (WindowPreAggregator.MAX_HELD_BYTES / 3));
        h.processElement(record(huge, 1, 0.2, 0.2), 1);
        h.processElement(record(huge, W + 1, 0.2, 0.2), W + 1);
        assertEquals(2, op.heldRecords("s"));
        h.processElement(record(huge, 2 * W + 1, 0.2, 0.2), 2 * W + 1);
        assertEquals(0, op.heldRecords("s"), "held bytes past the cap fold every window");
        h.processElement(record("a", 3, 0.2, 0.2), 3);
        h.processElement(record("a", W + 3, 0.2, 0.2), W + 3);
        h.prepareSnapshotPreBarrier(1);
        assertEquals(0, op.heldRecords("s"), "nothing is held at a barrier");
        assertEquals(
                WindowPreAggregator.BATCH + 5,
                hstCounts(h.extractOutputValues()),
                "every record reached its window's summaries once (one HST count each)");
        h.close();
    }

    private static final String DEVICES =
            ALL + "    privacy_unit: device\n    device_contribution_bound: 2\n";

    /**
     * Device units hold what their reservoirs keep, as record units hold every record: a full batch
     * folds; a record that displaces a kept one is held while the displaced one is subtracted at
     * once (perhaps before its own addition is folded); the subtask's byte cap folds every window;
     * a barrier leaves nothing held; and every window's summaries count exactly the kept records
     * (here c = 2 per device and window) — a lost subtraction or a record counted twice would
     * change the count.
     */
    @Test
    void deviceUnitRecordsTheirReservoirsKeepAreHeldAndDisplacedOnesSubtracted() throws Exception {
        StreamSpec s = devices(DEVICES);
        WindowPreAggregator op = phase1(s);
        var h = harness(op, s);
        for (int i = 1; i < WindowPreAggregator.BATCH; i++) { // first records of distinct devices
            h.processElement(record("dev-" + i, i, 0.2, 0.2), i);
        }
        assertEquals(WindowPreAggregator.BATCH - 1, op.heldRecords("s"));
        h.processElement(record("dev-0", 0, 0.2, 0.2), 0);
        assertEquals(0, op.heldRecords("s"), "a full batch is folded");
        h.processElement(record("a", 1, 0.3, 0.3), 1);
        h.processElement(record("a", 2, 0.3, 0.3), 2);
        assertEquals(2, op.heldRecords("s"), "the device's first c records are kept and held");
        int displaced = 0;
        for (int t = 3; t < 40; t++) {
            int before = op.heldRecords("s");
            h.processElement(record("a", t, 0.3, 0.3), t);
            int after = op.heldRecords("s");
            if (after != before) { // the reservoir is full: a record that counts displaces one
                assertEquals(before + 1, after, "the displacing record is held");
                displaced++;
            }
        }
        assertTrue(displaced > 0, "the bound binds: some later record displaces a kept one");
        assertTrue(op.heldRecords("s") > 2, "displaced records are subtracted without a fold");
        // kept records of three windows with huge device ids: the subtask's byte cap folds all
        String huge = "d".repeat((int) (WindowPreAggregator.MAX_HELD_BYTES / 3));
        h.processElement(record(huge, W + 1, 0.2, 0.2), W + 1);
        h.processElement(record(huge + "2", 2 * W + 1, 0.2, 0.2), 2 * W + 1);
        assertTrue(op.heldRecords("s") > 2);
        h.processElement(record(huge + "3", 3 * W + 1, 0.2, 0.2), 3 * W + 1);
        assertEquals(0, op.heldRecords("s"), "held bytes past the cap fold every window");
        h.processElement(record("b", W + 2, 0.2, 0.2), W + 2);
        h.prepareSnapshotPreBarrier(1);
        assertEquals(0, op.heldRecords("s"), "nothing is held at a barrier");
        assertEquals(
                WindowPreAggregator.BATCH + 2 + 4,
                hstCounts(h.extractOutputValues()),
                "each distinct device's record, device a's 2 kept ones and the 4 later devices'");
        h.close();
    }

    /** A device-unit stream whose cap (100) admits every release of the three windows. */
    private static StreamSpec devices(String extra) {
        return StreamTestRecords.spec(extra, "{cells: 16}", 1.0, 100);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ValidRecord, WindowPartial>
            phase1Harness(StreamSpec s) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                phase1(s), new SubStreamKey(List.of(s)), Types.STRING);
    }

    /** The HST counts over the partials: one per record a window's summaries hold. */
    private static long hstCounts(List<WindowPartial> partials) {
        long counted = 0;
        for (WindowPartial p : partials) {
            counted += p.hst == null ? 0 : java.util.Arrays.stream(p.hst).sum();
        }
        return counted;
    }

    private static WindowPreAggregator phase1(StreamSpec s) {
        return new WindowPreAggregator(
                List.of(s), StreamTestRecords.policy(3), TestRandoms.secretSource());
    }

    /** An opened harness around {@code op}, keyed as the job keys phase 1. */
    private static KeyedOneInputStreamOperatorTestHarness<String, ValidRecord, WindowPartial>
            harness(WindowPreAggregator op, StreamSpec s) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        op, new SubStreamKey(List.of(s)), Types.STRING);
        h.open();
        return h;
    }

    /**
     * Device units: phase 1 bounds each device (its keyed reservoirs) and pre-aggregates; the
     * releases are byte-identical to phase 2 bounding every record itself, for any salting, flush
     * points and arrival order — and the bound binds (37 devices send ~5 records per window, 2
     * count), so a path that kept other records would differ.
     */
    @Test
    void deviceUnitReleasesAreByteIdenticalToBoundingEveryRecordInPhase2() throws Exception {
        StreamSpec one = devices(DEVICES);
        StreamSpec four = devices(DEVICES + "    salt_buckets: 4\n");
        List<Publication> direct = phase2(one, records().stream().map(WindowPartial::of).toList());
        assertEquals(9, releases(direct).size(), "3 windows x 3 summaries");
        List<Publication> unbounded =
                phase2(
                        devices(
                                ALL
                                        + "    privacy_unit: device\n    device_contribution_bound: 20\n"),
                        records().stream().map(WindowPartial::of).toList());
        assertTrue(
                !StreamTestRecords.topic(direct.get(0)).isEmpty()
                        && !java.util.Arrays.equals(
                                StreamTestRecords.bytes(direct.get(0)),
                                StreamTestRecords.bytes(unbounded.get(0))),
                "the bound c = 2 drops records here");
        List<WindowPartial> salted = phase1(four, records(), 7);
        assertTrue(salted.size() > 12, "many partials: " + salted.size());
        assertSameBytes(direct, phase2(four, salted));
        assertSameBytes(direct, phase2(one, phase1(one, records(), 1_000_000)));
        List<ValidRecord> shuffled = records();
        java.util.Collections.shuffle(shuffled, new Random(5));
        assertSameBytes(direct, phase2(four, phase1(four, shuffled, 13)));
        long windowed = 0;
        for (WindowPartial p : salted) {
            windowed += p.records;
        }
        assertEquals(600, windowed, "records_windowed counts every record, kept or not");
    }

    /**
     * A failure after a checkpoint: the restored phase 1 meets the replayed records with the
     * reservoirs of the barrier (not those of the records processed after it, whose partials were
     * lost), and the releases are byte-identical; every reservoir and timer is gone once the
     * windows closed.
     */
    @Test
    void deviceUnitPhase1ReplaysByteIdenticallyAfterAFailureAndLeavesNoState() throws Exception {
        StreamSpec s = devices(DEVICES + "    salt_buckets: 3\n");
        List<ValidRecord> in = records();
        java.util.Collections.shuffle(in, new Random(8));
        List<Publication> direct =
                phase2(devices(DEVICES), in.stream().map(WindowPartial::of).toList());
        int barrier = 250;
        List<WindowPartial> partials = new ArrayList<>();
        org.apache.flink.runtime.checkpoint.OperatorSubtaskState snapshot;
        try (var failed = phase1Harness(s)) {
            failed.open();
            for (ValidRecord r : in.subList(0, barrier)) {
                failed.processElement(r, r.eventTime);
            }
            failed.prepareSnapshotPreBarrier(1);
            snapshot = failed.snapshot(1, 1);
            partials.addAll(failed.extractOutputValues());
            assertTrue(failed.numKeyedStateEntries() > 0, "reservoirs are in keyed state");
            for (ValidRecord r : in.subList(barrier, barrier + 200)) {
                failed.processElement(r, r.eventTime); // lost with the failure
            }
            failed.prepareSnapshotPreBarrier(2); // flushed, never delivered
        }
        try (var restored = phase1Harness(s)) {
            restored.initializeState(snapshot);
            restored.open();
            for (ValidRecord r : in.subList(barrier, in.size())) {
                restored.processElement(r, r.eventTime);
            }
            restored.processWatermark(Long.MAX_VALUE);
            partials.addAll(
                    restored.extractOutputValues().stream().filter(p -> !p.activation).toList());
            assertEquals(0, restored.numKeyedStateEntries(), "no reservoir left");
            assertEquals(0, restored.numEventTimeTimers(), "no timer left");
        }
        assertSameBytes(direct, phase2(devices(DEVICES), partials));
    }

    /**
     * A subtask whose input goes idle hands over what it holds before the IDLE status: phase 2
     * leaves idle channels out of its watermark and would otherwise fire the window without this
     * partial.
     */
    @Test
    void partialsLeaveBeforeAnIdleStatus() throws Exception {
        StreamSpec s = spec(ALL);
        SubStreamKey key = new SubStreamKey(List.of(s));
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<String, ValidRecord, WindowPartial>(
                        new WindowPreAggregator(
                                List.of(s),
                                StreamTestRecords.policy(3),
                                TestRandoms.secretSource()),
                        key,
                        Types.STRING)) {
            h.open();
            h.processWatermark(0);
            ValidRecord r = record("dev-1", 5, 0.25, 0.25);
            h.processElement(r, r.eventTime);
            h.processWatermarkStatus(WatermarkStatus.IDLE);
            List<Object> out = new ArrayList<>(h.getOutput());
            int partial = -1;
            int idle = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i) instanceof StreamRecord<?> sr
                        && sr.getValue() instanceof WindowPartial p
                        && !p.activation) {
                    partial = i;
                }
                if (out.get(i) instanceof WatermarkStatus st && st.isIdle()) {
                    idle = i;
                }
            }
            assertTrue(partial >= 0 && idle > partial, "the partial before IDLE: " + out);
            h.processWatermarkStatus(WatermarkStatus.ACTIVE);
            h.processWatermark(Long.MAX_VALUE);
            long partials =
                    h.getOutput().stream()
                            .filter(
                                    o ->
                                            o instanceof StreamRecord<?> sr
                                                    && sr.getValue() instanceof WindowPartial p
                                                    && !p.activation)
                            .count();
            assertEquals(1, partials, "flushed once, nothing left to flush again");
        }
    }

    /**
     * A record behind phase 1's watermark (its partition resumed from idle) becomes a 'late' dead
     * letter.
     */
    @Test
    void aRecordBehindTheWatermarkBecomesADeadLetter() throws Exception {
        StreamSpec s = spec(ALL);
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<String, ValidRecord, WindowPartial>(
                        new WindowPreAggregator(
                                List.of(s),
                                StreamTestRecords.policy(3),
                                TestRandoms.secretSource()),
                        new SubStreamKey(List.of(s)),
                        Types.STRING)) {
            h.open();
            h.processWatermark(2 * W);
            ValidRecord late = record("dev-1", W + 5, 0.25, 0.25);
            h.processElement(late, late.eventTime);
            h.processWatermark(Long.MAX_VALUE);
            var dead = h.getSideOutput(WindowPreAggregator.LATE);
            assertEquals(1, dead.size(), "one dead letter");
            var rejected =
                    AvroCodec.rejected().decode(StreamTestRecords.bytes(dead.peek().getValue()));
            assertEquals("late", rejected.getReason());
            var original = AvroCodec.telemetry().decode(rejected.getOriginal().array());
            assertEquals(List.of(0.25, 0.25), original.getFeatures());
            assertEquals(
                    0,
                    h.getOutput().stream()
                            .filter(
                                    o ->
                                            o instanceof StreamRecord<?> sr
                                                    && sr.getValue() instanceof WindowPartial p
                                                    && !p.activation)
                            .count(),
                    "nothing folded into the closed window");
        }
    }
}
