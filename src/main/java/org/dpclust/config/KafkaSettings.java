package org.dpclust.config;

import java.io.Serializable;
import java.time.Duration;

/**
 * Where dpclust reads and writes (topics: docs/configuration.md#kafka); the transactional-id prefix
 * must be unique per job and sink, and the transaction timeout must stay below the broker's {@code
 * transaction.max.timeout.ms} (15 min by default) or the job restarts forever.
 */
public record KafkaSettings(
        String bootstrapServers,
        String inputTopic,
        String centroidsTopic,
        String sketchesTopic,
        String cellsTopic,
        String budgetTopic,
        String dlqTopic,
        String groupId,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        String startingOffsets)
        implements Serializable {

    public static final String DEFAULT_INPUT = "telemetry.v1";
    public static final String DEFAULT_CENTROIDS = "dpclust.centroids.v1";
    public static final String DEFAULT_SKETCHES = "dpclust.sketches.v1";
    public static final String DEFAULT_CELLS = "dpclust.cells.v1";
    public static final String DEFAULT_BUDGET = "dpclust.budget.v1";
    public static final String DEFAULT_DLQ = "dpclust.dlq.v1";

    public KafkaSettings withBootstrapServers(String servers) {
        return new KafkaSettings(
                servers,
                inputTopic,
                centroidsTopic,
                sketchesTopic,
                cellsTopic,
                budgetTopic,
                dlqTopic,
                groupId,
                transactionalIdPrefix,
                transactionTimeout,
                startingOffsets);
    }

    public KafkaSettings withTransactionalIdPrefix(String prefix) {
        return new KafkaSettings(
                bootstrapServers,
                inputTopic,
                centroidsTopic,
                sketchesTopic,
                cellsTopic,
                budgetTopic,
                dlqTopic,
                groupId,
                prefix,
                transactionTimeout,
                startingOffsets);
    }
}
