package org.dpclust.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;

/**
 * The fenced single writer of each stream's privacy ledger on the compacted budget topic (Kafka
 * clients only, no Flink). Protocol, per charge of stream S (docs/ledger.md):
 *
 * <ol>
 *   <li>the writer of S is a transactional producer with id {@code prefix-S}; a new one calls
 *       {@code initTransactions()}, which fences every other producer of S and completes or aborts
 *       the transaction it left open;
 *   <li>it reads S's partition of the budget topic {@code read_committed} up to the high watermark
 *       it finds (waiting until the last stable offset has reached it), incrementally: the consumer
 *       keeps its position, so a steady-state charge reads only what is new;
 *   <li>it checks that no history is missing ({@link LedgerHistory#check}) and, if the charge's key
 *       was decided before, returns that decision (idempotent replay);
 *   <li>else it decides against the spend it has just read ({@link PrivacyLedger}), and writes the
 *       decision (CHARGE or REFUSED, sequence number h + 1) and the stream's marker (high-water
 *       mark h + 1, the topic id) in one transaction, and commits it;
 *   <li>only a committed decision is returned. A producer fenced on the way ({@code
 *       ProducerFencedException}, {@code InvalidProducerEpochException}) or any other failure is
 *       closed and the whole step re-runs with a new producer, so no decision is ever written from
 *       a stale view; after {@link LedgerSettings#chargeTimeout()} it throws {@link
 *       LedgerUnavailableException}.
 * </ol>
 *
 * A producer is initialised once and reused while it is not fenced: a successful commit proves that
 * no other writer of S initialised after this one, so everything any other writer committed was
 * committed before our {@code initTransactions()} returned and lies below the high watermark read
 * after it — the same guarantee as an {@code initTransactions()} per charge, without a new producer
 * per charge.
 *
 * <p>Partitioning: all records of S (decisions and marker) go to partition {@code murmur2(S) mod n}
 * of the n-partition budget topic (the partition Kafka's default partitioner gives the key S), so a
 * writer reads only its stream's partition. The partition count must never change; a stream that
 * finds no history in its partition while the topic has records of it elsewhere is refused.
 *
 * <p>At {@link #open}: the topic must exist and have {@code cleanup.policy=compact} exactly (a
 * {@code delete} policy or retention would let history vanish). At every charge the topic's id is
 * checked against the id seen at open (a topic recreated under a running writer is refused).
 *
 * <p>Not thread-safe per stream: one caller per stream at a time (the Flink operator's task
 * thread); calls for different streams of one client are serialised.
 */
public final class KafkaLedgerClient implements LedgerClient {

    private final LedgerSettings settings;
    private final Duration call;
    private final Admin admin;
    private final String topicId;
    private final int partitions;
    private final Map<String, Writer> writers = new HashMap<>();
    private final AvroCodec<BudgetStatus> codec = AvroCodec.budget();
    private long retries;

    private KafkaLedgerClient(
            LedgerSettings settings, Admin admin, String topicId, int partitions) {
        this.settings = settings;
        this.call = callTimeout(settings);
        this.admin = admin;
        this.topicId = topicId;
        this.partitions = partitions;
    }

