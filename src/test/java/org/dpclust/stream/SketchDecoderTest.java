package org.dpclust.stream;

import static org.dpclust.stream.StreamTestRecords.decoded;
import static org.dpclust.stream.StreamTestRecords.record;
import static org.dpclust.stream.StreamTestRecords.releases;
import static org.dpclust.stream.StreamTestRecords.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.CkmSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.io.Publication;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.window.Mechanisms;
import org.dpclust.window.ReleaseAssembler;
import org.dpclust.window.ReleasedCentroids;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.SketchDecoding;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.dpclust.window.WindowSummaries;
import org.junit.jupiter.api.Test;

/**
 * The ckm release split over two operators: the keyed operator releases the DP sketch, the {@link
 * SketchDecoder} decodes its centroids. Its output must be what the single keyed operator released
 * before the split, byte for byte.
 */
class SketchDecoderTest {
    private static final long W = 10_000;

    /** Record units, ckm only: three windows fit the cap of 2.5 per 10 s budget period. */
    private static final StreamSpec CKM = spec("    summaries: [ckm]\n");

    private static KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication> keyed(
            StreamSpec s, RecordingLedger ledger) throws Exception {
        StreamClusteringFunction f = StreamTestRecords.function(s, 3, ledger);
        return StreamTestRecords.harness(f, p -> p.streamId);
    }

