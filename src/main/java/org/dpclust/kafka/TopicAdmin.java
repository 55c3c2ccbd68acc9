package org.dpclust.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.dpclust.config.ConfigException;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaSettings;

/**
 * Creates dpclust's topics if missing: the input topic with {@code
 * message.timestamp.type=LogAppendTime} (the streaming job's clock, docs/event-time.md), the budget
 * topic compacted (latest total per ledger key). Checks an existing input topic's timestamp type at
 * start-up.
 */
public final class TopicAdmin {
    static final String LOG_APPEND_TIME = "LogAppendTime";

    private TopicAdmin() {}

    /**
     * Fails with a one-line {@link ConfigException} naming {@code kafka.topics.input} unless the
     * input topic's {@code message.timestamp.type} is {@code LogAppendTime}: the streaming job's
     * watermarks and per-record bounds use the broker's append time, which a producer cannot set.
     * The message says how to convert a CreateTime topic (records appended before the change keep
     * their CreateTime and are dead-lettered as {@code not_append_time}).
     */
    public static void requireLogAppendTime(KafkaSettings k) {
        requireLogAppendTime(k, List.of(k.inputTopic()), "kafka.topics.input");
    }

    /** {@link #requireLogAppendTime(KafkaSettings)} for every topic of {@code kafka.inputs}. */
    public static void requireLogAppendTime(DpclustConfig c) {
        requireLogAppendTime(
                c.kafka(),
                c.inputTopicNames(),
                c.declaredInputs().isEmpty() ? "kafka.topics.input" : "kafka.inputs");
    }

    private static void requireLogAppendTime(KafkaSettings k, List<String> inputs, String option) {
        for (String input : inputs) {
            requireLogAppendTime(k, input, option);
        }
    }

    private static void requireLogAppendTime(KafkaSettings k, String input, String option) {
        Properties p = adminProperties(k);
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, input);
        String type;
        try (Admin admin = Admin.create(p)) {
            var entry =
                    admin.describeConfigs(List.of(topic))
                            .all()
                            .get(30, TimeUnit.SECONDS)
                            .get(topic)
                            .get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
            type = entry == null ? null : entry.value();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(
                    "cannot read the configuration of input topic '"
                            + input
                            + "' on "
                            + k.bootstrapServers()
                            + ": "
                            + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading topic configuration", e);
        }
        if (!LOG_APPEND_TIME.equals(type)) {
            throw new ConfigException(
                    option,
                    "topic '"
                            + input
                            + "' has message.timestamp.type="
                            + type
                            + "; the streaming job needs LogAppendTime (kafka-configs.sh"
                            + " --alter --entity-type topics --entity-name "
                            + input
                            + " --add-config message.timestamp.type=LogAppendTime; records"
                            + " appended before are dead-lettered as not_append_time)");
        }
    }

    /** {@link #ensureTopics(KafkaSettings, int, int)} with a one-partition budget topic. */
    public static void ensureTopics(KafkaSettings k, int inputPartitions) {
        ensureTopics(k, inputPartitions, 1);
    }

    /**
     * Creates the missing topics: the input with {@code inputPartitions} and LogAppendTime, the
     * budget topic compacted with {@code budgetPartitions} (a stream's ledger lives on one
     * partition; the count must never change after the first charge, docs/ledger.md#partitioning)
     * and its snapshot topic compacted, the others with one partition. Existing topics are left as
     * they are.
     */
    public static void ensureTopics(KafkaSettings k, int inputPartitions, int budgetPartitions) {
        ensureTopics(k, List.of(k.inputTopic()), inputPartitions, budgetPartitions);
    }

    /** {@link #ensureTopics(KafkaSettings, int, int)} with every input topic of {@code c}. */
    public static void ensureTopics(DpclustConfig c, int inputPartitions, int budgetPartitions) {
        ensureTopics(c.kafka(), c.inputTopicNames(), inputPartitions, budgetPartitions);
    }

