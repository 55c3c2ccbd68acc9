package org.dpclust.jobs;

import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.stream.AppendTimeWatermarks;
import org.dpclust.stream.LatenessFilter;
import org.dpclust.stream.RecordValidator;
import org.dpclust.stream.SketchDecoder;
import org.dpclust.stream.StreamClusteringFunction;
import org.dpclust.stream.SubStreamKey;
import org.dpclust.stream.WindowPreAggregator;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;

/**
 * Wires the docs/privacy.md#streaming-data-flow onto any source of raw records and any sink of
 * outbound records (Kafka in production, the same in tests on a real broker): raw (append-time
 * watermarks per partition, docs/event-time.md) → validate/clamp (dead letters) → per-record
 * inclusion (dead letters) → keyBy(stream, salt) → {@link WindowPreAggregator} (phase 1: exact
 * partial summaries, in memory) → keyBy(stream) → {@link StreamClusteringFunction} (phase 2: merge
 * per window, noise, release on the public schedule) → (side output of the released ckm sketches) →
 * keyBy(stream) → {@link SketchDecoder} (ckm centroids, stateless) → one exactly-once sink for
 * releases, sketches and dead letters (ledger entries are committed by the stream's fenced ledger
 * writer, which the release operator charges before it releases).
 */
public final class StreamingTopology {
    private StreamingTopology() {}

    public static void build(
            StreamExecutionEnvironment env,
            Source<RawRecord, ?, ?> source,
            Sink<Publication> sink,
            DpclustConfig config,
            SecretSource secret,
            Map<String, Long> resumeAfter) {
        build(env, source, sink, config, secret, resumeAfter, 0);
    }

    /**
     * As above, the source (and the validation chained to it) at {@code sourceParallelism} subtasks
     * (0 = the job's); with the release clock, at most the fewest partitions of an input topic, so
     * that every source subtask reads a partition's ticks ({@link ReleaseClock}).
     */
    public static void build(
            StreamExecutionEnvironment env,
            Source<RawRecord, ?, ?> source,
            Sink<Publication> sink,
            DpclustConfig config,
            SecretSource secret,
            Map<String, Long> resumeAfter,
            int sourceParallelism) {
        var streams = config.streams();
        EventTimePolicy policy = EventTimePolicy.of(config.job());
        Ingest in = ingest(env, source, config, sourceParallelism);
        // two-phase window aggregation: phase 1 keyed by (stream, salt) folds records into exact
        // partial
        // summaries in memory; phase 2 keyed by stream merges a window's partials, then noises and
        // releases once
        SingleOutputStreamOperator<WindowPartial> partials =
                in.onTime()
                        .keyBy(new SubStreamKey(streams))
                        .transform(
                                "pre-aggregate",
                                TypeInformation.of(WindowPartial.class),
                                new WindowPreAggregator(streams, policy, secret))
                        .uid("pre-aggregate");
        SingleOutputStreamOperator<Publication> releases =
                partials.keyBy(p -> p.streamId)
                        .process(
                                new StreamClusteringFunction(
                                        streams,
                                        secret,
                                        resumeAfter,
                                        policy,
                                        LedgerSettings.of(config.kafka())),
                                PublicationTypeInfo.INSTANCE)
                        .name("dp-window-summaries")
                        .uid("dp-window-summaries");
        // ckm centroids are post-processing of the released sketch: decoded off the keyed
        // operator's thread
        SingleOutputStreamOperator<Publication> decoded =
                releases.getSideOutput(StreamClusteringFunction.RELEASED_SKETCHES)
                        .keyBy(s -> s.streamId) // one stream's windows decoded in order,
                        // streams spread over subtasks
                        .process(new SketchDecoder(streams), PublicationTypeInfo.INSTANCE)
                        .name("ckm-decode")
                        .uid("ckm-decode");
        if (config.job().decodeParallelism() > 0) {
            decoded.setParallelism(config.job().decodeParallelism());
        }
        in.sinkWithDeadLetters(
                releases.union(decoded, partials.getSideOutput(WindowPreAggregator.LATE)), sink);
    }

    /**
     * The ingestion part shared by every streaming topology: validated records (with the
     * validator's dead letters as a side output) and on-time records (with the late ones as a side
     * output).
     */
    public record Ingest(
            SingleOutputStreamOperator<ValidRecord> valid,
            SingleOutputStreamOperator<ValidRecord> onTime) {
        /** Writes {@code outputs} and every dead letter to the one exactly-once sink. */
        public void sinkWithDeadLetters(DataStream<Publication> outputs, Sink<Publication> sink) {
            outputs.union(
                            valid.getSideOutput(RecordValidator.DEAD_LETTERS),
                            onTime.getSideOutput(LatenessFilter.LATE))
                    .sinkTo(sink)
                    .name("kafka-sink")
                    .uid("kafka-sink");
        }
    }

    /**
     * Source with per-partition append-time watermarks → validate/clamp → per-record inclusion (the
     * {@link EventTimePolicy}). Fails with a one-line configuration error without {@code job.start}
     * (or, with bounded input, {@code job.end}).
     */
    public static Ingest ingest(
            StreamExecutionEnvironment env, Source<RawRecord, ?, ?> source, DpclustConfig config) {
        return ingest(env, source, config, 0);
    }

    /**
     * {@link #ingest(StreamExecutionEnvironment, Source, DpclustConfig)} at a source parallelism.
     */
    public static Ingest ingest(
            StreamExecutionEnvironment env,
            Source<RawRecord, ?, ?> source,
            DpclustConfig config,
            int sourceParallelism) {
        var streams = config.streams();
        EventTimePolicy policy = EventTimePolicy.of(config.job());
        // watermarks per Kafka partition, in the source, from the broker's log append time of the
        // records that count: a payload's event time never moves time, and a lagging partition
        // holds the watermark back instead of having its records declared late
        WatermarkStrategy<RawRecord> watermarks =
                AppendTimeWatermarks.strategy(
                        streams,
                        policy,
                        config.job().maxOutOfOrderness(),
                        config.job().ticks() ? null : config.job().idleTimeout());
        SingleOutputStreamOperator<RawRecord> raw =
                env.fromSource(source, watermarks, "telemetry-source").uid("telemetry-source");
        SingleOutputStreamOperator<ValidRecord> valid =
                raw.process(new RecordValidator(streams))
                        .name("validate-clamp")
                        .uid("validate-clamp");
        SingleOutputStreamOperator<ValidRecord> onTime =
                valid.process(new LatenessFilter(streams, policy)).name("lateness").uid("lateness");
        if (sourceParallelism > 0) {
            raw.setParallelism(sourceParallelism);
            valid.setParallelism(sourceParallelism);
            onTime.setParallelism(sourceParallelism);
        }
        return new Ingest(valid, onTime);
    }
}
