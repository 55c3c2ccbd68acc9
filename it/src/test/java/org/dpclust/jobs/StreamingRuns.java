package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaConnection;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.kafka.TopicReader;
import org.dpclust.ledger.LedgerScan;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.privacy.testing.TestRandoms;

/**
 * Runs the streaming job on the in-process broker and a MiniCluster and reads its topics back as a
 * {@code read_committed} consumer would (shared by the streaming ITs).
 */
final class StreamingRuns {
    /**
     * Event times of the ITs' data: a window-aligned instant ten minutes before the class loads.
     */
    static final long W = 10_000;

    static final long START = Math.floorDiv(System.currentTimeMillis(), W) * W - 60 * W;

    private final KafkaConnection kafka;

    StreamingRuns(EmbeddedKafka kafka) {
        this(KafkaConnection.plaintext(kafka.bootstrapServers()));
    }

    /** Runs whose topics are read back through {@code kafka} (e.g. a SASL_SSL listener). */
    StreamingRuns(KafkaConnection kafka) {
        this.kafka = kafka;
    }

    /** A small MiniCluster's memory settings (also used by {@link MetricsScrapeIT}). */
    static Configuration clusterConfig() {
        Configuration c = new Configuration();
        c.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("32m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("32m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("32m"));
        return c;
    }

    /** The streaming ITs' MiniCluster: one TaskManager with two slots and small memory. */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .setConfiguration(clusterConfig())
                        .build());
    }

    /**
     * A bounded run's configuration on topics {@code name.*} with its own group and transactional
     * ids, the schedule [start, end) and the given {@code streams:} entries (the data's event times
     * are minutes before their append times: max_lateness PT1H counts them all).
     */
    String boundedYaml(String name, long start, long end, String streams) {
        return """
                kafka:
                  bootstrap_servers: "%1$s"
                  topics: {input: %2$s.in, centroids: %2$s.centroids, sketches: %2$s.sketches, running: %2$s.running, budget: %2$s.budget, dlq: %2$s.dlq}
                  group_id: %2$s
                  transactional_id_prefix: %2$s
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                job:
                  checkpoint_interval: PT0.3S
                  max_out_of_orderness: PT1S
                  idle_timeout: PT2S
                  bounded_input: true
                  parallelism: 1
                  max_lateness: PT1H
                  start: "%3$s"
                  end: "%4$s"
                streams:
                """
                        .formatted(
                                kafka.bootstrapServers(),
                                name,
                                java.time.Instant.ofEpochMilli(start),
                                java.time.Instant.ofEpochMilli(end))
                + streams;
    }

    /** {@link #boundedYaml}'s configuration, parsed, with its topics created (one partition). */
    DpclustConfig boundedConfig(String name, long start, long end, String streams) {
        DpclustConfig c = ConfigLoader.parse(boundedYaml(name, start, end, streams));
        TopicAdmin.ensureTopics(c.kafka(), 1);
        return c;
    }

    static StreamExecutionEnvironment env(String restart) {
        return env(restart, 3, Duration.ofMillis(200));
    }

    /** An environment with the given restart strategy, attempts and delay (fixed-delay). */
    static StreamExecutionEnvironment env(String restart, int attempts, Duration delay) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration c = new Configuration();
        c.set(RestartStrategyOptions.RESTART_STRATEGY, restart);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, attempts);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, delay);
        env.configure(c);
        return env;
    }

    /** The job on a bounded input, with the ledger read from the budget topic, to its end. */
    JobExecutionResult runBounded(
            DpclustConfig c, KafkaRecordDeserializationSchema<RawRecord> deser, String restart)
            throws Exception {
        Map<String, Long> ledger =
                LedgerScan.lastChargedEnds(
                        LedgerSettings.of(c.kafka()),
                        c.streams().stream().map(s -> s.id()).toList(),
                        Duration.ofSeconds(30));
        StreamingJob job =
                new StreamingJob(
                        KafkaEndpoints.source(c, deser),
                        KafkaEndpoints.sink(c),
                        c,
                        TestRandoms.secretSource(),
                        ledger);
        return job.executeAsync(env(restart)).getJobExecutionResult().get();
    }

    List<ConsumerRecord<byte[], byte[]>> committed(String topic) {
        try (TopicReader r = new TopicReader(kafka, topic)) {
            return r.readToEnd(Duration.ofSeconds(60));
        }
    }

    List<CentroidRelease> releases(DpclustConfig c) throws IOException {
        List<CentroidRelease> l = new ArrayList<>();
        for (var r : committed(c.kafka().centroidsTopic())) {
            l.add(AvroCodec.centroids().decode(r.value()));
        }
        return l;
    }

    List<BudgetStatus> budget(DpclustConfig c) throws IOException {
        List<BudgetStatus> l = new ArrayList<>();
        for (var r : committed(c.kafka().budgetTopic())) {
            l.add(AvroCodec.budget().decode(r.value()));
        }
        return l;
    }

    List<RejectedRecord> deadLetters(DpclustConfig c) throws IOException {
        List<RejectedRecord> l = new ArrayList<>();
        for (var r : committed(c.kafka().dlqTopic())) {
            l.add(AvroCodec.rejected().decode(r.value()));
        }
        return l;
    }

    /**
     * Release bytes by stream, window (its start; a running release's end) and algorithm, in either
     * wire format; fails on a duplicate.
     */
    Map<String, byte[]> byWindow(DpclustConfig c) throws IOException {
        return byWindow(c.kafka().centroidsTopic());
    }

    /** {@link #byWindow(DpclustConfig)} of any topic of {@code CentroidRelease}s. */
    Map<String, byte[]> byWindow(String topic) throws IOException {
        Map<String, byte[]> m = new TreeMap<>();
        for (var r : committed(topic)) {
            CentroidRelease rel = AvroCodec.centroids().decodePublished(r.value());
            String key = rel.getStreamId() + "@" + rel.getWindowStart() + "/" + rel.getAlgorithm();
            if (rel.getMode().equals("running")) { // running releases share starts, not ends
                key = rel.getStreamId() + "@.." + rel.getWindowEnd() + "/" + rel.getAlgorithm();
            }
            assertTrue(
                    m.put(key, r.value()) == null,
                    "no duplicates for a read_committed consumer: " + key);
        }
        return m;
    }
}
