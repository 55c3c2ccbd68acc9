package org.dpclust.jobs;

import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.batch.BatchAlgorithm;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.JobSettings;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.privacy.PrivacyLedger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batch job: takes its source and sink in the constructor and only wires and executes ({@link
 * BatchTopology} holds the data flow). Only private algorithms may run here, because its output is
 * the published centroids topic; a non-private algorithm is refused at construction.
 */
public final class BatchJob {
    private static final Logger LOG = LoggerFactory.getLogger(BatchJob.class);

    private final Source<RawRecord, ?, ?> source;
    private final Sink<Publication> sink;
    private final DpclustConfig config;
    private final StreamSpec spec;
    private final String algorithm;
    private final BatchParams params;
    private final PrivacyLedger.Interval interval;
    private final SecretSource secret;
    private final Map<String, Double> ledgerSnapshot;

    public BatchJob(
            Source<RawRecord, ?, ?> source,
            Sink<Publication> sink,
            DpclustConfig config,
            StreamSpec spec,
            String algorithm,
            BatchParams params,
            PrivacyLedger.Interval interval,
            SecretSource secret,
            Map<String, Double> ledgerSnapshot) {
        requirePublishable(BatchAlgorithms.get(algorithm));
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
     * Refuses an algorithm whose output may not be published to a stream's centroids topic:
     * non-private references, and EPP (not differential privacy; it never shares a stream or a
     * ledger with dp releases).
     */
    public static void requirePublishable(BatchAlgorithm a) {
        if ("epp".equals(a.guarantee())) {
            throw new IllegalArgumentException(
                    "--output kafka: algorithm '"
                            + a.name()
                            + "' gives error-preserving "
                            + "privacy (epp), not differential privacy; epp output is batch-only and never published to a "
                            + "stream's topics or charged to its ledger, use --output DIR");
        }
        if (!a.isPrivate()) {
            throw new IllegalArgumentException(
                    "--output kafka: algorithm '"
                            + a.name()
                            + "' is non-private (guarantee "
                            + a.guarantee()
                            + "); its output may not go to the published centroids topic, use --output DIR");
        }
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
            SecretSource secret,
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
        LOG.info(
                "dpclust-batch: {} on stream {} over {} (epsilon {}), input {}; secret from {}",
                algorithm,
                spec.id(),
                interval.key(),
                params.epsilon(),
                config.kafka().inputTopic(),
                secret);
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
