package org.dpclust.stream;

import static org.dpclust.stream.StreamTestRecords.decoded;
import static org.dpclust.stream.StreamTestRecords.record;
import static org.dpclust.stream.StreamTestRecords.releases;
import static org.dpclust.stream.StreamTestRecords.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerHistoryException;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.junit.jupiter.api.Test;

/**
 * The keyed operator in Flink's operator test harness: windows, timers, state, ledger and device
 * bounding.
 */
class StreamClusteringFunctionTest {
    private static final long W = 10_000;

    private static KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication>
            harness(StreamSpec s, RecordingLedger ledger) throws Exception {
        return harness(s, ledger, 1);
    }

    /** The operator with a schedule of {@code windows} windows from 0, charging {@code ledger}. */
    private static KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication>
            harness(StreamSpec s, RecordingLedger ledger, int windows) throws Exception {
        StreamClusteringFunction f = StreamTestRecords.function(s, windows, ledger);
        return StreamTestRecords.harness(f, p -> p.streamId);
    }

    /** Two blobs, at (0.25, 0.25) and (0.75, 0.75), 200 records each, in window w. */
    private static List<ValidRecord> twoBlobs(int w, int devices) {
        List<ValidRecord> l = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            double c = i % 2 == 0 ? 0.25 : 0.75;
            double jitter = ((i * 37) % 101) / 101.0 * 0.04 - 0.02;
            l.add(record("dev-" + (i % devices), w * W + i * 20L, c + jitter, c - jitter));
        }
        return l;
    }

    @Test
    void releasesOnceAtTheWindowEndAndLeavesNoWindowStateOrTimers() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = harness(spec(""), ledger, 2);
        for (ValidRecord r : twoBlobs(0, 400)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        for (ValidRecord r : twoBlobs(1, 400)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        assertEquals(
                1,
                h.numEventTimeTimers(),
                "one timer: the schedule's first window's (records register none)");
        h.processWatermark(W - 2);
        assertEquals(
                0, releases(h.extractOutputValues()).size(), "nothing before the window's end");
        h.processWatermark(W - 1);
        List<CentroidRelease> rel = releases(h.extractOutputValues());
        assertEquals(1, rel.size());
        CentroidRelease r = rel.get(0);
        assertEquals(0, r.getWindowStart().toEpochMilli());
        assertEquals(W, r.getWindowEnd().toEpochMilli());
        assertEquals("dp", r.getGuarantee());
        assertEquals(2, r.getK());
        double[] a = r.getCentroids().get(0).stream().mapToDouble(Double::doubleValue).toArray();
        double[] b = r.getCentroids().get(1).stream().mapToDouble(Double::doubleValue).toArray();
        double lo = Math.min(a[0], b[0]);
        double hi = Math.max(a[0], b[0]);
        assertEquals(0.25, lo, 0.05);
        assertEquals(0.75, hi, 0.05);
        List<BudgetStatus> st = ledger.statuses();
        assertEquals(1, st.size());
        assertEquals(BudgetEventKind.CHARGE, st.get(0).getKind());
        assertEquals("s|stream|stats|0:" + W, ledger.charges().get(0).key());
        assertEquals(32, ledger.charges().get(0).fingerprint().length(), "an HMAC, hex");
        assertEquals(
                1,
                h.numEventTimeTimers(),
                "the fired window's timer is gone; window 1's remains (its records and the chain agree)");
        h.processWatermark(Long.MAX_VALUE); // end of input: window 1 fires, nothing is chained
        assertEquals(0, h.numEventTimeTimers());
        assertEquals(2, releases(h.extractOutputValues()).size());
        // left: released centroids, the ledger mark and the schedule's start; no window statistics
        assertEquals(3, h.numKeyedStateEntries());
        h.close();
    }

    /**
     * Charges are decided without waiting for their commit and committed by the flush in
     * snapshotState; after a failed flush the operator refuses every element, timer and later
     * checkpoint, so no later checkpoint can commit the releases the failed one held.
     */
    @Test
    void decisionsAreFlushedAtTheCheckpointAndAFailedFlushStopsTheOperator() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = harness(spec(""), ledger, 3);
        for (ValidRecord r : twoBlobs(0, 50)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        h.processWatermark(W - 1);
        assertEquals(1, ledger.decided(), "the window's charge is a deferred decision");
        int before = ledger.flushes();
        h.snapshot(1, 1);
        assertEquals(before + 1, ledger.flushes(), "the checkpoint commits it");

        ledger.failFlushes(new org.dpclust.ledger.LedgerConflictException("decided otherwise"));
        assertThrows(Exception.class, () -> h.snapshot(2, 2));
        ValidRecord late = twoBlobs(1, 1).get(0);
        Exception e =
                assertThrows(
                        IllegalStateException.class,
                        () -> h.processElement(WindowPartial.of(late), late.eventTime));
        assertTrue(e.getMessage().contains("ledger flush failed"), e.getMessage());
        assertThrows(Exception.class, () -> h.processWatermark(2 * W - 1));
        ledger.failFlushes(null);
        assertThrows(Exception.class, () -> h.snapshot(3, 3), "a later checkpoint fails too");
        assertEquals(1, ledger.decided(), "nothing decided after the failed flush");
    }

    @Test
    void anEmptyWindowIsReleasedSoItsEmptinessIsNotRevealed() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = harness(spec(""), ledger, 10);
        for (ValidRecord r : twoBlobs(0, 400)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        for (ValidRecord r : twoBlobs(2, 400)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        h.processWatermark(3 * W - 1);
        List<CentroidRelease> rel = releases(h.extractOutputValues());
        assertEquals(
                List.of(0L, W, 2 * W),
                rel.stream().map(r -> r.getWindowStart().toEpochMilli()).toList());
        assertEquals(3, ledger.statuses().size(), "the empty window is charged like any other");
        assertEquals(
                1,
                h.numEventTimeTimers(),
                "window 3 is scheduled although no record has arrived for it");
        h.close();
    }

    @Test
    void refusesAtTheCapAndPublishesTheRefusal() throws Exception {
        // device units: the spend adds up over windows; cap 2.5 at epsilon 1 allows two windows
        RecordingLedger ledger = new RecordingLedger();
        var h =
                harness(
                        spec("    privacy_unit: device\n    device_contribution_bound: 2\n"),
                        ledger,
                        3);
        for (int w = 0; w < 3; w++) {
            for (ValidRecord r : twoBlobs(w, 100)) {
                h.processElement(WindowPartial.of(r), r.eventTime);
            }
        }
        h.processWatermark(Long.MAX_VALUE);
        assertEquals(2, releases(h.extractOutputValues()).size());
        List<BudgetStatus> st = ledger.statuses();
        assertEquals(3, st.size());
        assertEquals(BudgetEventKind.REFUSED, st.get(2).getKind());
        assertEquals(2.0, st.get(2).getSpent(), 0.0);
        assertEquals(2.5, st.get(2).getCap(), 0.0);
        assertEquals(0, h.numEventTimeTimers());
        h.close();
    }

    @Test
    void chargesAgainstTheSharedLedgerIncludingBatchRuns() throws Exception {
        StreamSpec s = spec("    privacy_unit: device\n");
        RecordingLedger ledger = new RecordingLedger();
        // two batch runs on the same stream spent 2.0 of the period's cap 2.5
        for (String run : List.of("run-1", "run-2")) {
            ledger.charge(
                    LedgerCharge.batch(s, "dplloyd", new PrivacyLedger.Interval(0, W), run, 1.0),
                    LedgerMark.NONE);
        }
        var h = harness(s, ledger, 2);
        for (ValidRecord r : twoBlobs(1, 100)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        h.processWatermark(2 * W - 1);
        assertEquals(0, releases(h.extractOutputValues()).size(), "2.0 spent + 1.0 > cap 2.5");
        // the two batch charges, then both scheduled windows (0, empty, and 1) refused
        assertEquals(4, ledger.statuses().size());
        for (int i = 2; i < 4; i++) {
            assertEquals(BudgetEventKind.REFUSED, ledger.statuses().get(i).getKind());
            assertEquals(2.0, ledger.statuses().get(i).getSpent(), 0.0);
        }
        h.close();
    }

    @Test
    void aReplayedTimerGetsTheRecordedDecisionAndAStatelessRestartIsChargedAgain()
            throws Exception {
        StreamSpec s = spec("");
        RecordingLedger ledger = new RecordingLedger();
        var h = harness(s, ledger);
        for (ValidRecord r : twoBlobs(0, 400)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        var snapshot = h.snapshot(1, 1);
        h.processWatermark(W - 1);
        List<Publication> first = h.extractOutputValues();
        h.close();
        // restored from the checkpoint before the release: the timer fires again, same charge key
        // and fingerprint, the recorded decision; the release is byte-identical
        var restored =
                StreamTestRecords.restored(
                        StreamTestRecords.function(s, 1, ledger),
                        (WindowPartial p) -> p.streamId,
                        snapshot);
        restored.processWatermark(W - 1);
        List<Publication> replayed = restored.extractOutputValues();
        restored.close();
        assertEquals(1, ledger.statuses().size(), "the replay charged nothing");
        assertEquals(2, ledger.charges().size());
        assertEquals(first.size(), replayed.size());
        for (int i = 0; i < first.size(); i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(first.get(i)),
                    StreamTestRecords.bytes(replayed.get(i)));
        }
        // a restart without state re-releases window 0 from other records: charged again
        var fresh = harness(s, ledger);
        for (ValidRecord r : twoBlobs(0, 40).subList(0, 100)) {
            fresh.processElement(WindowPartial.of(r), r.eventTime);
        }
        fresh.processWatermark(W - 1);
        fresh.close();
        assertEquals(2, ledger.statuses().size(), "another release of the window is charged");
        assertEquals(2.0, ledger.statuses().get(1).getSpent(), 0.0);
    }

    @Test
    void aLedgerThatLostHistoryFailsTheRelease() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = harness(spec(""), ledger, 2);
        for (int w = 0; w < 2; w++) {
            for (ValidRecord r : twoBlobs(w, 400)) {
                h.processElement(WindowPartial.of(r), r.eventTime);
            }
        }
        h.processWatermark(W - 1);
        assertEquals(1, releases(h.extractOutputValues()).size());
        ledger.wipe(); // the budget topic was emptied while the job ran
        assertThrows(LedgerHistoryException.class, () -> h.processWatermark(2 * W - 1));
        assertEquals(1, releases(h.extractOutputValues()).size(), "nothing released uncharged");
    }

    private static List<Publication> runDevices(List<ValidRecord> records) throws Exception {
        return runDevices(
                spec("    privacy_unit: device\n    device_contribution_bound: 3\n"), records);
    }

    private static List<Publication> runDevices(StreamSpec s, List<ValidRecord> records)
            throws Exception {
        var h = harness(s, new RecordingLedger());
        for (ValidRecord r : records) {
            h.processElement(WindowPartial.of(r), 0);
        }
        h.processWatermark(Long.MAX_VALUE);
        List<Publication> out = h.extractOutputValues();
        assertEquals(0, h.numEventTimeTimers());
        h.close();
        return out;
    }

    @Test
    void deviceBoundingDoesNotDependOnArrivalOrder() throws Exception {
        List<ValidRecord> records = twoBlobs(0, 20); // 20 records per device, 3 count
        List<Publication> inOrder = runDevices(records);
        List<ValidRecord> shuffled = new ArrayList<>(records);
        Collections.shuffle(
                shuffled, new java.util.Random(1)); // public randomness (not privacy noise)
        List<Publication> outOfOrder = runDevices(shuffled);
        assertEquals(inOrder.size(), outOfOrder.size());
        for (int i = 0; i < inOrder.size(); i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(inOrder.get(i)),
                    StreamTestRecords.bytes(outOfOrder.get(i)),
                    "byte-identical release " + i);
        }
        // and bounding is effective: 20 devices x 3 records = 60 counted, not 400 (at an epsilon
        // that makes the count noise negligible: scale 0.01, so the weights add up to 60 +- 1)
        StreamSpec precise =
                spec(
                        "    privacy_unit: device\n    device_contribution_bound: 3\n",
                        "{cells: 16}",
                        1000,
                        2500);
        double weight =
                releases(runDevices(precise, records)).get(0).getWeights().stream()
                        .mapToDouble(Double::doubleValue)
                        .sum();
        assertEquals(60, weight, 1);
        // different contents give different noise
        List<Publication> more = runDevices(twoBlobs(0, 40));
        assertFalse(
                java.util.Arrays.equals(
                        StreamTestRecords.bytes(inOrder.get(0)),
                        StreamTestRecords.bytes(more.get(0))));
    }

    @Test
    void releasesEverySummaryInTheFixedOrderAndChargesEach() throws Exception {
        var h =
                harness(
                        spec(
                                "    summaries: [dp-hst, stats]\n    hst: {universe: 256, max_levels: 6}\n"),
                        new RecordingLedger());
        for (ValidRecord r : twoBlobs(0, 400)) {
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        h.processWatermark(Long.MAX_VALUE);
        List<CentroidRelease> rel = releases(h.extractOutputValues());
        assertEquals(
                List.of("stats", "dp-hst"),
                rel.stream().map(CentroidRelease::getAlgorithm).toList());
        CentroidRelease hst = rel.get(1);
        assertEquals(2, hst.getK());
        assertEquals(
                2.0, hst.getSpent(), 0.0, "two releases on one window: 2 epsilon for its records");
        double[][] c =
                hst.getCentroids().stream()
                        .map(x -> x.stream().mapToDouble(Double::doubleValue).toArray())
                        .toArray(double[][]::new);
        double err =
                org.dpclust.quality.ClusteringMetrics.meanMatchedDistance(
                        new double[][] {{0.25, 0.25}, {0.75, 0.75}}, c);
        assertTrue(err < 0.15, "dp-hst centres near the blobs: " + err);
        assertEquals(0, h.numEventTimeTimers());
        h.close();
    }

    @Test
    void theSketchIsPublishedAndDecodedNearTheClusters() throws Exception {
        StreamSpec spec = spec("    summaries: [ckm, stats]\n");
        RecordingLedger ledger = new RecordingLedger();
        var h = harness(spec, ledger);
        for (int w = 0; w < 1; w++) {
            for (int rep = 0;
                    rep < 10;
                    rep++) { // 4000 records: enough signal for the sketch at epsilon 1
                for (ValidRecord r : twoBlobs(w, 400)) {
                    r.deviceId = r.deviceId + "-" + rep;
                    r.eventTime = Math.min(r.eventTime + rep, W - 1);
                    h.processElement(WindowPartial.of(r), r.eventTime);
                }
            }
        }
        h.processWatermark(Long.MAX_VALUE);
        List<Publication> out = h.extractOutputValues();
        // the keyed operator publishes the sketch (and both charges) but decodes nothing itself
        assertEquals(
                List.of("stats"),
                releases(out).stream().map(CentroidRelease::getAlgorithm).toList());
        assertEquals(2, ledger.statuses().size());
        List<Publication> decoded = decoded(spec, h);
        assertEquals(1, decoded.size(), "one ckm release, from the decoder");
        List<CentroidRelease> rel = new ArrayList<>(releases(out));
        rel.addAll(releases(decoded));
        assertEquals(
                List.of("stats", "ckm"), rel.stream().map(CentroidRelease::getAlgorithm).toList());
        List<org.dpclust.avro.SketchRelease> sk = new ArrayList<>();
        for (Publication o : out) {
            if (o instanceof Publication.Sketch) {
                sk.add(org.dpclust.io.AvroCodec.sketches().decode(StreamTestRecords.bytes(o)));
            }
        }
        assertEquals(1, sk.size());
        assertEquals(2 * sk.get(0).getM(), sk.get(0).getSketch().size());
        assertEquals(4000, sk.get(0).getNoisyCount(), 200);
        double[][] c =
                rel.get(1).getCentroids().stream()
                        .map(x -> x.stream().mapToDouble(Double::doubleValue).toArray())
                        .toArray(double[][]::new);
        double err =
                org.dpclust.quality.ClusteringMetrics.meanMatchedDistance(
                        new double[][] {{0.25, 0.25}, {0.75, 0.75}}, c);
        assertTrue(err < 0.05, "ckm centroids near the blobs: " + err);
        h.close();
    }

    @Test
    void deviceBoundingCoversEverySummary() throws Exception {
        String extra =
                "    privacy_unit: device\n    device_contribution_bound: 2\n    summaries: [stats, ckm, dp-hst]\n"
                        + "    hst: {universe: 128}\n    ckm: {r: 10}\n";
        List<ValidRecord> records = twoBlobs(0, 25);
        List<ValidRecord> shuffled = new ArrayList<>(records);
        Collections.shuffle(
                shuffled, new java.util.Random(2)); // public randomness (not privacy noise)
        List<List<Publication>> outs = new ArrayList<>();
        for (List<ValidRecord> order : List.of(records, shuffled)) {
            var h = harness(spec(extra), new RecordingLedger());
            for (ValidRecord r : order) {
                h.processElement(WindowPartial.of(r), 0);
            }
            h.processWatermark(Long.MAX_VALUE);
            List<Publication> out = new ArrayList<>(h.extractOutputValues());
            assertEquals(2, out.size(), "the stats release and the sketch; dp-hst is refused");
            out.addAll(decoded(spec(extra), h));
            outs.add(out);
            h.close();
        }
        // device units, cap 2.5: stats and ckm fit (2.0), dp-hst would make 3.0 and is refused
        assertEquals(3, outs.get(0).size(), "two releases (ckm from the decoder) and the sketch");
        assertEquals(
                List.of("stats", "ckm"),
                releases(outs.get(0)).stream().map(CentroidRelease::getAlgorithm).toList());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(outs.get(0).get(i)),
                    StreamTestRecords.bytes(outs.get(1).get(i)));
        }
    }

    @Test
    void aReplayedWindowGivesByteIdenticalOutput() throws Exception {
        List<Publication> first = runDevices(twoBlobs(0, 400));
        List<Publication> second = runDevices(twoBlobs(0, 400));
        assertNotEquals(0, first.size());
        for (int i = 0; i < first.size(); i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(first.get(i)), StreamTestRecords.bytes(second.get(i)));
        }
    }

    /** Five windows of the two blobs under {@code s}; all output records. */
    private static List<Publication> runWindows(StreamSpec s) throws Exception {
        var h = harness(s, new RecordingLedger(), 5);
        for (int w = 0; w < 5; w++) {
            for (ValidRecord r : twoBlobs(w, 400)) {
                h.processElement(WindowPartial.of(r), r.eventTime);
            }
        }
        h.processWatermark(Long.MAX_VALUE);
        List<Publication> out = h.extractOutputValues();
        h.close();
        return out;
    }

    /** max over the two blob centres of the distance to the nearest released centroid. */
    private static double distanceToBlobs(CentroidRelease r) {
        double worst = 0;
        for (double c : new double[] {0.25, 0.75}) {
            double best = Double.POSITIVE_INFINITY;
            for (List<Double> p : r.getCentroids()) {
                best = Math.min(best, Math.hypot(p.get(0) - c, p.get(1) - c));
            }
            worst = Math.max(worst, best);
        }
        return worst;
    }

    @Test
    void theExpdpZoneUpdateChangesTheCentroidsNotTheNoiseAndReplaysByteIdentically()
            throws Exception {
        StreamSpec zone = spec("", "{cells: 16, update: expdp-zone}");
        List<CentroidRelease> mean = releases(runWindows(spec("", "{cells: 16, update: mean}")));
        List<Publication> first = runWindows(zone);
        List<Publication> second = runWindows(zone);
        assertEquals(first.size(), second.size());
        for (int i = 0; i < first.size(); i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(first.get(i)),
                    StreamTestRecords.bytes(second.get(i)),
                    "byte-identical replay, record " + i);
        }
        List<CentroidRelease> zoned = releases(first);
        assertEquals(mean.size(), zoned.size());
        assertTrue(zoned.size() >= 2, "the cap allows at least two windows");
        for (int w = 0; w < zoned.size(); w++) {
            CentroidRelease a = mean.get(w);
            CentroidRelease b = zoned.get(w);
            assertNotEquals(a.getCentroids(), b.getCentroids(), "window " + w);
            assertEquals(1.0, b.getMechanismParams().get("expdp_zone_update"));
            assertFalse(a.getMechanismParams().containsKey("expdp_zone_update"));
            for (String key :
                    List.of(
                            "epsilon_count",
                            "epsilon_sum",
                            "count_noise_scale",
                            "sum_noise_scale_box_units",
                            "cells_used")) {
                assertEquals(a.getMechanismParams().get(key), b.getMechanismParams().get(key), key);
            }
            System.out.println(
                    "window "
                            + w
                            + ": distance to the blobs, mean "
                            + distanceToBlobs(a)
                            + ", zone "
                            + distanceToBlobs(b));
        }
        assertTrue(
                distanceToBlobs(zoned.get(zoned.size() - 1)) < distanceToBlobs(zoned.get(0)),
                "the zone steps approach the blobs");
    }
}
