package org.dpclust.stream;

import static org.dpclust.stream.StreamTestRecords.record;
import static org.dpclust.stream.StreamTestRecords.releases;
import static org.dpclust.stream.StreamTestRecords.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.junit.jupiter.api.Test;

/**
 * Running releases in the keyed operator ({@code running:}): one after each accepted {@code stats}
 * release, on the running topic, over the span's released windows; the running state stays within
 * the span and is restored byte-identically; a refused window adds nothing and publishes nothing,
 * and what it held does not matter; an empty window is summed like any other.
 */
class RunningReleasesTest {
    private static final long W = 10_000;

    private static StreamSpec spec3() {
        return spec("    running: {windows: 3}\n");
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication>
            harness(StreamSpec s, RecordingLedger ledger, int windows) throws Exception {
        return harness(s, ledger, windows, null);
    }

    /** The operator, restored from {@code from} unless it is null. */
    private static KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication>
            harness(StreamSpec s, RecordingLedger ledger, int windows, OperatorSubtaskState from)
                    throws Exception {
        return StreamTestRecords.restored(
                StreamTestRecords.function(s, windows, ledger),
                (WindowPartial p) -> p.streamId,
                from);
    }

    /** Two blobs of {@code n} records in window w, shifted by {@code shift}. */
    private static void feed(
            KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication> h,
            int w,
            int n,
            double shift)
            throws Exception {
        for (int i = 0; i < n; i++) {
            double c = (i % 2 == 0 ? 0.25 : 0.75) + shift;
            double jitter = ((i * 37) % 101) / 101.0 * 0.04 - 0.02;
            ValidRecord r = record("dev-" + i, w * W + i * 20L, c + jitter, c - jitter);
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
    }

    private static List<CentroidRelease> running(List<Publication> out) {
        List<CentroidRelease> l = new ArrayList<>();
        for (Publication p : out) {
            if (p instanceof Publication.Running r) {
                l.add(r.value());
            }
        }
        return l;
    }

    @Test
    void oneRunningReleaseAfterEachWindowOverTheLastThreeAndNoMoreStateThanThat() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = harness(spec3(), ledger, 5);
        for (int w = 0; w < 5; w++) {
            feed(h, w, 200, 0);
        }
        h.processWatermark(Long.MAX_VALUE);
        List<Publication> out = h.extractOutputValues();
        List<CentroidRelease> run = running(out);
        assertEquals(5, releases(out).size(), "the window releases are unchanged");
        assertEquals(5, run.size());
        List<Integer> covered = run.stream().map(CentroidRelease::getWindowsCovered).toList();
        assertEquals(List.of(1, 2, 3, 3, 3), covered);
        for (int w = 0; w < 5; w++) {
            CentroidRelease r = run.get(w);
            assertEquals(Math.max(0, w - 2) * W, r.getWindowStart().toEpochMilli());
            assertEquals((w + 1) * W, r.getWindowEnd().toEpochMilli());
            assertEquals("running", r.getMode());
            assertEquals(0.0, r.getEpsilon(), 0.0);
            assertEquals(releases(out).get(w).getSpent(), r.getSpent(), 0.0);
            assertEquals("running", StreamTestRecords.topic(out.get(2 * w + 1)));
        }
        assertEquals(5, ledger.statuses().size(), "running releases charge nothing");
        var plain = harness(spec(""), new RecordingLedger(), 5);
        for (int w = 0; w < 5; w++) {
            feed(plain, w, 200, 0);
        }
        plain.processWatermark(Long.MAX_VALUE);
        List<Publication> without = plain.extractOutputValues();
        plain.close();
        assertEquals(5, without.size());
        for (int w = 0; w < 5; w++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(without.get(w)),
                    StreamTestRecords.bytes(out.get(2 * w)),
                    "window " + w + "'s release is the same bytes with or without running");
        }
        h.getOperator().setCurrentKey("s");
        MapState<Long, long[]> kept =
                h.getOperator()
                        .getKeyedStateBackend()
                        .getPartitionedState(
                                VoidNamespace.INSTANCE,
                                VoidNamespaceSerializer.INSTANCE,
                                new MapStateDescriptor<>(
                                        "running-cells",
                                        KeyedWindowState.WINDOW_KEY,
                                        KeyedWindowState.WINDOW_VALUE));
        List<Long> windows = new ArrayList<>();
        kept.keys().forEach(windows::add);
        windows.sort(null);
        assertEquals(List.of(2 * W, 3 * W, 4 * W), windows, "the span's windows only");
        h.close();
    }

