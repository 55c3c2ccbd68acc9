package org.dpclust.jobs;

import java.util.UUID;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.batch.BatchAlgorithm;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.JobSettings;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.KafkaLedgerClient;
import org.dpclust.io.LedgerCharge;
import org.dpclust.io.LedgerSettings;
import org.dpclust.io.OutboundRecord;
import org.dpclust.io.RawRecord;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;

/**
 * The batch job: takes its source and sink in the constructor and only wires and executes ({@link
 * BatchTopology} holds the data flow). Only private algorithms may run here, because its output is
 * the published centroids topic; a non-private algorithm is refused at construction.
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
    private final LedgerSettings ledger;
    private final String runId;

    public BatchJob(
            Source<RawRecord, ?, ?> source,
            Sink<OutboundRecord> sink,
            DpclustConfig config,
            StreamSpec spec,
            String algorithm,
            BatchParams params,
            PrivacyLedger.Interval interval,
            PrivacySecret secret,
            LedgerSettings ledger,
            String runId) {
        requirePublishable(BatchAlgorithms.get(algorithm));
        this.source = source;
        this.sink = sink;
        this.config = config;
        this.spec = spec;
        this.algorithm = algorithm;
        this.params = params;
        this.interval = interval;
        this.secret = secret;
        this.ledger = ledger;
        this.runId = runId;
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
     * from the streaming job's (one per stream, interval and run, so concurrent runs do not fence
     * each other's sinks).
     */
    public static DpclustConfig batchConfig(
            DpclustConfig config,
            String inputTopic,
            String streamId,
            PrivacyLedger.Interval interval,
            String runId) {
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
                                + interval.end()
                                + "-"
                                + runId,
                        k.transactionTimeout(),
                        "earliest");
        JobSettings j = config.job().withBoundedInput(true);
        return config.withKafka(batch).withJob(j);
    }

    /**
     * The job reading {@code inputTopic} to its end and writing through the exactly-once Kafka
     * sink, charging through the stream's fenced ledger writer under a new run id. Checks the
     * budget topic first (compacted, the stream's ledger history complete), so a lost or
     * misconfigured ledger fails here with one line, before the job starts.
     */
    public static BatchJob fromKafka(
            DpclustConfig config,
            String inputTopic,
            StreamSpec spec,
            String algorithm,
            BatchParams params,
            PrivacyLedger.Interval interval,
            PrivacySecret secret) {
        String runId = UUID.randomUUID().toString();
        DpclustConfig c = batchConfig(config, inputTopic, spec.id(), interval, runId);
        LedgerSettings ledger = LedgerSettings.of(c.kafka());
        try (KafkaLedgerClient client = KafkaLedgerClient.open(ledger)) {
            client.verify(spec.id());
        }
        return new BatchJob(
                KafkaEndpoints.source(c),
                KafkaEndpoints.sink(c),
                c,
                spec,
                algorithm,
                params,
                interval,
                secret,
                ledger,
                runId);
    }

    /**
     * The key of this run's charge on the budget topic: its CHARGE or REFUSED status is the run's
     * outcome (compare totals instead and a concurrent charge of the interval reads as this run's).
     */
    public String chargeKey() {
        return LedgerCharge.batch(spec, algorithm, interval, runId, params.epsilon()).key();
    }

    public void wire(StreamExecutionEnvironment env) {
        StreamingJob.forbidKryo(env);
        if (config.job().parallelism() > 0) {
            env.setParallelism(config.job().parallelism());
        }
        BatchTopology.build(
                env, source, sink, config, spec, algorithm, params, interval, secret, ledger,
                runId);
    }

    public void execute(StreamExecutionEnvironment env) throws Exception {
        wire(env);
        env.execute("dpclust-batch-" + algorithm + "-" + spec.id());
    }
}