    /**
     * Connects and checks the budget topic: it must exist and be compacted.
     *
     * @throws LedgerHistoryException if the topic is not compacted (naming topic and setting)
     * @throws LedgerUnavailableException if the topic cannot be described in time
     */
    public static KafkaLedgerClient open(LedgerSettings settings) {
        Duration call = callTimeout(settings);
        Admin admin =
                Admin.create(
                        settings.kafka()
                                .clientProperties(
                                        Map.of(
                                                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                                                (int) call.toMillis(),
                                                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                                                requestTimeoutMs(call))));
        try {
            String topic = settings.topic();
            ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            TopicDescription d = describe(admin, topic, settings, call);
            Config cfg =
                    admin.describeConfigs(List.of(res))
                            .all()
                            .get(call.toMillis(), TimeUnit.MILLISECONDS)
                            .get(res);
            ConfigEntry policy = cfg.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            String value = policy == null ? "(unset)" : policy.value();
            if (!TopicConfig.CLEANUP_POLICY_COMPACT.equals(value)) {
                throw new LedgerHistoryException(
                        "budget topic '"
                                + topic
                                + "' has cleanup.policy="
                                + value
                                + "; the privacy ledger needs cleanup.policy=compact (a delete"
                                + " policy lets history vanish): kafka-configs.sh --alter"
                                + " --entity-type topics --entity-name "
                                + topic
                                + " --add-config cleanup.policy=compact");
            }
            return new KafkaLedgerClient(
                    settings, admin, d.topicId().toString(), d.partitions().size());
        } catch (RuntimeException e) {
            admin.close(Duration.ZERO);
            throw e;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            admin.close(Duration.ZERO);
            throw unavailable(settings, "cannot describe it", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            admin.close(Duration.ZERO);
            throw unavailable(settings, "interrupted", e);
        }
    }

    private static TopicDescription describe(
            Admin admin, String topic, LedgerSettings settings, Duration call)
            throws InterruptedException, java.util.concurrent.TimeoutException, ExecutionException {
        try {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(call.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException(
                        "budget topic '"
                                + topic
                                + "' does not exist on "
                                + settings.bootstrapServers()
                                + " (create it with cleanup.policy=compact, or run `dpclust stream"
                                + " --create-topics`)");
            }
            throw e;
        }
    }

    /**
     * How many charge steps were re-run (fenced by another writer, timed out, ...) since open: a
     * metric of contention and broker trouble.
     */
    public synchronized long retries() {
        return retries;
    }

    /** The budget topic's partition count when this client opened. */
    public int partitions() {
        return partitions;
    }

    /** The budget topic's id (Kafka topic UUID) when this client opened. */
    public String topicId() {
        return topicId;
    }

    /** The partition of the n-partition budget topic that holds stream {@code stream}'s ledger. */
    public static int partitionFor(String stream, int partitions) {
        return Utils.toPositive(Utils.murmur2(stream.getBytes(StandardCharsets.UTF_8)))
                % partitions;
    }

    @Override
    public synchronized LedgerDecision charge(LedgerCharge charge, LedgerMark seen) {
        return writer(charge.stream()).charge(charge, seen == null ? LedgerMark.NONE : seen);
    }

    /**
     * Adopts a restored budget topic for {@code stream}: the topic holds the stream's history
     * (restored byte-exactly from a backup, decisions 1..h complete) under a marker written to
     * another topic id. Writes a marker with the same high-water mark, this topic's id and the
     * earlier id added to {@code adopted_from}, so writers that saw the history on the old topic
     * accept this one. Refuses if there is nothing to adopt or the history is incomplete.
     *
     * @return the stream's mark after adoption
     */
    public synchronized LedgerMark adopt(String stream) {
        return writer(stream).adopt();
    }

    /**
     * Reads the stream's ledger to its end and checks that no history is missing (as a charge
     * would, without charging); returns its committed high-water mark.
     *
     * @throws LedgerHistoryException if history is missing
     */
    public synchronized LedgerMark verify(String stream) {
        Writer w = writer(stream);
        return w.run(
                () -> {
                    w.catchUp(System.nanoTime() + settings.chargeTimeout().toNanos());
                    w.history.check(settings.topic(), topicId, LedgerMark.NONE);
                    return new LedgerMark(topicId, w.history.highWater());
                });
    }

    /**
     * Reads the stream's ledger to its end, checks it as {@link #verify} does, and returns the
     * decision (CHARGE or REFUSED) recorded under {@code chargeKey}, or null if none is: how a
     * writer elsewhere (a batch run's operator) learns its own charge's outcome without comparing
     * totals, which a concurrent charge of the same interval would change.
     *
     * @throws LedgerHistoryException if history is missing
     */
    public synchronized BudgetStatus decision(String stream, String chargeKey) {
        Writer w = writer(stream);
        return w.run(
                () -> {
                    w.catchUp(System.nanoTime() + settings.chargeTimeout().toNanos());
                    w.history.check(settings.topic(), topicId, LedgerMark.NONE);
                    BudgetStatus held = w.history.recorded(chargeKey);
                    // older than the decisions held in memory: look it up on the partition
                    return held != null ? held : w.lookUp(chargeKey);
                });
    }

    private Writer writer(String stream) {
        return writers.computeIfAbsent(stream, Writer::new);
    }

    @Override
    public synchronized void close() {
        writers.values().forEach(Writer::close);
        writers.clear();
        admin.close(Duration.ofSeconds(5));
    }

    /**
     * The bound of one Kafka call (and of a producer's blocking): a quarter of the charge timeout,
     * between 1 and 15 s, so a charge against an unavailable broker gives up after about {@link
     * LedgerSettings#chargeTimeout()} plus one call.
     */
    static Duration callTimeout(LedgerSettings s) {
        long ms = Math.max(1_000, Math.min(15_000, s.chargeTimeout().toMillis() / 4));
        return Duration.ofMillis(ms);
    }

    private static int requestTimeoutMs(Duration call) {
        return (int) Math.max(500, call.toMillis() * 2 / 3);
    }

    private static LedgerUnavailableException unavailable(
            LedgerSettings s, String what, Throwable cause) {
        return new LedgerUnavailableException(
                "budget topic '"
                        + s.topic()
                        + "' on "
                        + s.bootstrapServers()
                        + " unavailable: "
                        + what
                        + (cause != null && cause.getMessage() != null
                                ? " (" + cause.getMessage() + ")"
                                : ""),
                cause);
    }

    /** The single writer of one stream: its producer, its partition's consumer and history. */
    private final class Writer {
        private final String stream;
        private final TopicPartition tp;
        private final byte[] keyPrefix;
        private final LedgerHistory history;
        private KafkaConsumer<byte[], byte[]> consumer;
        private KafkaProducer<byte[], byte[]> producer;
        private boolean checkedElsewhere;

        Writer(String stream) {
            this.stream = stream;
            this.tp = new TopicPartition(settings.topic(), partitionFor(stream, partitions));
            this.keyPrefix = (stream + "|").getBytes(StandardCharsets.UTF_8);
            this.history = new LedgerHistory(stream);
        }

        LedgerDecision charge(LedgerCharge c, LedgerMark seen) {
            return run(() -> attempt(c, seen));
        }

        LedgerMark adopt() {
            return run(this::adoptOnce);
        }

        <T> T run(Step<T> step) {
            long deadline = System.nanoTime() + settings.chargeTimeout().toNanos();
            Exception last = null;
            for (int attempt = 0; ; attempt++) {
                try {
                    return step.run();
                } catch (LedgerHistoryException e) {
                    closeProducer();
                    throw e;
                } catch (KafkaException
                        | ExecutionException
                        | java.util.concurrent.TimeoutException
                        | StepTimeout e) {
                    // fenced, timed out, coordinator moved, outcome of a commit unknown...: the
                    // whole step re-runs from a new producer and a fresh read
                    last = e;
                    closeProducer();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closeProducer();
                    throw unavailable(settings, "interrupted while charging", e);
                } catch (RuntimeException e) { // a bug or a corrupt ledger: not retried
                    closeProducer();
                    throw e;
                } catch (Exception e) {
                    last = e;
                    closeProducer();
                }
                retries++;
                if (System.nanoTime() > deadline) {
                    throw unavailable(
                            settings,
                            "no charge of stream '"
                                    + stream
                                    + "' committed within "
                                    + settings.chargeTimeout(),
                            last);
                }
                try {
                    Thread.sleep(
                            ThreadLocalRandom.current().nextLong(1, 20L << Math.min(attempt, 6)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw unavailable(settings, "interrupted while charging", e);
                }
            }
        }

        private LedgerDecision attempt(LedgerCharge c, LedgerMark seen) throws Exception {
            long deadline = System.nanoTime() + settings.chargeTimeout().toNanos();
            prepare(deadline);
            history.check(settings.topic(), topicId, seen);
            LedgerHistory.Pending p = history.decide(c, topicId, this::lookUp);
            if (p.marker() != null) {
                commit(p.decision().status().getChargeKey(), p.decision().status(), p.marker());
            }
            return p.decision();
        }

        private LedgerMark adoptOnce() throws Exception {
            prepare(System.nanoTime() + settings.chargeTimeout().toNanos());
            BudgetStatus m = history.marker();
            if (m == null) {
                throw new LedgerHistoryException(
                        "budget topic '"
                                + settings.topic()
                                + "' has no ledger marker of stream '"
                                + stream
                                + "': nothing to adopt (restore the topic's records first)");
            }
            if (m.getTopicId().equals(topicId)) {
                history.check(settings.topic(), topicId, LedgerMark.NONE);
                return new LedgerMark(topicId, history.highWater()); // already this topic's
            }
            java.util.Set<String> from = history.adoptedFrom();
            from.add(m.getTopicId());
            BudgetStatus marker =
                    LedgerHistory.markerRecord(
                            stream,
                            m.getCap(),
                            m.getPrivacyUnit(),
                            m.getSeq(),
                            topicId,
                            String.join(",", from));
            history.checkComplete(settings.topic()); // decisions 1..h all restored
            commit(null, null, marker);
            return new LedgerMark(topicId, m.getSeq());
        }

        /** Checks the topic id, initialises the producer if needed and reads to the end. */
        private void prepare(long deadline) throws Exception {
            TopicDescription d;
            try {
                d = describe(admin, settings.topic(), settings, call);
            } catch (IllegalStateException e) {
                throw new LedgerHistoryException(e.getMessage() + " (it existed at start-up)");
            }
            if (!d.topicId().toString().equals(topicId)) {
                throw new LedgerHistoryException(
                        "budget topic '"
                                + settings.topic()
                                + "' was recreated while this writer ran (topic id "
                                + topicId
                                + ", now "
                                + d.topicId()
                                + "); its ledger history is gone from it: see docs/operations.md,"
                                + " \"Restoring the budget topic\"");
            }
            if (producer == null) {
                producer = newProducer();
                producer.initTransactions();
            }
            catchUp(deadline);
            if (!checkedElsewhere) {
                checkedElsewhere = true;
                if (history.marker() == null && history.decisions() == 0 && partitions > 1) {
                    requireNoHistoryElsewhere();
                }
            }
        }

        /**
         * The decision recorded under {@code key} in this stream's partition, read from its start
         * to where the writer has read (the slow path of a replay older than the decisions {@link
         * LedgerHistory} holds), or null.
         */
        private BudgetStatus lookUp(String key) {
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            try (KafkaConsumer<byte[], byte[]> c = newConsumer()) {
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                long end = consumer.position(tp, call);
                BudgetStatus found = null;
                while (c.position(tp, call) < end) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                        if (r.offset() < end && r.key() != null && Arrays.equals(r.key(), k)) {
                            found = decode(r);
                        }
                    }
                }
                return found;
            }
        }

        private void commit(String key, BudgetStatus status, BudgetStatus marker) {
            producer.beginTransaction();
            if (status != null) {
                producer.send(record(key, status));
            }
            producer.send(record(LedgerCharge.markerKey(stream), marker));
            producer.commitTransaction();
        }

        private ProducerRecord<byte[], byte[]> record(String key, BudgetStatus s) {
            return new ProducerRecord<>(
                    settings.topic(),
                    tp.partition(),
                    key.getBytes(StandardCharsets.UTF_8),
                    codec.encode(s));
        }

        /**
         * Reads the partition {@code read_committed} up to the high watermark found now, once the
         * last stable offset has reached it (no transaction of any writer open below it).
         */
        void catchUp(long deadline) throws Exception {
            if (consumer == null) {
                consumer = newConsumer();
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
            }
            long hw =
                    admin.listOffsets(
                                    Map.of(tp, OffsetSpec.latest()),
                                    new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                            .partitionResult(tp)
                            .get(call.toMillis(), TimeUnit.MILLISECONDS)
                            .offset();
            while (consumer.endOffsets(Set.of(tp), call).get(tp) < hw) {
                checkDeadline(deadline, "waiting for open transactions on " + tp + " to end");
                Thread.sleep(20);
            }
            while (consumer.position(tp, call) < hw) {
                checkDeadline(deadline, "reading " + tp + " to offset " + hw);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    if (r.key() != null && startsWith(r.key(), keyPrefix)) {
                        history.add(decode(r));
                    }
                }
            }
        }

        private void requireNoHistoryElsewhere() {
            try (TopicReader all = new TopicReader(settings.kafka(), settings.topic())) {
                for (ConsumerRecord<byte[], byte[]> r : all.readToEnd(settings.chargeTimeout())) {
                    if (r.partition() != tp.partition()
                            && r.key() != null
                            && startsWith(r.key(), keyPrefix)) {
                        throw new LedgerHistoryException(
                                "budget topic '"
                                        + settings.topic()
                                        + "' holds ledger records of stream '"
                                        + stream
                                        + "' in partition "
                                        + r.partition()
                                        + ", not in its partition "
                                        + tp.partition()
                                        + ": the partition count changed; restore the topic's"
                                        + " partition count (docs/ledger.md)");
                    }
                }
            }
        }

        private BudgetStatus decode(ConsumerRecord<byte[], byte[]> r) {
            return KafkaLedgerClient.decode(codec, r);
        }

        private KafkaProducer<byte[], byte[]> newProducer() {
            Map<String, Object> p = new HashMap<>();
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, settings.transactionalId(stream));
            p.put(
                    ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                    (int) settings.transactionTimeout().toMillis());
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) call.toMillis());
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs(call));
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) call.toMillis());
            p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class.getName());
            return new KafkaProducer<>(settings.kafka().clientProperties(p));
        }

        private KafkaConsumer<byte[], byte[]> newConsumer() {
            Map<String, Object> p = new HashMap<>();
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) call.toMillis());
            p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs(call));
            p.put(
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                    ByteArrayDeserializer.class.getName());
            p.put(
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                    ByteArrayDeserializer.class.getName());
            return new KafkaConsumer<>(settings.kafka().clientProperties(p));
        }

        private void closeProducer() {
            if (producer != null) {
                try {
                    producer.close(Duration.ZERO);
                } catch (RuntimeException ignored) {
                    // a fenced or broken producer: the next one's initTransactions() cleans up
                }
                producer = null;
            }
        }

        void close() {
            closeProducer();
            if (consumer != null) {
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
                consumer = null;
            }
        }
    }

    @FunctionalInterface
    private interface Step<T> {
        T run() throws Exception;
    }

    /** A step ran past the charge deadline (retried by the caller until its own deadline). */
    private static final class StepTimeout extends Exception {
        StepTimeout(String message) {
            super(message);
        }
    }

    /**
     * A budget record's value decoded, or {@link LedgerHistoryException} naming where it lies: an
     * unreadable record is missing history, never skipped.
     */
    static BudgetStatus decode(AvroCodec<BudgetStatus> codec, ConsumerRecord<byte[], byte[]> r) {
        try {
            return codec.decode(r.value());
        } catch (IOException e) {
            throw new LedgerHistoryException(
                    "unreadable ledger entry at "
                            + r.topic()
                            + "/"
                            + r.partition()
                            + "@"
                            + r.offset()
                            + ": "
                            + e.getMessage());
        }
    }

    private static void checkDeadline(long deadline, String what) throws StepTimeout {
        if (System.nanoTime() > deadline) {
            throw new StepTimeout("timed out " + what);
        }
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        if (key.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (key[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
