package org.dpclust.jobs;

import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.stream.RecordValidator;
import org.dpclust.stream.SnapshotReleaseFunction;
import org.dpclust.window.ValidRecord;

/**
 * Wires the batch data flow (BATCH execution mode) onto a bounded source of raw records and a sink:
 * raw → validate/clamp ({@link RecordValidator}; its dead letters are not re-published, the
 * streaming job owns the dead-letter topic) → the chosen stream's records, plus one marker →
 * keyBy(stream) → {@link SnapshotReleaseFunction} (interval filter, charge through the stream's
 * fenced ledger writer, algorithm via the core) → sink (the releases; the ledger writer commits the
 * charges itself, before).
 */
public final class BatchTopology {
    private BatchTopology() {}

    public static void build(
            StreamExecutionEnvironment env,
            Source<RawRecord, ?, ?> source,
            Sink<Publication> sink,
            BatchRun run,
            LedgerSettings ledger) {
        DpclustConfig config = run.config();
        StreamSpec spec = run.spec();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        String streamId = spec.id();
        DataStream<RawRecord> raw =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "telemetry-snapshot")
                        .uid("telemetry-snapshot");
        DataStream<ValidRecord> ofStream =
                raw.process(new RecordValidator(config.streams()))
                        .name("validate-clamp")
                        .uid("validate-clamp")
                        .filter(r -> streamId.equals(r.streamId))
                        .name("stream-" + streamId)
                        .uid("stream-filter")
                        .map(
                                r -> {
                                    r.original = null; // only features and event time go on
                                    return r;
                                })
                        .name("strip")
                        .uid("strip");
        DataStream<ValidRecord> marker =
                env.fromData(
                                List.of(SnapshotReleaseFunction.marker(streamId)),
                                TypeInformation.of(ValidRecord.class))
                        .name("key-marker")
                        .uid("key-marker");
        ofStream.union(marker)
                .keyBy(r -> r.streamId)
                .process(
                        new SnapshotReleaseFunction(
                                spec,
                                run.algorithm(),
                                run.params(),
                                run.interval(),
                                run.secret(),
                                ledger,
                                run.runId()),
                        PublicationTypeInfo.INSTANCE)
                .name("snapshot-release")
                .uid("snapshot-release")
                .sinkTo(sink)
                .name("kafka-sink")
                .uid("kafka-sink");
    }
}
