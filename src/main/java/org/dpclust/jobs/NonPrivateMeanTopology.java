package org.dpclust.jobs;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.triggers.TriggerResult;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.dpclust.config.DpclustConfig;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.stream.NonPrivateWindowMean;
import org.dpclust.window.ValidRecord;

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
        if (config.job().ticks()) {
            throw new IllegalArgumentException(
                    "the non-private baseline runs on bounded input or with release_clock: records"
                            + " (it does not wire the release clock)");
        }
        var first = config.streams().get(0);
        StreamingTopology.Ingest in = StreamingTopology.ingest(env, source, config);
        long lateness = config.job().maxLateness().toMillis();
        var means =
                in.onTime()
                        .keyBy(r -> r.streamId)
                        .window(new PayloadTimeWindows(first.windowMillis(), lateness))
                        .allowedLateness(Duration.ofMillis(lateness))
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

    /**
     * Tumbling windows by the payload's event time (Flink time is the log append time), each fired
     * once when the append-time watermark reaches its end + max_lateness − 1: the same windows and
     * closing as the private job's {@link org.dpclust.window.EventTimePolicy}.
     */
    static final class PayloadTimeWindows extends WindowAssigner<ValidRecord, TimeWindow> {
        private final long size;
        private final long lateness;

        PayloadTimeWindows(long size, long lateness) {
            this.size = size;
            this.lateness = lateness;
        }

        @Override
        public Collection<TimeWindow> assignWindows(
                ValidRecord r, long timestamp, WindowAssignerContext ctx) {
            long start = Math.floorDiv(r.eventTime, size) * size;
            return List.of(new TimeWindow(start, start + size));
        }

        @Override
        public Trigger<ValidRecord, TimeWindow> getDefaultTrigger() {
            return new CloseTrigger(lateness);
        }

        @Override
        public TypeSerializer<TimeWindow> getWindowSerializer(ExecutionConfig config) {
            return new TimeWindow.Serializer();
        }

        @Override
        public boolean isEventTime() {
            return true;
        }
    }

    /** Fires (and purges) a window once, at its end + lateness − 1 on the watermark's clock. */
    static final class CloseTrigger extends Trigger<ValidRecord, TimeWindow> {
        private final long lateness;

        CloseTrigger(long lateness) {
            this.lateness = lateness;
        }

        @Override
        public TriggerResult onElement(
                ValidRecord r, long timestamp, TimeWindow w, TriggerContext ctx) {
            ctx.registerEventTimeTimer(w.maxTimestamp() + lateness);
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, TimeWindow w, TriggerContext ctx) {
            return time == w.maxTimestamp() + lateness
                    ? TriggerResult.FIRE_AND_PURGE
                    : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, TimeWindow w, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public void clear(TimeWindow w, TriggerContext ctx) {
            ctx.deleteEventTimeTimer(w.maxTimestamp() + lateness);
        }
    }
}