    @Test
    void aRestoredOperatorContinuesWithByteIdenticalRunningReleases() throws Exception {
        RecordingLedger calm = new RecordingLedger();
        var a = harness(spec3(), calm, 5);
        for (int w = 0; w < 5; w++) {
            feed(a, w, 200, 0.01 * w);
        }
        a.processWatermark(Long.MAX_VALUE);
        List<Publication> expected = a.extractOutputValues();
        a.close();

        RecordingLedger stormy = new RecordingLedger();
        var b = harness(spec3(), stormy, 5);
        for (int w = 0; w < 5; w++) {
            feed(b, w, 200, 0.01 * w);
        }
        b.processWatermark(3 * W - 1); // windows 0..2 released, 3 and 4 open
        OperatorSubtaskState checkpoint = b.snapshot(1, 1);
        b.close();
        var restored = harness(spec3(), stormy, 5, checkpoint);
        restored.processWatermark(Long.MAX_VALUE);
        List<Publication> after = restored.extractOutputValues();
        restored.close();
        List<Publication> tail = expected.subList(expected.size() - after.size(), expected.size());
        assertEquals(4, after.size(), "windows 3 and 4: their release and running release each");
        for (int i = 0; i < after.size(); i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(tail.get(i)), StreamTestRecords.bytes(after.get(i)));
        }
    }

    /**
     * Window 1 is refused (a batch run spent 2.0 of the cap 2.5 on its interval): it publishes no
     * running release, adds nothing to the running sum, and the next running release is the same
     * bytes whatever window 1 held.
     */
    @Test
    void aRefusedWindowAddsNothingAndWhatItHeldDoesNotMatter() throws Exception {
        List<List<CentroidRelease>> runs = new ArrayList<>();
        for (double shift : new double[] {0, 0.1}) {
            StreamSpec s = spec3();
            RecordingLedger ledger = new RecordingLedger();
            ledger.charge(
                    LedgerCharge.batch(s, "dplloyd", new PrivacyLedger.Interval(W, 2 * W), "r", 2),
                    LedgerMark.NONE);
            var h = harness(s, ledger, 3);
            feed(h, 0, 200, 0);
            feed(h, 1, shift == 0 ? 200 : 50, shift);
            feed(h, 2, 200, 0);
            h.processWatermark(Long.MAX_VALUE);
            assertEquals(BudgetEventKind.REFUSED, ledger.statuses().get(2).getKind(), "window 1");
            List<Publication> out = h.extractOutputValues();
            assertEquals(2, releases(out).size());
            runs.add(running(out));
            h.close();
        }
        for (List<CentroidRelease> run : runs) {
            assertEquals(2, run.size(), "after windows 0 and 2 only");
            assertEquals(2, run.get(1).getWindowsCovered(), "windows 0 and 2 summed");
            assertEquals(3.0, run.get(1).getMechanismParams().get("span_windows"), 0.0);
        }
        assertEquals(runs.get(0), runs.get(1), "window 1's contents changed nothing");
    }

    /** The running releases of three windows, with 200 records in each of {@code full}. */
    private static List<CentroidRelease> threeWindows(int... full) throws Exception {
        var h = harness(spec3(), new RecordingLedger(), 3);
        for (int w : full) {
            feed(h, w, 200, 0);
        }
        h.processWatermark(Long.MAX_VALUE);
        List<CentroidRelease> run = running(h.extractOutputValues());
        h.close();
        return run;
    }

    @Test
    void anEmptyWindowIsSummedLikeAnyOther() throws Exception {
        List<CentroidRelease> run = threeWindows(0, 2);
        assertEquals(
                List.of(1, 2, 3), run.stream().map(CentroidRelease::getWindowsCovered).toList());
        assertNotEquals(
                run.get(2).getWeights(),
                threeWindows(0, 1, 2).get(2).getWeights(),
                "the empty window's noisy cells, not a full window's, are in the sum");
    }

    /**
     * {@code running.mode: tree} in the operator: each window charges ρ_tree ({@code stats-tree})
     * besides its stats release, its running release states that ρ and covers the period so far,
     * the tree's state stays within its bound, and a restored operator continues byte-identically.
     */
    @Test
    void aRunningTreeIsChargedPerWindowStatesItsRhoAndRestoresByteIdentically() throws Exception {
        StreamSpec s =
                spec(
                        "    accounting: zcdp\n    budget_delta: 1.0e-9\n"
                                + "    budget_period: PT1M\n    running: {mode: tree}\n");
        RecordingLedger ledger = new RecordingLedger();
        var a = harness(s, ledger, 5);
        for (int w = 0; w < 5; w++) {
            feed(a, w, 200, 0.01 * w);
        }
        a.processWatermark(Long.MAX_VALUE);
        List<Publication> expected = a.extractOutputValues();
        List<CentroidRelease> run = running(expected);
        assertEquals(5, releases(expected).size());
        assertEquals(5, run.size());
        for (int w = 0; w < 5; w++) {
            CentroidRelease r = run.get(w);
            assertEquals(0, r.getWindowStart().toEpochMilli(), "the period so far");
            assertEquals(w + 1, r.getWindowsCovered());
            assertEquals(s.rhoPerRelease(), r.getRho(), 0.0, "the tree is charged");
            assertEquals(s.rhoPerRelease(), releases(expected).get(w).getRho(), 0.0);
        }
        List<String> charged =
                ledger.statuses().stream()
                        .filter(st -> st.getKind() == BudgetEventKind.CHARGE)
                        .map(st -> st.getAlgorithm().toString())
                        .toList();
        assertEquals(10, charged.size(), "a tree and a stats charge per window: " + charged);
        assertEquals(5, charged.stream().filter("stats-tree"::equals).count());
        a.getOperator().setCurrentKey("s");
        long[] tree =
                a.getOperator()
                        .getKeyedStateBackend()
                        .getPartitionedState(
                                VoidNamespace.INSTANCE,
                                VoidNamespaceSerializer.INSTANCE,
                                new org.apache.flink.api.common.state.ValueStateDescriptor<>(
                                        "running-tree", KeyedWindowState.WINDOW_VALUE))
                        .value();
        assertEquals(StreamSpec.treeStateLongs(6, 16, 2), tree.length);
        a.close();

        RecordingLedger stormy = new RecordingLedger();
        var b = harness(s, stormy, 5);
        for (int w = 0; w < 5; w++) {
            feed(b, w, 200, 0.01 * w);
        }
        b.processWatermark(3 * W - 1);
        OperatorSubtaskState checkpoint = b.snapshot(1, 1);
        b.close();
        var restored = harness(s, stormy, 5, checkpoint);
        restored.processWatermark(Long.MAX_VALUE);
        List<Publication> after = restored.extractOutputValues();
        restored.close();
        List<Publication> tail = expected.subList(expected.size() - after.size(), expected.size());
        assertEquals(4, after.size());
        for (int i = 0; i < after.size(); i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(tail.get(i)), StreamTestRecords.bytes(after.get(i)));
        }
    }
}
