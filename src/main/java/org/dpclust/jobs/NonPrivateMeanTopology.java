package org.dpclust.jobs;

import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.dpclust.config.DpclustConfig;
import org.dpclust.io.Publication;
import org.dpclust.io.PublicationTypeInfo;
import org.dpclust.io.RawRecord;
import org.dpclust.stream.NonPrivateWindowMean;

/**
 * The benchmark baseline's data flow: the same ingestion and exactly-once sink as {@link
 * StreamingTopology}, with a non-private keyed tumbling-window mean ({@link NonPrivateWindowMean})
 * in place of the private summaries; its output goes to the centroids topic of the configuration.
 * Not DP — never deploy it on private data for anyone but the operator. All streams must share one
 * window size (the first stream's).
 */
public final class NonPrivateMeanTopology {
    private NonPrivateMeanTopology() {}

    public static void build(
            StreamExecutionEnvironment env,
            Source<RawRecord, ?, ?> source,
            Sink<Publication> sink,
            DpclustConfig config) {
        var first = config.streams().get(0);
        StreamingTopology.Ingest in = StreamingTopology.ingest(env, source, config);
        var means =
                in.onTime()
                        .keyBy(r -> r.streamId)
                        .window(TumblingEventTimeWindows.of(first.window()))
                        .aggregate(
                                new NonPrivateWindowMean(first.dimension()),
                                new NonPrivateWindowMean.Output(),
                                PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO,
                                PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO,
                                PublicationTypeInfo.INSTANCE)
                        .name("nonprivate-window-mean")
                        .uid("nonprivate-window-mean");
        in.sinkWithDeadLetters(means, sink);
    }
}
