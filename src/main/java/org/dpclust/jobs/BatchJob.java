package org.dpclust.jobs;

import java.util.Objects;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.batch.PublishPolicy;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.JobSettings;
import org.dpclust.config.KafkaSettings;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.ledger.KafkaLedgerClient;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.ledger.PrivacyLedger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batch job: takes its source and sink in the constructor and only wires and executes ({@link
 * BatchTopology} holds the data flow). Only dp algorithms may run here, because its output is the
 * published centroids topic and the stream's ledger; anything else is refused at construction
 * ({@link BatchRun}, {@link PublishPolicy}). The run charges through the stream's fenced ledger
 * writer ({@link KafkaLedgerClient}) under its own run id, before anything is released.
 */
public final class BatchJob {
    private static final Logger LOG = LoggerFactory.getLogger(BatchJob.class);

    private final Source<RawRecord, ?, ?> source;
    private final Sink<Publication> sink;
    private final BatchRun run;
    private final LedgerSettings ledger;

    /** The job over {@code source} and {@code sink}; {@link BatchRun} has validated the run. */
    public BatchJob(
            Source<RawRecord, ?, ?> source,
            Sink<Publication> sink,
            BatchRun run,
            LedgerSettings ledger) {
        this.source = Objects.requireNonNull(source, "source");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.run = Objects.requireNonNull(run, "run");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
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
                        k.cellsTopic(),
                        k.runningTopic(),
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
                        "earliest",
                        k.properties());
        JobSettings j = config.job().withBoundedInput(true);
        return config.withKafka(batch).withJob(j);
    }

    /**
     * The job reading {@code inputTopic} to its end and writing through the exactly-once Kafka
     * sink, charging through the stream's fenced ledger writer under the run's id. Checks the
     * budget topic first (compacted, the stream's ledger history complete), so a lost or
     * misconfigured ledger fails here with one line, before the job starts.
     */
    public static BatchJob fromKafka(String inputTopic, BatchRun run) {
        DpclustConfig c =
                batchConfig(run.config(), inputTopic, run.spec().id(), run.interval(), run.runId());
        LedgerSettings ledger = LedgerSettings.of(c.kafka());
        try (KafkaLedgerClient client = KafkaLedgerClient.open(ledger)) {
            client.verify(run.spec().id());
        }
        return new BatchJob(
                KafkaEndpoints.source(c), KafkaEndpoints.sink(c), run.withConfig(c), ledger);
    }

    /**
     * The key of this run's charge on the budget topic: its CHARGE or REFUSED status is the run's
     * outcome (compare totals instead and a concurrent charge of the interval reads as this run's).
     */
    public String chargeKey() {
        return LedgerCharge.batch(
                        run.spec(),
                        run.algorithm(),
                        run.interval(),
                        run.runId(),
                        run.params().epsilon())
                .key();
    }

    public void wire(StreamExecutionEnvironment env) {
        LOG.info(
                "dpclust-batch: {} on stream {} over {} (epsilon {}), input {}; secret from {}",
                run.algorithm(),
                run.spec().id(),
                run.interval().iso(),
                run.params().epsilon(),
                run.config().kafka().inputTopic(),
                run.secret());
        StreamingJob.forbidKryo(env);
        if (run.config().job().parallelism() > 0) {
            env.setParallelism(run.config().job().parallelism());
        }
        BatchTopology.build(env, source, sink, run, ledger);
    }

    public void execute(StreamExecutionEnvironment env) throws Exception {
        wire(env);
        env.execute("dpclust-batch-" + run.algorithm() + "-" + run.spec().id());
    }
}
