package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.CkmSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.OutboundRecord;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.FrequencyMatrix;

/**
 * Decodes the {@code ckm} centroids of released DP sketches, downstream of (and off the thread of)
 * the keyed operator that released them ({@link StreamClusteringFunction}). Input: {@link
 * ReleasedSketch}es; output: the window's {@code ckm} {@link CentroidRelease} as an {@link
 * OutboundRecord} for the centroids topic.
 *
 * <p>Contract: pure post-processing of public data. It reads only the released sketch, its public
 * parameters and ledger decision, and the stream's public configuration (frequencies from the
 * public seed, k, bounds); CL-OMPR's starting points are seeded by {@code public_seed + window
 * start}. It reads no secret, adds no noise and charges nothing (the keyed operator charged the
 * release before emitting it). Stateless and deterministic: a replayed sketch decodes to the same
 * bytes, on any subtask, so the operator may run at any parallelism and needs no checkpointed state
 * for exactly-once output. It is keyed by stream only so that one stream's sketches are decoded,
 * and its centroids published, in window order.
 */
public class SketchDecoder extends KeyedProcessFunction<String, ReleasedSketch, OutboundRecord> {
    /** Job accumulator: nanoseconds spent decoding sketches, summed over subtasks. */
    public static final String ACC_DECODE_NANOS = "decode_nanos";

    private final List<StreamSpec> streams;
    private final String centroidsTopic;

    private transient Map<String, StreamSpec> specs;
    private transient Map<String, FrequencyMatrix> frequencies;
    private transient LongCounter decodeNanos;

    public SketchDecoder(List<StreamSpec> streams, String centroidsTopic) {
        this.streams = streams;
        this.centroidsTopic = centroidsTopic;
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
    public void processElement(ReleasedSketch r, Context ctx, Collector<OutboundRecord> out) {
        long started = System.nanoTime();
        StreamSpec s = specs.get(r.streamId);
        CentroidRelease release = release(s, frequencies.get(r.streamId), r);
        out.collect(ReleaseAssembler.toOutbound(centroidsTopic, release));
        decodeNanos.add(System.nanoTime() - started);
    }

    /**
     * The {@code ckm} release of one released sketch: the centroids CL-OMPR decodes from it, their
     * weights scaled to estimated records, the sketch's noise parameters plus the decoder's
     * residual norm.
     */
    static CentroidRelease release(StreamSpec s, FrequencyMatrix f, ReleasedSketch r) {
        CkmSettings c = s.ckm();
        ClOmpr.Result decoded =
                ClOmpr.decode(
                        r.sketch,
                        f,
                        s.k(),
                        new DomainBounds(s.lower(), s.upper()),
                        new ClOmpr.Options(
                                c.replicates(),
                                ClOmpr.Options.defaults(0).candidates(),
                                ClOmpr.Options.defaults(0).maxIterations(),
                                s.publicSeed() + r.windowStart));
        double[] weights = new double[decoded.weights().length];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = decoded.weights()[i] * r.divisor; // estimated records per centroid
        }
        Map<String, Double> params = r.parameters();
        params.put("decode_residual_norm", decoded.residualNorm());
        return ReleaseAssembler.release(
                s,
                Summary.CKM.wireName(),
                "stream",
                StreamClusteringFunction.GUARANTEE_DP,
                r.windowStart,
                r.windowEnd,
                1,
                new DpClusterStatistics.Release(decoded.centroids(), weights, params),
                r.decision());
    }
}
