package org.dpclust.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.kafka.PublicationSerializer;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;

/** Builders for operator tests. */
public final class StreamTestRecords {
    /** Maps publications to the Kafka records the job would write (test topic names). */
    static final PublicationSerializer SERIALIZER =
            new PublicationSerializer(
                    "centroids",
                    "sketches",
                    "cells",
                    "running",
                    "dlq",
                    org.dpclust.config.TopicFormats.AVRO);

    private StreamTestRecords() {}

    /**
     * The window operator for one stream under the fixed test secret, no restored ledger view, a
     * schedule of {@code windows} windows ({@link #policy}) and {@code ledger}'s charges.
     */
    static StreamClusteringFunction function(StreamSpec s, int windows, RecordingLedger ledger) {
        return new StreamClusteringFunction(
                List.of(s),
                TestRandoms.secretSource(),
                Map.of(),
                policy(windows),
                ledger.factory());
    }

    /**
     * A harness for a keyed function emitting {@link Publication}s, with their serializer (the
     * harness would otherwise extract one from the first value and fall back to Avro reflection).
     */
    static <I> KeyedOneInputStreamOperatorTestHarness<String, I, Publication> harness(
            KeyedProcessFunction<String, I, Publication> f, KeySelector<I, String> key)
            throws Exception {
        return restored(f, key, null);
    }

    /**
     * {@link #harness} restored from {@code snapshot} (none: a fresh start), as after a restart.
     */
    static <I> KeyedOneInputStreamOperatorTestHarness<String, I, Publication> restored(
            KeyedProcessFunction<String, I, Publication> f,
            KeySelector<I, String> key,
            OperatorSubtaskState snapshot)
            throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(f), key, Types.STRING);
        h.setup(PublicationTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl()));
        if (snapshot != null) {
            h.initializeState(snapshot);
        }
        h.open();
        return h;
    }

    /** The value bytes the job's sink would write for {@code p}. */
    static byte[] bytes(Publication p) {
        return SERIALIZER.record(p).value();
    }

    /** The topic the job's sink would write {@code p} to. */
    static String topic(Publication p) {
        return SERIALIZER.record(p).topic();
    }

    /**
     * The schedule of the operator tests: windows of the 10 s test stream from 0 up to {@code
     * windows}·10 s, no lateness allowance (a window closes at its end − 1, as before append
     * times), any future.
     */
    static EventTimePolicy policy(int windows) {
        return new EventTimePolicy(0, windows * 10_000L, 0, Long.MAX_VALUE / 4);
    }

    public static StreamSpec spec(String extra) {
        return spec(extra, "{cells: 16}");
    }

    /** The test stream with {@code stats} set to the given YAML map. */
    static StreamSpec spec(String extra, String stats) {
        return spec(extra, stats, 1.0, 2.5);
    }

    /** The test stream at another epsilon per release and budget cap. */
    static StreamSpec spec(String extra, String stats, double epsilon, double cap) {
        return ConfigLoader.parse(
                        """
                streams:
                  - id: s
                    dimension: 2
                    lower: [0, 0]
                    upper: [1, 1]
                    k: 2
                    window: PT10S
                    epsilon_per_release: %s
                    budget_cap: %s
                    public_seed: 5
                    stats: %s
                """
                                        .formatted(epsilon, cap, stats)
                                + extra)
                .streams()
                .get(0);
    }

    static ValidRecord record(String device, long t, double x, double y) {
        ValidRecord r = new ValidRecord();
        r.streamId = "s";
        r.deviceId = device;
        r.eventTime = t;
        r.appendTime = t;
        r.logAppendTime = true;
        r.features = new double[] {x, y};
        return r;
    }

    static List<CentroidRelease> releases(List<Publication> out) {
        List<CentroidRelease> l = new ArrayList<>();
        for (Publication p : out) {
            if (p instanceof Publication.Centroids c) {
                l.add(c.value());
            }
        }
        return l;
    }

    /**
     * What the {@link SketchDecoder} emits for the sketches the keyed operator in {@code h}
     * released so far (its side output {@link StreamClusteringFunction#RELEASED_SKETCHES}), in
     * release order.
     */
    static List<Publication> decoded(
            StreamSpec s,
            KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication> h)
            throws Exception {
        var decoder = StreamTestRecords.harness(new SketchDecoder(List.of(s)), r -> r.streamId);
        for (StreamRecord<ReleasedSketch> r :
                h.getSideOutput(StreamClusteringFunction.RELEASED_SKETCHES)) {
            decoder.processElement(r.getValue(), r.getTimestamp());
        }
        List<Publication> out = decoder.extractOutputValues();
        decoder.close();
        return out;
    }
}