    /** Two blobs in window w (moving right by 0.1 per window), 2000 records. */
    private static List<ValidRecord> window(int w) {
        List<ValidRecord> l = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            double c = i % 2 == 0 ? 0.25 : 0.75;
            double jitter = ((i * 37) % 101) / 101.0 * 0.04 - 0.02;
            l.add(record("dev-" + i, w * W + i * 4L, c + jitter + 0.1 * w, c - jitter));
        }
        return l;
    }

    /** The keyed operator after three windows of {@link #window} and the end of the input. */
    private static KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication>
            threeWindows(RecordingLedger ledger) throws Exception {
        var h = keyed(CKM, ledger);
        for (int w = 0; w < 3; w++) {
            for (ValidRecord r : window(w)) {
                h.processElement(WindowPartial.of(r), r.eventTime);
            }
        }
        h.processWatermark(Long.MAX_VALUE);
        return h;
    }

    /**
     * The single-operator path as it was (StreamClusteringFunction.releaseCkm before the decoder
     * was split off), recomputed from the window's records and its published charge: the sketch's
     * DP release keyed by the accumulator digest, then CL-OMPR seeded with public_seed + window
     * start, weights scaled by the divisor, the sketch's noise parameters plus the residual norm,
     * assembled into the ckm release.
     */
    private static byte[] singleOperatorRelease(
            StreamSpec s, List<ValidRecord> records, BudgetStatus charge) {
        StreamRuntime rt = StreamRuntime.of(s);
        long start = charge.getWindowStart().toEpochMilli();
        long end = charge.getWindowEnd().toEpochMilli();
        WindowSummaries w = WindowSummaries.empty(rt, TestRandoms.SECRET, start);
        records.forEach(r -> r.addTo(w));
        CkmSettings c = s.ckm();
        PrivacyRandom rng =
                PrivacyRandom.forRelease(
                        TestRandoms.SECRET,
                        new ReleaseContext(
                                s.id(),
                                start,
                                Summary.CKM.wireName(),
                                Mechanisms.ckm(s),
                                w.sketch.digest()));
        DpSketchRelease.Result noisy =
                DpSketchRelease.addRemove(
                        w.sketch,
                        s.epsilonPerRelease(),
                        c.countFraction(),
                        s.unitContribution(),
                        rng);
        ClOmpr.Result decoded =
                ClOmpr.decode(
                        noisy.sketch(),
                        rt.frequencies(),
                        s.k(),
                        rt.codec().bounds(),
                        new ClOmpr.Options(
                                c.replicates(),
                                ClOmpr.Options.defaults(0).candidates(),
                                ClOmpr.Options.defaults(0).maxIterations(),
                                s.publicSeed() + start));
        double[] weights = new double[decoded.weights().length];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = decoded.weights()[i] * noisy.divisor();
        }
        Map<String, Double> params = new TreeMap<>(noisy.parameters());
        params.put("decode_residual_norm", decoded.residualNorm());
        PrivacyLedger.Decision d =
                new PrivacyLedger.Decision(
                        true,
                        new PrivacyLedger.Interval(start, end),
                        charge.getEpsilon(),
                        charge.getWindowTotal(),
                        charge.getSpent(),
                        charge.getCap(),
                        charge.getPeriodStart().toEpochMilli(),
                        charge.getPeriodEnd().toEpochMilli());
        return StreamTestRecords.bytes(
                new Publication.Centroids(
                        ReleaseAssembler.release(
                                s,
                                Summary.CKM.wireName(),
                                "stream",
                                org.dpclust.privacy.Guarantee.DP,
                                start,
                                end,
                                1,
                                new ReleasedCentroids(decoded.centroids(), weights, params),
                                d)));
    }

    @Test
    void theKeyedOperatorReleasesTheSketchAndTheDecoderTheCentroids() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = threeWindows(ledger);
        List<Publication> out = h.extractOutputValues();
        assertEquals(List.of(), releases(out), "no centroids from the keyed operator");
        assertEquals(3, ledger.statuses().size());
        assertEquals(3, out.stream().filter(o -> o instanceof Publication.Sketch).count());
        assertEquals(3, h.getSideOutput(StreamClusteringFunction.RELEASED_SKETCHES).size());
        var rel = releases(decoded(CKM, h));
        assertEquals(
                List.of("ckm", "ckm", "ckm"),
                rel.stream().map(r -> r.getAlgorithm().toString()).toList());
        assertEquals(
                List.of(0L, W, 2 * W),
                rel.stream().map(r -> r.getWindowStart().toEpochMilli()).toList());
        h.close();
    }

    @Test
    void theTwoOperatorPathReleasesWhatTheSingleOperatorReleased() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = threeWindows(ledger);
        List<BudgetStatus> charges = ledger.statuses();
        List<Publication> decoded = decoded(CKM, h);
        assertEquals(3, decoded.size());
        for (int w = 0; w < 3; w++) {
            assertArrayEquals(
                    singleOperatorRelease(CKM, window(w), charges.get(w)),
                    StreamTestRecords.bytes(decoded.get(w)),
                    "window " + w + ": byte-identical to the single-operator release");
        }
        h.close();
    }

    @Test
    void aReleasedSketchDecodesToTheSameBytesAfterFlinkSerialization() throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h = threeWindows(ledger);
        assertTrue(
                StreamClusteringFunction.RELEASED_SKETCHES.getTypeInfo() instanceof PojoTypeInfo,
                "a Flink POJO, not Kryo");
        var serializer =
                StreamClusteringFunction.RELEASED_SKETCHES
                        .getTypeInfo()
                        .createSerializer(new SerializerConfigImpl());
        var fresh = StreamTestRecords.harness(new SketchDecoder(List.of(CKM)), s -> s.streamId);
        for (var r : h.getSideOutput(StreamClusteringFunction.RELEASED_SKETCHES)) {
            DataOutputSerializer bytes = new DataOutputSerializer(4096);
            serializer.serialize(r.getValue(), bytes);
            fresh.processElement(
                    serializer.deserialize(new DataInputDeserializer(bytes.getCopyOfBuffer())), 0);
        }
        List<Publication> first = decoded(CKM, h);
        List<Publication> replayed = fresh.extractOutputValues();
        assertEquals(3, replayed.size());
        for (int i = 0; i < first.size(); i++) {
            assertArrayEquals(
                    StreamTestRecords.bytes(first.get(i)),
                    StreamTestRecords.bytes(replayed.get(i)),
                    "release " + i + " replays byte-identically");
        }
        fresh.close();
        h.close();
    }

    /** The released sketches of {@link #threeWindows} for a stream with {@code spec}. */
    private static List<ReleasedSketch> releasedSketches(StreamSpec spec) throws Exception {
        var h = keyed(spec, new RecordingLedger());
        for (int w = 0; w < 3; w++) {
            for (ValidRecord r : window(w)) {
                h.processElement(WindowPartial.of(r), r.eventTime);
            }
        }
        h.processWatermark(Long.MAX_VALUE);
        List<ReleasedSketch> out = new ArrayList<>();
        h.getSideOutput(StreamClusteringFunction.RELEASED_SKETCHES)
                .forEach(r -> out.add(r.getValue()));
        h.close();
        return out;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ReleasedSketch, Publication>
            decoder(StreamSpec s, OperatorSubtaskState restored) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new SketchDecoder(List.of(s))),
                        (ReleasedSketch r) -> r.streamId,
                        Types.STRING);
        h.setup(PublicationTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl()));
        if (restored != null) {
            h.initializeState(restored);
        }
        h.open();
        return h;
    }

    /**
     * With {@code ckm.warm_start} each window decodes from the previous window's decode (public),
     * kept in the decoder's keyed state: the releases are that chain of decodes byte for byte, a
     * replay gives the same bytes, and so does a decoder restored from a checkpoint taken between
     * two windows.
     */
    @Test
    void warmStartDecodesFromThePreviousReleaseAndReplaysByteIdentically() throws Exception {
        StreamSpec warmSpec = spec("    summaries: [ckm]\n    ckm: {warm_start: true}\n");
        assertTrue(warmSpec.ckm().warmStart());
        List<ReleasedSketch> sketches = releasedSketches(warmSpec);
        assertEquals(3, sketches.size());
        StreamRuntime rt = StreamRuntime.of(warmSpec);
        List<byte[]> chain = new ArrayList<>();
        ClOmpr.WarmStart previous = null;
        for (ReleasedSketch r : sketches) {
            SketchDecoding.Decoded d =
                    SketchDecoding.release(warmSpec, rt.frequencies(), r, previous);
            chain.add(StreamTestRecords.bytes(new Publication.Centroids(d.release())));
            previous = d.next();
        }
        byte[] cold =
                StreamTestRecords.bytes(
                        new Publication.Centroids(
                                SketchDecoding.release(
                                        warmSpec, rt.frequencies(), sketches.get(2))));
        assertFalse(Arrays.equals(cold, chain.get(2)), "window 2 was decoded warm, not cold");
        for (int run = 0; run < 2; run++) {
            var h = decoder(warmSpec, null);
            for (ReleasedSketch r : sketches) {
                h.processElement(r, r.windowEnd);
            }
            List<Publication> out = h.extractOutputValues();
            for (int w = 0; w < 3; w++) {
                assertArrayEquals(chain.get(w), StreamTestRecords.bytes(out.get(w)), "window " + w);
            }
            h.close();
        }
        var first = decoder(warmSpec, null);
        first.processElement(sketches.get(0), sketches.get(0).windowEnd);
        OperatorSubtaskState checkpoint = first.snapshot(1, 1);
        first.close();
        var restored = decoder(warmSpec, checkpoint);
        restored.processElement(sketches.get(1), sketches.get(1).windowEnd);
        restored.processElement(sketches.get(2), sketches.get(2).windowEnd);
        List<Publication> out = restored.extractOutputValues();
        assertArrayEquals(chain.get(1), StreamTestRecords.bytes(out.get(0)));
        assertArrayEquals(chain.get(2), StreamTestRecords.bytes(out.get(1)));
        restored.close();
    }

    /**
     * {@code ckm.decode_every: 2}: the sketch is released every window (the same sketches as
     * without the option), the decoder publishes the windows with an even index only — window 2
     * warm-started from window 0, the last decoded one — and a decoder restored from a checkpoint
     * taken after the skipped window 1 publishes the same bytes.
     */
    @Test
    void decodeEveryNDecodesEveryNthWindowOnlyAndReplaysByteIdentically() throws Exception {
        StreamSpec every2 =
                spec("    summaries: [ckm]\n    ckm: {warm_start: true, decode_every: 2}\n");
        List<ReleasedSketch> sketches = releasedSketches(every2);
        List<ReleasedSketch> always =
                releasedSketches(spec("    summaries: [ckm]\n    ckm: {warm_start: true}\n"));
        assertEquals(3, sketches.size(), "released every window");
        for (int w = 0; w < 3; w++) {
            assertArrayEquals(always.get(w).sketch, sketches.get(w).sketch, "window " + w);
        }
        StreamRuntime rt = StreamRuntime.of(every2);
        SketchDecoding.Decoded d0 =
                SketchDecoding.release(every2, rt.frequencies(), sketches.get(0), null);
        SketchDecoding.Decoded d2 =
                SketchDecoding.release(every2, rt.frequencies(), sketches.get(2), d0.next());
        List<byte[]> expected =
                List.of(
                        StreamTestRecords.bytes(new Publication.Centroids(d0.release())),
                        StreamTestRecords.bytes(new Publication.Centroids(d2.release())));
        var h = decoder(every2, null);
        for (ReleasedSketch r : sketches) {
            h.processElement(r, r.windowEnd);
        }
        List<Publication> out = h.extractOutputValues();
        assertEquals(2, out.size(), "windows 0 and 2");
        assertArrayEquals(expected.get(0), StreamTestRecords.bytes(out.get(0)));
        assertArrayEquals(expected.get(1), StreamTestRecords.bytes(out.get(1)));
        h.close();
        var first = decoder(every2, null);
        first.processElement(sketches.get(0), sketches.get(0).windowEnd);
        first.processElement(sketches.get(1), sketches.get(1).windowEnd);
        OperatorSubtaskState checkpoint = first.snapshot(1, 1);
        first.close();
        var restored = decoder(every2, checkpoint);
        restored.processElement(sketches.get(2), sketches.get(2).windowEnd);
        assertArrayEquals(
                expected.get(1), StreamTestRecords.bytes(restored.extractOutputValues().get(0)));
        restored.close();
    }
}
