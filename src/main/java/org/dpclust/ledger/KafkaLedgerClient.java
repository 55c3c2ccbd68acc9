package org.dpclust.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
import org.apache.kafka.clients.consumer.ConsumerRecords;
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
 * The fenced writer of the privacy ledgers on the compacted budget topic (Kafka clients only, no
 * Flink). The fence is per budget-topic <b>partition</b>: every writer of partition k (stream jobs,
 * batch runs, {@code dpclust ledger}) is a transactional producer with id {@code prefix-pk}, so a
 * client holds at most one producer and one consumer per partition, however many streams it charges
 * (docs/ledger.md). Protocol, per partition:
 *
 * <ol>
 *   <li>a new producer calls {@code initTransactions()}, which fences every other writer of the
 *       partition and completes or aborts the transaction it left open;
 *   <li>it reads the partition {@code read_committed} up to the high watermark it finds (waiting
 *       until the last stable offset has reached it), keeping the history of every stream this
 *       client charges ({@link LedgerHistory}: bounded state per stream);
 *   <li>it checks that no history is missing ({@link LedgerHistory#check}) and, if a charge's key
 *       was decided before, returns that decision (idempotent replay);
 *   <li>else it decides against the spend it holds ({@link PrivacyLedger}) and writes the decision
 *       (CHARGE or REFUSED, sequence number h + 1) and the stream's marker (high-water mark, topic
 *       id) in a transaction, commits it, and reads its partition on to the new end.
 * </ol>
 *
 * <p>A committed transaction proves that no other writer of the partition initialised after this
 * producer, so everything any other writer committed lies below the high watermark read after our
 * {@code initTransactions()} or is read back after our commit: the decisions were made from the
 * latest committed spend. A producer fenced on the way ({@code ProducerFencedException}, {@code
 * InvalidProducerEpochException}) or any other failure closes the producer; the histories go back
 * to their last committed state (a writer keeps a copy of each stream's before counting a decision
 * it has not committed) and a new producer reads on from where the writer had read, so no decision
 * is ever committed from a stale view and a fence costs only what others wrote since. After {@link
 * LedgerSettings#chargeTimeout()} a step throws {@link LedgerUnavailableException}.
 *
 * <p>Two ways to charge. {@link #charge} commits before it returns (batch runs, tools). {@link
 * #decide} decides at once from the history held in memory and defers the commit to {@link #flush}
 * (the stream job: its releases become visible only when a checkpoint completes, and it flushes
 * before its checkpoint: {@code StreamLedger}), so a charge costs no round trip and every deferred
 * decision of a partition is committed in one transaction. If a flush finds the partition was
 * fenced in between, it re-decides every deferred charge, in order, from the rebuilt history: when
 * each decision is the one already returned it commits them; otherwise it throws {@link
 * LedgerConflictException} and commits nothing, so the caller must not let the releases those
 * decisions paid for become visible (the stream job fails its checkpoint, restarts and replays).
 *
 * <p>Partitioning: all records of S (decisions and marker) go to partition {@code murmur2(S) mod n}
 * of the n-partition budget topic (the partition Kafka's default partitioner gives the key S). The
 * partition count must never change; a stream that finds no history in its partition while the
 * topic has records of it elsewhere is refused.
 *
 * <p>At {@link #open}: the topic must exist and have {@code cleanup.policy=compact} exactly (a
 * {@code delete} policy or retention would let history vanish). At every commit the topic's id is
 * checked against the id seen at open (a topic recreated under a running writer is refused).
 *
 * <p>Thread-safe, with two locks, always taken in this order: {@code io} serialises every use of
 * the writers' producers and consumers, and the client's monitor guards what is held in memory
 * (histories, deferred decisions, committed copies). (A replay older than the decisions held is
 * looked up under the monitor alone, by a consumer of its own: {@link Writer#lookUp}.) A {@link
 * #decide} whose stream's history is read and whose writer is sound takes the monitor only, so it
 * does not wait for another thread's {@link #flush}: a flush takes its partition's deferred
 * decisions under the monitor and sends, commits and reads them back without it ({@link
 * Writer#flushConcurrently}). Decisions taken meanwhile are counted on top of the ones being
 * committed and deferred to the next flush; if the commit fails, both go back to the deferred list,
 * in order, and are decided again from the committed spend under both locks, as before.
 */
public final class KafkaLedgerClient implements LedgerClient {

    private final LedgerSettings settings;
    private final Duration call;
    private final Admin admin;
    private final String topicId;
    private final int partitions;

    /**
     * A stream's snapshot is written again once its partition has grown by this many records since
     * its last one: a restart reads at most about this many records per partition after the
     * snapshots.
     */
    static final long SNAPSHOT_LAG = 100_000;

    /** Snapshots written with one commit at most (the rest follow with the next commits). */
    static final int SNAPSHOTS_PER_COMMIT = 100;

    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(KafkaLedgerClient.class);

    private final boolean snapshots;
    private final long snapshotLag;
    private final Map<Integer, Writer> writers = new HashMap<>();

    /** Held by every call that may reach the broker; taken before the client's monitor. */
    private final Object io = new Object();

    /** Runs in a flush between taking the decisions and sending them (tests park a flush there). */
    private volatile Runnable beforeSend = () -> {};

    /** Runs in a flush between its commit and its read-back (tests park a flush there). */
    private volatile Runnable afterCommit = () -> {};

    private final Set<String> registered = new HashSet<>();
    private final AvroCodec<BudgetStatus> codec = AvroCodec.budget();
    private long retries;
    private long recordsRead;
    private long failedFlushes;

    private KafkaLedgerClient(
            LedgerSettings settings,
            Admin admin,
            String topicId,
            int partitions,
            boolean snapshots,
            long snapshotLag) {
        this.settings = settings;
        this.snapshots = snapshots;
        this.snapshotLag = snapshotLag;
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
        return open(settings, SNAPSHOT_LAG);
    }

    /**
     * {@link #open(LedgerSettings)} writing a stream's snapshot again every {@code snapshotLag}
     * records of its partition (tests and benchmarks; the default is {@link #SNAPSHOT_LAG}).
     */
    public static KafkaLedgerClient open(LedgerSettings settings, long snapshotLag) {
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
            boolean snapshots = exists(admin, LedgerSnapshot.topicFor(topic), call);
            if (!snapshots) {
                LOG.warn(
                        "budget topic '{}' has no snapshot topic '{}': a ledger writer reads its"
                                + " partitions from their start whenever it starts (create it:"
                                + " dpclust stream --create-topics)",
                        topic,
                        LedgerSnapshot.topicFor(topic));
            }
            return new KafkaLedgerClient(
                    settings,
                    admin,
                    d.topicId().toString(),
                    d.partitions().size(),
                    snapshots,
                    snapshotLag);
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

    private static boolean exists(Admin admin, String topic, Duration call)
            throws InterruptedException, java.util.concurrent.TimeoutException, ExecutionException {
        return admin.listTopics()
                .names()
                .get(call.toMillis(), TimeUnit.MILLISECONDS)
                .contains(topic);
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

    /** Budget-topic records read since open (the cost of starts and catch-ups). */
    public synchronized long recordsRead() {
        return recordsRead;
    }

    /** Whether the budget topic has its snapshot topic ({@link LedgerSnapshot#topicFor}). */
    public boolean snapshots() {
        return snapshots;
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
    public LedgerDecision charge(LedgerCharge charge, LedgerMark seen) {
        synchronized (io) {
            synchronized (this) {
                Writer w = writer(charge.stream());
                w.flush(); // deferred decisions of the partition come first
                return w.chargeNow(charge, seen == null ? LedgerMark.NONE : seen);
            }
        }
    }

    /**
     * Decides {@code charge} from the history held in memory and defers its commit to {@link
     * #flush} (reads the partition first only if it was never read or must be rebuilt). The
     * decision may be released only in output that becomes visible after the next successful {@link
     * #flush}.
     */
    @Override
    public LedgerDecision decide(LedgerCharge charge, LedgerMark seen) {
        LedgerMark mark = seen == null ? LedgerMark.NONE : seen;
        synchronized (this) {
            Writer w = writer(charge.stream());
            if (w.ready(charge.stream())) {
                return w.decide(charge, mark); // from memory: no wait for a flush's I/O
            }
        }
        synchronized (io) {
            synchronized (this) {
                return writer(charge.stream()).decide(charge, mark);
            }
        }
    }

    /**
     * Commits every deferred decision, one transaction per partition.
     *
     * @throws LedgerConflictException if a partition was fenced since and a deferred charge,
     *     re-decided from the latest committed spend, decides otherwise (nothing of that partition
     *     is committed)
     */
    @Override
    public void flush() {
        flushCountingFailures();
    }

    /**
     * {@link #flush}, returning {@link #failedFlushes} as it stood when this flush ended: a flush
     * that failed before then, while this one waited, may have voided decisions this caller
     * deferred; one that fails later cannot (they are committed).
     */
    long flushCountingFailures() {
        synchronized (io) {
            List<Writer> ws;
            synchronized (this) {
                ws = List.copyOf(writers.values());
            }
            for (Writer w : ws) {
                w.flushConcurrently();
            }
            synchronized (this) {
                return failedFlushes;
            }
        }
    }

    /**
     * Flushes that failed (and voided the deferred decisions of their partition) since open: a
     * handle sharing this client that deferred decisions fails its own next flush when this grew
     * ({@link SharedLedgerClient}).
     */
    public synchronized long failedFlushes() {
        return failedFlushes;
    }

    /**
     * Keeps the histories of {@code streams} from the next read of their partitions on, so a job
     * charging many streams builds them all in one pass of each partition instead of re-reading a
     * partition for each stream it meets later.
     */
    @Override
    public synchronized void register(Collection<String> streams) {
        for (String s : streams) {
            if (registered.add(s)) {
                Writer w = writers.get(partitionFor(s, partitions));
                if (w != null) {
                    w.rebuildFor(s);
                }
            }
        }
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
    public LedgerMark adopt(String stream) {
        synchronized (io) {
            return adoptLocked(stream);
        }
    }

    private synchronized LedgerMark adoptLocked(String stream) {
        Writer w = writer(stream);
        w.flush();
        return w.run(() -> w.adoptOnce(stream));
    }

    /**
     * Reads the stream's ledger to its end and checks that no history is missing (as a charge
     * would, without charging); returns its committed high-water mark.
     *
     * @throws LedgerHistoryException if history is missing
     */
    public LedgerMark verify(String stream) {
        synchronized (io) {
            return verifyLocked(stream);
        }
    }

    private synchronized LedgerMark verifyLocked(String stream) {
        Writer w = writer(stream);
        w.flush();
        return w.run(
                () -> {
                    LedgerHistory h = w.read(stream);
                    h.check(settings.topic(), topicId, LedgerMark.NONE);
                    return new LedgerMark(topicId, h.highWater());
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
    public BudgetStatus decision(String stream, String chargeKey) {
        synchronized (io) {
            return decisionLocked(stream, chargeKey);
        }
    }

    private synchronized BudgetStatus decisionLocked(String stream, String chargeKey) {
        Writer w = writer(stream);
        w.flush();
        return w.run(
                () -> {
                    LedgerHistory h = w.read(stream);
                    h.check(settings.topic(), topicId, LedgerMark.NONE);
                    BudgetStatus held = h.recorded(chargeKey);
                    // older than the decisions held in memory: look it up on the partition
                    return held != null ? held : w.lookUp(chargeKey);
                });
    }

    /**
     * Has every later {@link #flush} run {@code hook} after taking a partition's deferred decisions
     * and before sending them, without the client's monitor (for tests: a flush parked there shows
     * what other threads can do meanwhile).
     */
    void beforeSend(Runnable hook) {
        beforeSend = hook;
    }

    /** As {@link #beforeSend}, between a flush's commit and its read-back. */
    void afterCommit(Runnable hook) {
        afterCommit = hook;
    }

    /** Number of decisions decided and not yet committed (all partitions). */
    public synchronized int deferred() {
        return writers.values().stream().mapToInt(w -> w.deferred.size()).sum();
    }

    private Writer writer(String stream) {
        registered.add(stream);
        return writers.computeIfAbsent(partitionFor(stream, partitions), Writer::new);
    }

    @Override
    public void close() {
        synchronized (io) {
            closeLocked();
        }
    }

    private synchronized void closeLocked() {
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

    /** A charge decided from memory and not yet committed, with what its caller was told. */
    private record Deferred(LedgerCharge charge, LedgerMark seen, LedgerDecision told) {}

    /**
     * One transaction's records, encoded; the keys of its decisions and markers (skipped when read
     * back: already counted) and the offsets its snapshots cover, by stream.
     */
    private record Outgoing(
            List<ProducerRecord<byte[], byte[]>> records,
            Set<String> keys,
            Map<String, Long> snapped) {}

    /**
     * The writer of one partition: its producer, its consumer, and the histories of the streams
     * this client charges there.
     */
    private final class Writer {
        private final TopicPartition tp;
        private final Map<String, LedgerHistory> histories = new HashMap<>();
        private final Set<String> checkedElsewhere = new HashSet<>();
        private List<Deferred> deferred = new ArrayList<>();
        private final Set<String> ownKeys = new HashSet<>();

        /** Per stream restored from a snapshot: its records below this offset are in it. */
        private final Map<String, Long> coveredBelow = new HashMap<>();

        /** Per stream, the offset its latest snapshot covers (read or written). */
        private final Map<String, Long> snapshotAt = new HashMap<>();

        /** Per stream with uncommitted decisions counted, its history as last committed. */
        private Map<String, LedgerHistory> committed = new HashMap<>();

        /** Where the consumer has read to (a {@link #lookUp} reads below it; set by catchUp). */
        private volatile long position;

        private KafkaConsumer<byte[], byte[]> consumer;
        private KafkaProducer<byte[], byte[]> producer;
        private boolean stale = true; // histories must be (re)built from the partition's start

        Writer(int partition) {
            this.tp = new TopicPartition(settings.topic(), partition);
        }

        /** A stream registered after this partition was read: rebuild at the next read. */
        void rebuildFor(String stream) {
            if (!histories.containsKey(stream)) {
                stale = true;
            }
        }

        LedgerDecision chargeNow(LedgerCharge c, LedgerMark seen) {
            return run(
                    () -> {
                        LedgerHistory h = read(c.stream());
                        h.check(settings.topic(), topicId, seen);
                        LedgerHistory.Pending p = h.decide(c, topicId, this::lookUp);
                        if (p.marker() != null) {
                            hold(h, p);
                            commit(List.of(new Deferred(c, seen, p.decision())));
                        }
                        return p.decision();
                    });
        }

        /**
         * Whether {@link #decide} of {@code stream} needs no I/O (histories read, producer sound).
         */
        boolean ready(String stream) {
            return !stale && producer != null && histories.containsKey(stream);
        }

        LedgerDecision decide(LedgerCharge c, LedgerMark seen) {
            if (!ready(c.stream())) {
                flush();
                run(() -> read(c.stream()));
            }
            LedgerHistory h = histories.get(c.stream());
            h.check(settings.topic(), topicId, seen);
            LedgerHistory.Pending p = h.decide(c, topicId, this::lookUp);
            if (p.marker() != null) {
                hold(h, p);
                deferred.add(new Deferred(c, seen, p.decision()));
            }
            return p.decision();
        }

        /**
         * Counts a new decision and its marker in memory, as if read back, keeping the stream's
         * committed history to go back to if the commit fails ({@link #rollBack}).
         */
        private void hold(LedgerHistory h, LedgerHistory.Pending p) {
            committed.computeIfAbsent(h.stream(), s -> h.copy());
            h.add(p.decision().status());
            h.add(p.marker());
        }

        /**
         * The histories as last committed: what a failed commit may have left out. The consumer's
         * position is unchanged (it reads only committed records), so a catch-up from it reads what
         * other writers committed since, and anything of ours whose commit did succeed.
         */
        private void rollBack() {
            histories.putAll(committed);
            committed.clear();
        }

        /**
         * Commits the deferred decisions. A flush that fails voids them all (none was committed,
         * unless a commit whose outcome was unknown did: then they are read back as recorded), so a
         * caller that restarts on the failure replays them from the latest committed spend.
         */
        void flush() {
            if (deferred.isEmpty()) {
                return;
            }
            try {
                flushOnce();
            } catch (RuntimeException e) {
                deferred = new ArrayList<>();
                rollBack();
                failedFlushes++;
                throw e;
            }
        }

        /**
         * {@link #flush} without holding the client's monitor while the broker is reached (the
         * caller holds {@code io}): the deferred decisions are taken under the monitor with what
         * goes back in a failure (the committed copies), then sent and committed without it, so
         * decisions of other threads go on meanwhile (counted on top, deferred to the next flush).
         * A failed send or commit puts the taken decisions back in front of the new ones and
         * flushes as {@link #flush} does (decide them all again from the committed spend, retried;
         * a different outcome voids them all). A failed read-back after a successful commit leaves
         * the partition to be rebuilt at its next use.
         */
        void flushConcurrently() {
            List<Deferred> taken;
            Map<String, LedgerHistory> before;
            Outgoing out;
            synchronized (KafkaLedgerClient.this) {
                if (deferred.isEmpty()) {
                    return;
                }
                if (stale || producer == null) {
                    flush(); // after a failure: decided again from the committed spend
                    return;
                }
                taken = deferred;
                before = committed;
                deferred = new ArrayList<>();
                committed = new HashMap<>();
                out = outgoing(taken, markersOf(taken), before);
            }
            long end;
            try {
                beforeSend.run();
                checkTopicId();
                end = send(out);
            } catch (Exception e) {
                synchronized (KafkaLedgerClient.this) {
                    List<Deferred> all = new ArrayList<>(taken);
                    all.addAll(deferred);
                    deferred = all;
                    Map<String, LedgerHistory> copies = new HashMap<>(committed);
                    copies.putAll(before); // the older copy: before the taken decisions
                    committed = copies;
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    retries++;
                    LOG.info("commit on {} failed ({}): deciding again", tp, e.toString());
                    closeProducer();
                    flush();
                }
                return;
            }
            synchronized (KafkaLedgerClient.this) {
                recordCommitted(out, end);
            }
            try {
                afterCommit.run();
                catchUp(System.nanoTime() + settings.chargeTimeout().toNanos()); // read them back
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                synchronized (KafkaLedgerClient.this) {
                    LOG.warn(
                            "reading back {} failed after a commit ({}): rebuilding",
                            tp,
                            e.toString());
                    stale = true;
                }
            }
            synchronized (KafkaLedgerClient.this) {
                if (stale) {
                    closeProducer(); // the next use rebuilds and decides the deferred again
                }
            }
        }

        private void flushOnce() {
            run(
                    () -> {
                        if (stale || producer == null) {
                            redecide(); // after a failed commit: from the committed spend
                        }
                        checkTopicId();
                        commit(deferred);
                        deferred = new ArrayList<>();
                        return null;
                    });
        }

        /**
         * Decides every deferred charge again, in order, from the committed histories read to the
         * partition's end (rebuilt from its start if stale): each must be the decision its caller
         * was told.
         */
        private void redecide() throws Exception {
            // deferred keeps what the callers were told until every charge is decided again: a
            // failure on the way (retried by run) must not lose them
            List<Deferred> old = deferred;
            rollBack();
            long deadline = System.nanoTime() + settings.chargeTimeout().toNanos();
            prepare(deadline);
            List<Deferred> again = new ArrayList<>();
            for (Deferred d : old) {
                LedgerHistory h = histories.get(d.charge().stream());
                h.check(settings.topic(), topicId, d.seen());
                LedgerHistory.Pending p = h.decide(d.charge(), topicId, this::lookUp);
                if (!sameOutcome(p.decision(), d.told())) {
                    throw new LedgerConflictException(
                            "charge "
                                    + d.charge().key()
                                    + " was decided as "
                                    + d.told().decision()
                                    + " and, after another writer of budget partition "
                                    + tp
                                    + " committed, decides as "
                                    + p.decision().decision()
                                    + ": its release must not be published (the job restarts"
                                    + " and replays from its last checkpoint)");
                }
                if (p.marker() != null) {
                    hold(h, p);
                    again.add(new Deferred(d.charge(), d.seen(), p.decision()));
                }
            }
            deferred = again;
        }

        /** The stream's history, the partition read to its end (rebuilt first if stale). */
        LedgerHistory read(String stream) throws Exception {
            if (!histories.containsKey(stream)) {
                stale = true; // a stream met after the partition was read
            }
            prepare(System.nanoTime() + settings.chargeTimeout().toNanos());
            return histories.get(stream);
        }

        LedgerMark adoptOnce(String stream) throws Exception {
            LedgerHistory h = read(stream);
            BudgetStatus m = h.marker();
            if (m == null) {
                throw new LedgerHistoryException(
                        "budget topic '"
                                + settings.topic()
                                + "' has no ledger marker of stream '"
                                + stream
                                + "': nothing to adopt (restore the topic's records first)");
            }
            if (m.getTopicId().equals(topicId)) {
                h.check(settings.topic(), topicId, LedgerMark.NONE);
                return new LedgerMark(topicId, h.highWater()); // already this topic's
            }
            java.util.Set<String> from = h.adoptedFrom();
            from.add(m.getTopicId());
            BudgetStatus marker =
                    LedgerHistory.markerRecord(
                            stream,
                            m.getCap(),
                            m.getPrivacyUnit(),
                            m.getSeq(),
                            topicId,
                            String.join(",", from));
            h.checkComplete(settings.topic()); // decisions 1..h all restored
            committed.computeIfAbsent(stream, x -> h.copy()); // undone if the commit fails
            h.add(marker);
            commitRecords(List.of(), Map.of(stream, marker));
            return new LedgerMark(topicId, m.getSeq());
        }

        /**
         * Checks the topic id, initialises the producer if needed and reads to the end, from the
         * partition's start with fresh histories when stale.
         */
        private void prepare(long deadline) throws Exception {
            checkTopicId();
            if (producer == null) {
                rollBack(); // its init aborts what an earlier producer of ours left open
                producer = newProducer();
                producer.initTransactions();
            }
            if (consumer == null) {
                consumer = newConsumer();
                consumer.assign(List.of(tp));
                stale = true;
            }
            if (stale) {
                committed.clear();
                histories.replaceAll((s, h) -> new LedgerHistory(s));
                for (String s : registered) {
                    if (partitionFor(s, partitions) == tp.partition()) {
                        histories.putIfAbsent(s, new LedgerHistory(s));
                    }
                }
                ownKeys.clear();
                coveredBelow.clear();
                snapshotAt.clear();
                long from = snapshots ? restoreSnapshots() : 0;
                if (from == 0) {
                    consumer.seekToBeginning(List.of(tp));
                } else {
                    consumer.seek(tp, from);
                }
            }
            catchUp(deadline);
            stale = false;
            requireNoHistoryElsewhere();
        }

        /**
         * Replaces the histories of this partition's streams by their latest snapshots (of this
         * topic id and partition) and returns the offset to read on from: the lowest covered by
         * them, or 0 if a stream has none.
         */
        private long restoreSnapshots() throws Exception {
            Map<String, LedgerSnapshot> latest =
                    LedgerSnapshot.latest(
                            settings,
                            topicId,
                            histories.keySet(),
                            x -> tp.partition(),
                            codec,
                            settings.chargeTimeout());
            long end = endOffset();
            long from = Long.MAX_VALUE;
            for (String s : List.copyOf(histories.keySet())) {
                LedgerSnapshot snap = latest.get(s);
                if (snap == null) {
                    from = 0;
                    continue;
                }
                snap.requireWithin(settings.topic(), end);
                histories.put(s, snap.history());
                checkedElsewhere.add(s); // its snapshot's writer checked it before committing
                coveredBelow.put(s, snap.coveredOffset());
                snapshotAt.put(s, snap.coveredOffset());
                from = Math.min(from, snap.coveredOffset());
            }
            return from == Long.MAX_VALUE ? 0 : from;
        }

        private long endOffset() throws Exception {
            return admin.listOffsets(
                            Map.of(tp, OffsetSpec.latest()),
                            new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                    .partitionResult(tp)
                    .get(call.toMillis(), TimeUnit.MILLISECONDS)
                    .offset();
        }

        private void checkTopicId() throws Exception {
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
        }

        /**
         * The decision recorded under {@code key} in this partition, read from its start to where
         * the writer has read (the slow path of a replay older than the decisions {@link
         * LedgerHistory} holds), or null.
         */
        BudgetStatus lookUp(String key) {
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            try (KafkaConsumer<byte[], byte[]> c = newConsumer()) {
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                long end = position;
                AvroCodec<BudgetStatus> own = AvroCodec.budget(); // the writer's is io's
                BudgetStatus found = null;
                while (c.position(tp, call) < end) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                        if (r.offset() < end && r.key() != null && Arrays.equals(r.key(), k)) {
                            found = KafkaLedgerClient.decode(own, r);
                        }
                    }
                }
                return found;
            }
        }

        /** Commits these decisions and each stream's latest marker in one transaction. */
        private void commit(List<Deferred> ds) throws Exception {
            commitRecords(ds, markersOf(ds));
        }

        /** Each stream's latest marker (counting every decision held), for these decisions. */
        private Map<String, BudgetStatus> markersOf(List<Deferred> ds) {
            Map<String, BudgetStatus> markers = new LinkedHashMap<>();
            for (Deferred d : ds) {
                markers.put(d.charge().stream(), histories.get(d.charge().stream()).marker());
            }
            return markers;
        }

        private void commitRecords(List<Deferred> ds, Map<String, BudgetStatus> markers)
                throws Exception {
            Outgoing out = outgoing(ds, markers, committed);
            long end = send(out);
            recordCommitted(out, end);
            committed.clear();
            catchUp(System.nanoTime() + settings.chargeTimeout().toNanos()); // read them back
        }

        /**
         * After {@code out}'s commit: its snapshots are the streams' latest, and its records are
         * not counted again when read back. When they lie from the consumer's position up to {@code
         * end} with nothing of another writer among them ({@link #send}), the consumer moves past
         * them instead of reading them back; the read-back after the commit starts there and still
         * meets whatever another writer committed after them.
         */
        private void recordCommitted(Outgoing out, long end) {
            snapshotAt.putAll(out.snapped());
            if (end >= 0) {
                consumer.seek(tp, end);
                position = end;
            } else {
                ownKeys.addAll(out.keys());
            }
        }

        /**
         * Sends {@code out} in one transaction and commits it (the producer's I/O only). Returns
         * the offset after its records on this partition if they are exactly the offsets from the
         * consumer's position on (no record of another writer before or among them), else -1. Only
         * this partition's records count: the snapshots in {@code out} go to the snapshot topic,
         * whose offsets say nothing about this partition.
         */
        private long send(Outgoing out) throws Exception {
            if (producer == null) {
                throw new StepTimeout("the partition's producer was closed: decide again");
            }
            producer.beginTransaction();
            List<long[]> offsets = new ArrayList<>(); // this partition's acknowledged offsets
            for (ProducerRecord<byte[], byte[]> r : out.records()) {
                if (r.topic().equals(tp.topic()) && r.partition() == tp.partition()) {
                    long[] at = {-1};
                    offsets.add(at);
                    producer.send(
                            r, (md, e) -> at[0] = e == null && md.hasOffset() ? md.offset() : -1);
                } else {
                    producer.send(r);
                }
            }
            // every send has completed and run its callback, or this throws: the producer sends
            // EndTxn only once no batch is incomplete, and a batch completes after its callbacks
            producer.commitTransaction();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (long[] at : offsets) {
                if (at[0] < 0) {
                    return -1;
                }
                first = Math.min(first, at[0]);
                last = Math.max(last, at[0]);
            }
            return !offsets.isEmpty() && first == position && last - first + 1 == offsets.size()
                    ? last + 1
                    : -1;
        }

        /**
         * The records of one transaction: the decisions, the markers, and the snapshots due of this
         * partition's streams (those with none or whose last one lies {@link #SNAPSHOT_LAG} records
         * back, at most {@link #SNAPSHOTS_PER_COMMIT}): each stream's history as in {@code
         * committedCopies} if it has one there (without the decisions not yet committed), covering
         * every record below the writer's read position.
         */
        private Outgoing outgoing(
                List<Deferred> ds,
                Map<String, BudgetStatus> markers,
                Map<String, LedgerHistory> committedCopies) {
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            Set<String> keys = new HashSet<>();
            for (Deferred d : ds) {
                BudgetStatus st = d.told().status();
                records.add(record(st.getChargeKey(), st));
                keys.add(st.getChargeKey());
            }
            for (Map.Entry<String, BudgetStatus> m : markers.entrySet()) {
                String key = LedgerCharge.markerKey(m.getKey());
                records.add(record(key, m.getValue()));
                keys.add(key);
            }
            Map<String, Long> due = new HashMap<>();
            if (snapshots) {
                long pos = consumer.position(tp, call);
                for (Map.Entry<String, LedgerHistory> e : histories.entrySet()) {
                    if (due.size() >= SNAPSHOTS_PER_COMMIT) {
                        break;
                    }
                    Long at = snapshotAt.get(e.getKey());
                    if (at == null || pos - at >= snapshotLag) {
                        LedgerHistory h = committedCopies.getOrDefault(e.getKey(), e.getValue());
                        records.add(
                                new ProducerRecord<>(
                                        LedgerSnapshot.topicFor(settings.topic()),
                                        e.getKey().getBytes(StandardCharsets.UTF_8),
                                        new LedgerSnapshot(
                                                        e.getKey(), topicId, tp.partition(), pos, h)
                                                .encode(codec)));
                        due.put(e.getKey(), pos);
                    }
                }
            }
            return new Outgoing(records, keys, due);
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
         * last stable offset has reached it (no transaction of any writer open below it). Our own
         * records, already counted when decided, are skipped.
         */
        void catchUp(long deadline) throws Exception {
            long hw = endOffset();
            long target; // the last stable offset once it reached hw: a transaction boundary
            while ((target = consumer.endOffsets(Set.of(tp), call).get(tp)) < hw) {
                checkDeadline(deadline, "waiting for open transactions on " + tp + " to end");
                Thread.sleep(5);
            }
            // read exactly to the boundary: a view that ends inside a transaction would hold a
            // stream's decision without the marker committed with it
            long at;
            while ((at = consumer.position(tp, call)) < target) {
                position = at;
                checkDeadline(deadline, "reading " + tp + " to offset " + target);
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                synchronized (KafkaLedgerClient.this) { // decisions may go on meanwhile (flush)
                    try {
                        fold(polled, target);
                    } catch (RuntimeException e) {
                        // the consumer is past records not counted (the rest of the batch): the
                        // next use rebuilds, so an unreadable entry refuses every later charge too
                        stale = true;
                        throw e;
                    }
                }
            }
            if (at > target) {
                consumer.seek(tp, target);
            }
            position = target;
            ownKeys.clear();
        }

        /** Counts the records below {@code target} (not ours, not in a snapshot) in. */
        private void fold(ConsumerRecords<byte[], byte[]> polled, long target) {
            for (ConsumerRecord<byte[], byte[]> r : polled) {
                if (r.offset() >= target) {
                    continue; // read again next time, from the boundary
                }
                recordsRead++;
                String stream = LedgerScan.streamOf(r);
                LedgerHistory h = histories.get(stream);
                if (h == null || r.offset() < coveredBelow.getOrDefault(stream, 0L)) {
                    continue; // another stream's, or in the stream's snapshot
                }
                if (!ownKeys.isEmpty()
                        && ownKeys.remove(new String(r.key(), StandardCharsets.UTF_8))) {
                    continue;
                }
                if (committed.containsKey(stream)) {
                    // another writer's record read back after a flush's commit, while a decision
                    // of this stream taken since is held: that decision (and the copy to go back
                    // to) did not count it. Rebuild the partition; the deferred decisions are
                    // decided again from it at the next flush.
                    stale = true;
                    continue;
                }
                h.add(decode(r));
            }
        }

        /**
         * Refuses streams without history in this partition that have records in another one (the
         * partition count changed): one read of the topic for all such streams not checked yet.
         */
        private void requireNoHistoryElsewhere() {
            if (partitions == 1) {
                return;
            }
            Set<String> empty = new HashSet<>();
            histories.forEach(
                    (s, h) -> {
                        if (!checkedElsewhere.contains(s)
                                && h.marker() == null
                                && h.decisions() == 0) {
                            empty.add(s);
                        }
                    });
            if (!empty.isEmpty()) {
                try (TopicReader all = new TopicReader(settings.kafka(), settings.topic())) {
                    for (ConsumerRecord<byte[], byte[]> r :
                            all.readToEnd(settings.chargeTimeout())) {
                        String s = LedgerScan.streamOf(r);
                        if (r.partition() != tp.partition() && s != null && empty.contains(s)) {
                            throw LedgerScan.elsewhere(settings, s, r.partition(), tp.partition());
                        }
                    }
                }
            }
            // only once the scan found nothing: a refused or timed-out check is made again
            checkedElsewhere.addAll(histories.keySet());
        }

        private BudgetStatus decode(ConsumerRecord<byte[], byte[]> r) {
            return KafkaLedgerClient.decode(codec, r);
        }

        <T> T run(Step<T> step) {
            long deadline = System.nanoTime() + settings.chargeTimeout().toNanos();
            Exception last = null;
            for (int attempt = 0; ; attempt++) {
                try {
                    return step.run();
                } catch (LedgerHistoryException | LedgerConflictException e) {
                    closeProducer();
                    throw e;
                } catch (KafkaException
                        | ExecutionException
                        | java.util.concurrent.TimeoutException
                        | StepTimeout e) {
                    // fenced, timed out, coordinator moved, outcome of a commit unknown...: the
                    // whole step re-runs from a new producer and a rebuilt history
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
                            "no charge on partition "
                                    + tp
                                    + " committed within "
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

        private KafkaProducer<byte[], byte[]> newProducer() {
            Map<String, Object> p = new HashMap<>();
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, settings.transactionalId(tp.partition()));
            p.put(
                    ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                    (int) settings.transactionTimeout().toMillis());
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) call.toMillis());
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs(call));
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) call.toMillis());
            p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            // after a fence the coordinator answers CONCURRENT_TRANSACTIONS until the other
            // writer's transaction has ended: ask again after 25 ms, not Kafka's 100 (bench
            // ledger-writers, 2 writers: flush p50 601 -> 364 ms, one run each). Transactional
            // requests retry at this fixed interval, without exponential growth: while a
            // coordinator moves, each ledger producer asks 40 times a second until max.block.ms.
            p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 25);
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class.getName());
            return new KafkaProducer<>(settings.kafka().clientProperties(p));
        }

        private KafkaConsumer<byte[], byte[]> newConsumer() {
            Map<String, Object> p = new HashMap<>();
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            // the fetch a poll leaves in flight must not hold the next offset request for the
            // default 500 ms (a broker answers one connection's requests in order)
            p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
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
            rollBack(); // what the histories hold beyond the committed may be gone
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

    /**
     * Whether two decisions of one charge tell its caller the same: the decision and, under zCDP,
     * the ρ amounts a release states (the sequence number may differ).
     */
    static boolean sameOutcome(LedgerDecision a, LedgerDecision b) {
        BudgetStatus x = a.status();
        BudgetStatus y = b.status();
        return a.decision().equals(b.decision())
                && Objects.equals(x.getAccounting(), y.getAccounting())
                && Objects.equals(x.getRho(), y.getRho())
                && Objects.equals(x.getRhoSpent(), y.getRhoSpent())
                && Objects.equals(x.getRhoCap(), y.getRhoCap())
                && Objects.equals(x.getDelta(), y.getDelta());
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
}