    private static void ensureTopics(
            KafkaSettings k, List<String> inputs, int inputPartitions, int budgetPartitions) {
        Properties p = adminProperties(k);
        try (Admin admin = Admin.create(p)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> create = new ArrayList<>();
            for (String input : inputs) {
                add(
                        create,
                        existing,
                        new NewTopic(input, inputPartitions, (short) 1)
                                .configs(
                                        Map.of(
                                                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                                                LOG_APPEND_TIME)));
            }
            add(create, existing, new NewTopic(k.centroidsTopic(), 1, (short) 1));
            add(create, existing, new NewTopic(k.sketchesTopic(), 1, (short) 1));
            add(create, existing, new NewTopic(k.cellsTopic(), 1, (short) 1));
            add(create, existing, new NewTopic(k.runningTopic(), 1, (short) 1));
            add(create, existing, new NewTopic(k.dlqTopic(), 1, (short) 1));
            add(
                    create,
                    existing,
                    new NewTopic(k.budgetTopic(), budgetPartitions, (short) 1)
                            .configs(
                                    Map.of(
                                            TopicConfig.CLEANUP_POLICY_CONFIG,
                                            TopicConfig.CLEANUP_POLICY_COMPACT)));
            add(
                    create,
                    existing,
                    new NewTopic(k.budgetSnapshotsTopic(), 1, (short) 1)
                            .configs(
                                    Map.of(
                                            TopicConfig.CLEANUP_POLICY_CONFIG,
                                            TopicConfig.CLEANUP_POLICY_COMPACT,
                                            // superseded snapshots go within the hour
                                            TopicConfig.SEGMENT_MS_CONFIG,
                                            "3600000",
                                            TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG,
                                            "0.1")));
            if (!create.isEmpty()) {
                for (var created : admin.createTopics(create).values().values()) {
                    try {
                        created.get(30, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        // another process (a generator, a second job) created it meanwhile
                        if (!(e.getCause()
                                instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                            throw e;
                        }
                    }
                }
            }
            List<String> all = new ArrayList<>(inputs);
            all.addAll(
                    List.of(
                            k.centroidsTopic(),
                            k.sketchesTopic(),
                            k.cellsTopic(),
                            k.runningTopic(),
                            k.dlqTopic(),
                            k.budgetTopic(),
                            k.budgetSnapshotsTopic()));
            awaitLeaders(admin, all);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot create topics on " + k.bootstrapServers() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    /**
     * Waits (up to 30 s) until every partition of the topics has a leader, so that nothing written
     * right after creation waits on metadata (a producer would otherwise retry until its delivery
     * timeout).
     */
    private static void awaitLeaders(Admin admin, List<String> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            boolean ready = true;
            try {
                for (var d :
                        admin.describeTopics(topics)
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .values()) {
                    for (var p : d.partitions()) {
                        ready &= p.leader() != null && !p.leader().isEmpty();
                    }
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException)) {
                    throw e;
                }
                ready = false; // e.g. UnknownTopicOrPartition while a new topic's metadata
                // propagates
            }
            if (ready) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "topics " + topics + " have partitions without a leader after 30 s");
            }
            Thread.sleep(50);
        }
    }

    /**
     * The fewest partitions of any input topic (at least 1): the release clock runs the source at
     * no more subtasks than this, so every source subtask owns a partition and so reads ticks
     * (Flink's Kafka enumerator spreads each topic's partitions round-robin over the readers).
     */
    public static int fewestInputPartitions(DpclustConfig c) {
        try (Admin admin = Admin.create(adminProperties(c.kafka()))) {
            int fewest = Integer.MAX_VALUE;
            for (var d :
                    admin.describeTopics(c.inputTopicNames())
                            .allTopicNames()
                            .get(30, TimeUnit.SECONDS)
                            .values()) {
                fewest = Math.min(fewest, d.partitions().size());
            }
            return Math.max(1, fewest == Integer.MAX_VALUE ? 1 : fewest);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot describe the input topics "
                            + c.inputTopicNames()
                            + " on "
                            + c.kafka().bootstrapServers()
                            + ": "
                            + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing the input topics", e);
        }
    }

    private static Properties adminProperties(KafkaSettings k) {
        return k.connection()
                .clientProperties(Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    private static void add(List<NewTopic> create, Set<String> existing, NewTopic t) {
        if (!existing.contains(t.name())) {
            create.add(t);
        }
    }
}
