package org.dpclust.jobs;

import java.util.Objects;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.batch.PublishPolicy;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.JobSettings;
import org.dpclust.config.KafkaSettings;
import org.dpclust.io.OutboundRecord;
import org.dpclust.io.RawRecord;
import org.dpclust.privacy.PrivacyLedger;

/**
 * The batch job: takes its source and sink in the constructor and only wires and executes ({@link
 * BatchTopology} holds the data flow). Only dp algorithms may run here, because its output is the
 * published centroids topic and the stream's ledger; anything else is refused at construction
 * ({@link BatchRun}, {@link PublishPolicy}).
 */
public final class BatchJob {
    private final Source<RawRecord, ?, ?> source;
    private final Sink<OutboundRecord> sink;
    private final BatchRun run;

    /** The job over {@code source} and {@code sink}; {@link BatchRun} has validated the run. */
    public BatchJob(Source<RawRecord, ?, ?> source, Sink<OutboundRecord> sink, BatchRun run) {
        this.source = Objects.requireNonNull(source, "source");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.run = Objects.requireNonNull(run, "run");
    }

    /**
     * The configuration a batch run reads and writes with: the input topic from its earliest offset
     * up to its end offsets at start, its own consumer group and a transactional-id prefix distinct
     * from the streaming job's (one per stream and interval).
     */
    public static DpclustConfig batchConfig(
            DpclustConfig config,
            String inputTopic,
            String streamId,
            PrivacyLedger.Interval interval) {
        KafkaSettings k = config.kafka();
        KafkaSettings batch =
                new KafkaSettings(
                        k.bootstrapServers(),
                        inputTopic,
                        k.centroidsTopic(),
                        k.sketchesTopic(),
                        k.budgetTopic(),
                        k.dlqTopic(),
                        k.groupId() + "-batch",
                        k.transactionalIdPrefix()
                                + "-batch-"
                                + streamId
                                + "-"
                                + interval.start()
                                + "-"
                                + interval.end(),
                        k.transactionTimeout(),
                        "earliest");
        JobSettings j = config.job().withBoundedInput(true);
        return config.withKafka(batch).withJob(j);
    }

    /**
     * The job reading {@code inputTopic} to its end and writing through the exactly-once Kafka
     * sink.
     */
    public static BatchJob fromKafka(String inputTopic, BatchRun run) {
        DpclustConfig c = batchConfig(run.config(), inputTopic, run.spec().id(), run.interval());
        return new BatchJob(KafkaEndpoints.source(c), KafkaEndpoints.sink(c), run.withConfig(c));
    }

    public void wire(StreamExecutionEnvironment env) {
        StreamingJob.forbidKryo(env);
        if (run.config().job().parallelism() > 0) {
            env.setParallelism(run.config().job().parallelism());
        }
        BatchTopology.build(env, source, sink, run);
    }

    public void execute(StreamExecutionEnvironment env) throws Exception {
        wire(env);
        env.execute("dpclust-batch-" + run.algorithm() + "-" + run.spec().id());
    }
}
