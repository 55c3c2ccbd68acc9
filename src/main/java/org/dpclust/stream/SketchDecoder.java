package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.io.Publication;
import org.dpclust.io.PublicationTypeInfo;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.SketchDecoding;
import org.dpclust.window.StreamRuntime;

/**
 * Decodes the {@code ckm} centroids of released DP sketches ({@link SketchDecoding}), downstream of
 * and off the thread of the keyed operator that released them ({@link StreamClusteringFunction}).
 * Input: {@link ReleasedSketch}es; output: the window's {@code ckm} centroid release.
 *
 * <p>Pure post-processing of public data: no secret, no noise, no charge. Stateless and
 * deterministic, so it may run at any parallelism without checkpointed state and stay exactly-once.
 * Keyed by stream only so that one stream's sketches are decoded, and its centroids published, in
 * window order.
 */
public class SketchDecoder extends KeyedProcessFunction<String, ReleasedSketch, Publication>
        implements ResultTypeQueryable<Publication> {
    /** Job accumulator: nanoseconds spent decoding sketches, summed over subtasks. */
    public static final String ACC_DECODE_NANOS = "decode_nanos";

    private final List<StreamSpec> streams;

    private transient Map<String, StreamSpec> specs;
    private transient Map<String, FrequencyMatrix> frequencies;
    private transient LongCounter decodeNanos;

    public SketchDecoder(List<StreamSpec> streams) {
        this.streams = streams;
    }

    /** Publications travel with their own serializer, not Kryo. */
    @Override
    public TypeInformation<Publication> getProducedType() {
        return PublicationTypeInfo.INSTANCE;
    }

    @Override
    public void open(OpenContext ctx) {
        specs = new HashMap<>();
        frequencies = new HashMap<>();
        for (StreamSpec s : streams) {
            if (s.summaries().contains(Summary.CKM)) {
                specs.put(s.id(), s);
                frequencies.put(s.id(), StreamRuntime.frequencies(s));
            }
        }
        decodeNanos = new LongCounter();
        getRuntimeContext().addAccumulator(ACC_DECODE_NANOS, decodeNanos);
    }

    @Override
    public void processElement(ReleasedSketch r, Context ctx, Collector<Publication> out) {
        long started = System.nanoTime();
        out.collect(
                new Publication.Centroids(
                        SketchDecoding.release(
                                specs.get(r.streamId), frequencies.get(r.streamId), r)));
        decodeNanos.add(System.nanoTime() - started);
    }
}
