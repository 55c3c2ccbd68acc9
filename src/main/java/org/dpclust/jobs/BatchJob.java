package org.dpclust.jobs;

import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.batch.PublishPolicy;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.JobSettings;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.OutboundRecord;
import org.dpclust.io.RawRecord;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;

/**
 * The batch job: takes its source and sink in the constructor and only wires and executes ({@link
 * BatchTopology} holds the data flow). Only dp algorithms may run here, because its output is the
 * published centroids topic and the stream's ledger; anything else is refused at construction
 * ({@link PublishPolicy}).
 */
public final class BatchJob {
    private final Source<RawRecord, ?, ?> source;
    private final Sink<OutboundRecord> sink;
    private final DpclustConfig config;
    private final StreamSpec spec;
    private final String algorithm;
    private final BatchParams params;
    private final PrivacyLedger.Interval interval;
    private final PrivacySecret secret;
    private final Map<String, Double> ledgerSnapshot;

    public BatchJob(
            Source<RawRecord, ?, ?> source,
            Sink<OutboundRecord> sink,
            DpclustConfig config,
            StreamSpec spec,
            String algorithm,
            BatchParams params,
            PrivacyLedger.Interval interval,
            PrivacySecret secret,
            Map<String, Double> ledgerSnapshot) {
        PublishPolicy.requirePublishable(BatchAlgorithms.get(algorithm));
        this.source = source;
        this.sink = sink;
        this.config = config;
        this.spec = spec;
        this.algorithm = algorithm;
        this.params = params;
        this.interval = interval;
        this.secret = secret;
        this.ledgerSnapshot = ledgerSnapshot;
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
    public static BatchJob fromKafka(
            DpclustConfig config,
            String inputTopic,
            StreamSpec spec,
            String algorithm,
            BatchParams params,
            PrivacyLedger.Interval interval,
            PrivacySecret secret,
            Map<String, Double> ledgerSnapshot) {
        DpclustConfig c = batchConfig(config, inputTopic, spec.id(), interval);
        return new BatchJob(
                KafkaEndpoints.source(c),
                KafkaEndpoints.sink(c),
                c,
                spec,
                algorithm,
                params,
                interval,
                secret,
                ledgerSnapshot);
    }

    public void wire(StreamExecutionEnvironment env) {
        StreamingJob.forbidKryo(env);
        if (config.job().parallelism() > 0) {
            env.setParallelism(config.job().parallelism());
        }
        BatchTopology.build(
                env,
                source,
                sink,
                config,
                spec,
                algorithm,
                params,
                interval,
                secret,
                ledgerSnapshot);
    }

    public void execute(StreamExecutionEnvironment env) throws Exception {
        wire(env);
        env.execute("dpclust-batch-" + algorithm + "-" + spec.id());
    }
}
