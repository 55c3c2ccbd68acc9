package org.dpclust.stream;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.OutboundRecord;

/** Builders for operator tests. */
final class StreamTestRecords {
    static final String CENTROIDS = "centroids";
    static final String BUDGET = "budget";
    static final String SKETCHES = "sketches";
    static final String DLQ = "dlq";

    private StreamTestRecords() {}

    /**
     * The schedule of the operator tests: windows of the 10 s test stream from 0 up to {@code
     * windows}·10 s, no lateness allowance (a window closes at its end − 1, as before append
     * times), any future.
     */
    static EventTimePolicy policy(int windows) {
        return new EventTimePolicy(0, windows * 10_000L, 0, Long.MAX_VALUE / 4);
    }

    static StreamSpec spec(String extra) {
        return spec(extra, "{cells: 16}");
    }

    /** The test stream with {@code stats} set to the given YAML map. */
    static StreamSpec spec(String extra, String stats) {
        return ConfigLoader.parse(
                        """
                streams:
                  - id: s
                    dimension: 2
                    lower: [0, 0]
                    upper: [1, 1]
                    k: 2
                    window: PT10S
                    epsilon_per_release: 1.0
                    budget_cap: 2.5
                    public_seed: 5
                    stats: %s
                """
                                        .formatted(stats)
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

    static List<CentroidRelease> releases(List<OutboundRecord> out) throws Exception {
        List<CentroidRelease> l = new ArrayList<>();
        for (OutboundRecord r : out) {
            if (r.topic.equals(CENTROIDS)) {
                l.add(AvroCodec.centroids().decode(r.value));
            }
        }
        return l;
    }

    static List<BudgetStatus> budget(List<OutboundRecord> out) throws Exception {
        List<BudgetStatus> l = new ArrayList<>();
        for (OutboundRecord r : out) {
            if (r.topic.equals(BUDGET)) {
                l.add(AvroCodec.budget().decode(r.value));
            }
        }
        return l;
    }

    /**
     * What the {@link SketchDecoder} emits for the sketches the keyed operator in {@code h}
     * released so far (its side output {@link StreamClusteringFunction#RELEASED_SKETCHES}), in
     * release order.
     */
    static List<OutboundRecord> decoded(
            StreamSpec s,
            KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, OutboundRecord> h)
            throws Exception {
        var decoder =
                ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                        new SketchDecoder(List.of(s), CENTROIDS), r -> r.streamId, Types.STRING);
        for (StreamRecord<ReleasedSketch> r :
                h.getSideOutput(StreamClusteringFunction.RELEASED_SKETCHES)) {
            decoder.processElement(r.getValue(), r.getTimestamp());
        }
        List<OutboundRecord> out = decoder.extractOutputValues();
        decoder.close();
        return out;
    }
}
