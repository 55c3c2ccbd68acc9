package org.dpclust.jobs;

import java.time.Duration;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming job: takes its source and sink in the constructor and only wires and executes
 * ({@link StreamingTopology} holds the data flow). The entry point of target/dpclust-job.jar for
 * {@code flink run} is {@code org.dpclust.launch.StreamCommand} (the options of {@code dpclust
 * stream}).
 */
public final class StreamingJob {
    private static final Logger LOG = LoggerFactory.getLogger(StreamingJob.class);

    private final Source<RawRecord, ?, ?> source;
    private final Sink<Publication> sink;
    private final DpclustConfig config;
    private final SecretSource secret;
    private final Map<String, Long> resumeAfter;

    /**
     * @param resumeAfter per stream, the end of its latest interval charged on the budget topic at
     *     start-up ({@link org.dpclust.ledger.LedgerScan}): a stream without state resumes its
     *     public schedule after it; charges themselves go through the fenced ledger writer
     */
    public StreamingJob(
            Source<RawRecord, ?, ?> source,
            Sink<Publication> sink,
            DpclustConfig config,
            SecretSource secret,
            Map<String, Long> resumeAfter) {
        this.source = source;
        this.sink = sink;
        this.config = config;
        this.secret = secret;
        this.resumeAfter = Map.copyOf(resumeAfter);
    }

    /**
     * The job as configured for Kafka (source and exactly-once sink from the configuration), on a
     * budget topic with no charged interval to resume after.
     */
    public static StreamingJob fromKafka(DpclustConfig config, SecretSource secret) {
        return fromKafka(config, secret, Map.of());
    }

    /**
     * The job as configured for Kafka, resuming each stream's schedule after {@code resumeAfter}.
     */
    public static StreamingJob fromKafka(
            DpclustConfig config, SecretSource secret, Map<String, Long> resumeAfter) {
        return new StreamingJob(
                KafkaEndpoints.source(config),
                KafkaEndpoints.sink(config),
                config,
                secret,
                resumeAfter);
    }

    public void wire(StreamExecutionEnvironment env) {
        configure(env, config);
        int logged = 0;
        for (StreamSpec s : config.streams()) {
            if (++logged > STREAMS_LOGGED) {
                LOG.info(
                        "... and {} more streams (dpclust stream logs each set of parameters)",
                        config.streams().size() - STREAMS_LOGGED);
                break;
            }
            LOG.info(
                    "stream {}: summaries {}, window {}, {} per release, cap {} per {},"
                            + " {} unit (c = {})",
                    s.id(),
                    s.summaries(),
                    s.window(),
                    s.releaseBudget(),
                    s.cap(),
                    s.budgetPeriod(),
                    s.privacyUnit().wireName(),
                    s.unitContribution());
        }
        LOG.info(
                "dpclust-stream: input {}, releases to {} / {} / {} / {} / {}, dead letters to {};"
                        + " secret from {}",
                String.join(", ", config.inputTopicNames()),
                config.kafka().centroidsTopic(),
                config.kafka().sketchesTopic(),
                config.kafka().cellsTopic(),
                config.kafka().runningTopic(),
                config.kafka().budgetTopic(),
                config.kafka().dlqTopic(),
                secret);
        int sourceParallelism = 0;
        if (config.job().ticks()) {
            ReleaseClock.probe(config);
            sourceParallelism = ReleaseClock.sourceParallelism(config, env.getParallelism());
            ReleaseClock.wire(env, config);
            LOG.info(
                    "release clock: a tick to every partition of {} every {}; source parallelism {}",
                    String.join(", ", config.inputTopicNames()),
                    config.job().tickInterval(),
                    sourceParallelism);
        }
        StreamingTopology.build(env, source, sink, config, secret, resumeAfter, sourceParallelism);
    }

    /**
     * What every streaming job sets: no Kryo, exactly-once checkpoints at the configured interval,
     * parallelism, streaming runtime mode. No failed checkpoint is tolerated: a checkpoint whose
     * ledger flush failed must restart the job, never let a later checkpoint commit the releases it
     * held (org.dpclust.stream.StreamLedger).
     */
    public static void configure(StreamExecutionEnvironment env, DpclustConfig config) {
        forbidKryo(env);
        env.enableCheckpointing(
                config.job().checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
        env.getCheckpointConfig().setTolerableCheckpointFailureNumber(0);
        // BATCH mode runs without checkpoints: the sink would commit releases whose charges the
        // ledger never flushed (they are committed before checkpoints)
        env.setRuntimeMode(org.apache.flink.api.common.RuntimeExecutionMode.STREAMING);
        if (config.job().parallelism() > 0) {
            env.setParallelism(config.job().parallelism());
        }
    }

    /**
     * Every record and state type has an explicit Flink serializer (POJOs and primitive arrays); a
     * type that would fall back to Kryo fails the job at build time instead of silently changing
     * the state format.
     */
    public static void forbidKryo(StreamExecutionEnvironment env) {
        Configuration c = new Configuration();
        c.set(PipelineOptions.GENERIC_TYPES, false);
        env.configure(c);
    }

    public void execute(StreamExecutionEnvironment env) throws Exception {
        wire(env);
        env.execute("dpclust-stream");
    }

    public JobClient executeAsync(StreamExecutionEnvironment env) throws Exception {
        wire(env);
        return env.executeAsync("dpclust-stream");
    }

    /** Streams logged one per line by {@link #wire}; a fleet's others are counted. */
    static final int STREAMS_LOGGED = 20;

    /** How long start-up waits for the budget topic before failing. */
    public static final Duration LEDGER_READ_TIMEOUT = Duration.ofSeconds(60);
}
