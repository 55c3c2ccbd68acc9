package org.dpclust.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;

/**
 * Where dpclust reads and writes (topics: docs/configuration.md#kafka); the transactional-id prefix
 * must be unique per job and sink, and the transaction timeout must stay below the broker's {@code
 * transaction.max.timeout.ms} (15 min by default) or the job restarts forever. {@code properties}
 * are the user's Kafka client properties ({@code kafka.properties}: security, SASL, TLS), applied
 * to every client through {@link #connection()}; they are validated by {@link KafkaConnection} and
 * never printed ({@link #toString()} names their keys only).
 */
public record KafkaSettings(
        String bootstrapServers,
        String inputTopic,
        String centroidsTopic,
        String sketchesTopic,
        String cellsTopic,
        String runningTopic,
        String budgetTopic,
        String dlqTopic,
        String groupId,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        String startingOffsets,
        Map<String, String> properties)
        implements Serializable {

    public KafkaSettings {
        properties = Map.copyOf(KafkaConnection.validate("kafka.properties", properties));
    }

    /**
     * Settings without client properties (a PLAINTEXT broker such as the in-process one) and with
     * the default cells and running topics.
     */
    public KafkaSettings(
            String bootstrapServers,
            String inputTopic,
            String centroidsTopic,
            String sketchesTopic,
            String budgetTopic,
            String dlqTopic,
            String groupId,
            String transactionalIdPrefix,
            Duration transactionTimeout,
            String startingOffsets) {
        this(
                bootstrapServers,
                inputTopic,
                centroidsTopic,
                sketchesTopic,
                DEFAULT_CELLS,
                DEFAULT_RUNNING,
                budgetTopic,
                dlqTopic,
                groupId,
                transactionalIdPrefix,
                transactionTimeout,
                startingOffsets,
                Map.of());
    }

    public static final String DEFAULT_INPUT = "telemetry.v1";
    public static final String DEFAULT_CENTROIDS = "dpclust.centroids.v1";
    public static final String DEFAULT_SKETCHES = "dpclust.sketches.v1";
    public static final String DEFAULT_CELLS = "dpclust.cells.v1";
    public static final String DEFAULT_RUNNING = "dpclust.running.v1";
    public static final String DEFAULT_BUDGET = "dpclust.budget.v1";
    public static final String DEFAULT_DLQ = "dpclust.dlq.v1";

    public KafkaSettings withBootstrapServers(String servers) {
        return withConnection(connection().withBootstrapServers(servers));
    }

    public KafkaSettings withTransactionalIdPrefix(String prefix) {
        return new KafkaSettings(
                bootstrapServers,
                inputTopic,
                centroidsTopic,
                sketchesTopic,
                cellsTopic,
                runningTopic,
                budgetTopic,
                dlqTopic,
                groupId,
                prefix,
                transactionTimeout,
                startingOffsets,
                properties);
    }

    /** These settings with {@code connection}'s bootstrap servers and client properties. */
    public KafkaSettings withConnection(KafkaConnection connection) {
        return new KafkaSettings(
                connection.bootstrapServers(),
                inputTopic,
                centroidsTopic,
                sketchesTopic,
                cellsTopic,
                runningTopic,
                budgetTopic,
                dlqTopic,
                groupId,
                transactionalIdPrefix,
                transactionTimeout,
                startingOffsets,
                connection.properties());
    }

    /**
     * The budget topic's snapshot topic: the ledger writers' per-stream state, so a restart reads a
     * bounded part of the budget topic (docs/ledger.md). Named after the budget topic.
     */
    public String budgetSnapshotsTopic() {
        return snapshotsTopicOf(budgetTopic);
    }

    /** The snapshot topic of budget topic {@code budgetTopic}: {@code <budget topic>.snapshots}. */
    public static String snapshotsTopicOf(String budgetTopic) {
        return budgetTopic + ".snapshots";
    }

    /** How every Kafka client of the job connects: the bootstrap servers and client properties. */
    public KafkaConnection connection() {
        return new KafkaConnection(bootstrapServers, properties);
    }

    /** Never the client property values (they may hold secrets). */
    @Override
    public String toString() {
        return "KafkaSettings[bootstrapServers="
                + bootstrapServers
                + ", topics="
                + String.join(",", inputTopic, centroidsTopic, sketchesTopic, budgetTopic, dlqTopic)
                + ", groupId="
                + groupId
                + ", transactionalIdPrefix="
                + transactionalIdPrefix
                + ", transactionTimeout="
                + transactionTimeout
                + ", startingOffsets="
                + startingOffsets
                + ", properties: "
                + KafkaConnection.describe(properties)
                + "]";
    }
}
