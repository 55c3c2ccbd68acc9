package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.io.Publication;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.SketchDecoding;
import org.dpclust.window.StreamRuntime;

/**
 * Decodes the {@code ckm} centroids of released DP sketches ({@link SketchDecoding}), downstream of
 * and off the thread of the keyed operator that released them ({@link StreamClusteringFunction}).
 * Input: {@link ReleasedSketch}es; output: the window's {@code ckm} centroid release.
 *
 * <p>Pure post-processing of public data: no secret, no noise, no charge. Deterministic. Keyed by
 * stream so that one stream's sketches are decoded, and its centroids published, in window order;
 * for streams with {@code ckm.warm_start} its only state, checkpointed per stream, is the previous
 * release's unit centroids and relative residual (public), the next decode's warm start. Streams
 * without it keep no state. With {@code ckm.decode_every} N &gt; 1 only the windows {@link
 * org.dpclust.config.CkmSettings#decodes} names are decoded and published (every N-th, by the
 * window start alone: replays and restores decode the same windows); the others' sketches are
 * released as always and dropped here, and a warm start comes from the last decoded window.
 */
public class SketchDecoder extends KeyedProcessFunction<String, ReleasedSketch, Publication>
        implements ResultTypeQueryable<Publication> {
    /** Job accumulator: nanoseconds spent decoding sketches, summed over subtasks. */
    public static final String ACC_DECODE_NANOS = "decode_nanos";

    private final List<StreamSpec> streams;

    private transient Map<String, StreamSpec> specs;
    private transient Map<String, FrequencyMatrix> frequencies;
    private transient LongCounter decodeNanos;
    private transient ValueState<double[]> warm;

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
        warm =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "ckm-warm-start",
                                        PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
        decodeNanos = new LongCounter();
        getRuntimeContext().addAccumulator(ACC_DECODE_NANOS, decodeNanos);
    }

    @Override
    public void processElement(ReleasedSketch r, Context ctx, Collector<Publication> out)
            throws Exception {
        long started = System.nanoTime();
        StreamSpec s = specs.get(r.streamId);
        if (!s.ckm().decodes(r.windowStart, s.windowMillis())) {
            return;
        }
        boolean warmStart = s.ckm().warmStart();
        SketchDecoding.Decoded d =
                SketchDecoding.release(
                        s,
                        frequencies.get(r.streamId),
                        r,
                        warmStart ? unflatten(warm.value(), s.k(), s.dimension()) : null);
        if (warmStart) {
            warm.update(flatten(d.next()));
        }
        out.collect(new Publication.Centroids(d.release()));
        decodeNanos.add(System.nanoTime() - started);
    }

    /** k·d unit centroids, then the relative residual. */
    private static double[] flatten(ClOmpr.WarmStart w) {
        double[][] c = w.unitCentroids();
        int d = c.length == 0 ? 0 : c[0].length;
        double[] flat = new double[c.length * d + 1];
        for (int i = 0; i < c.length; i++) {
            System.arraycopy(c[i], 0, flat, i * d, d);
        }
        flat[flat.length - 1] = w.relativeResidual();
        return flat;
    }

    /** The warm start stored by {@link #flatten}, or null (none yet, or of another k or d). */
    private static ClOmpr.WarmStart unflatten(double[] flat, int k, int d) {
        if (flat == null || flat.length != k * d + 1) {
            return null;
        }
        double[][] c = new double[k][d];
        for (int i = 0; i < k; i++) {
            System.arraycopy(flat, i * d, c[i], 0, d);
        }
        return new ClOmpr.WarmStart(c, flat[k * d]);
    }
}
