package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fenced ledger on the real in-process KRaft broker: concurrent writers of one stream never
 * exceed the cap and publish every refusal; a replayed charge is idempotent; a budget topic that
 * lost its history (deleted and recreated) is refused, and accepted again once restored and
 * adopted; a non-compacted budget topic is refused at open.
 */
class KafkaLedgerClientIT {
    private static final long DAY = 86_400_000L;
    private static final long T0 = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
    private static final PrivacyLedger.Interval W = new PrivacyLedger.Interval(T0, T0 + 60_000);

    private static EmbeddedKafka kafka;
    private static Admin admin;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.start();
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        admin = Admin.create(p);
    }

    @AfterAll
    static void stop() {
        admin.close();
        kafka.close();
    }

    private static void createTopic(String name, int partitions, String policy) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                admin.createTopics(
                                List.of(
                                        new NewTopic(name, partitions, (short) 1)
                                                .configs(
                                                        Map.of(
                                                                TopicConfig.CLEANUP_POLICY_CONFIG,
                                                                policy))))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                awaitLeaders(name, deadline);
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                // a topic being deleted still exists for a moment
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    /** Waits until the (re)created topic is described with a leader for every partition. */
    /** A compacted budget topic of {@code partitions} and its snapshot topic. */
    private static void createTopicWithSnapshots(String topic, int partitions) throws Exception {
        createTopic(topic, partitions, TopicConfig.CLEANUP_POLICY_COMPACT);
        createTopic(LedgerSnapshot.topicFor(topic), 1, TopicConfig.CLEANUP_POLICY_COMPACT);
    }

    private static void awaitLeaders(String name, long deadline) throws Exception {
        while (true) {
            try {
                var d =
                        admin.describeTopics(List.of(name))
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .get(name);
                if (d.partitions().stream().allMatch(p -> p.leader() != null)) {
                    return;
                }
            } catch (java.util.concurrent.ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(100);
        }
    }

    private static LedgerSettings settings(String topic) {
        return new LedgerSettings(
                kafka.bootstrapServers(),
                topic,
                "it-ledger-" + topic,
                Duration.ofSeconds(60),
                Duration.ofSeconds(20));
    }

    private static LedgerCharge batch(String stream, String run, double eps, double cap) {
        return new LedgerCharge(
                stream,
                LedgerCharge.Source.BATCH,
                "stats",
                W,
                run,
                eps,
                cap,
                DAY,
                PrivacyUnit.RECORD);
    }

    private static LedgerCharge window(String stream, String summary, double eps, double cap) {
        return new LedgerCharge(
                stream,
                LedgerCharge.Source.STREAM,
                summary,
                W,
                "",
                eps,
                cap,
                DAY,
                PrivacyUnit.RECORD);
    }

    /** Every record of the topic, read_committed. */
    private static List<ConsumerRecord<byte[], byte[]>> raw(String topic) {
        try (TopicReader r = new TopicReader(kafka.bootstrapServers(), topic)) {
            return r.readToEnd(Duration.ofSeconds(30));
        }
    }

    private static List<BudgetStatus> statuses(String topic) throws Exception {
        List<BudgetStatus> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : raw(topic)) {
            out.add(AvroCodec.budget().decode(r.value()));
        }
        return out;
    }

    @Test
    void twoConcurrentWritersOfOneStreamNeverExceedTheCapAndPublishEveryRefusal() throws Exception {
        String topic = "budget-concurrent";
        createTopic(topic, 3, TopicConfig.CLEANUP_POLICY_COMPACT);
        int perThread = 20;
        double cap = 10.0;
        CyclicBarrier go = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<List<LedgerDecision>>> futures = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            String writer = "w" + t;
            Callable<List<LedgerDecision>> task =
                    () -> {
                        List<LedgerDecision> out = new ArrayList<>();
                        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
                            go.await(30, TimeUnit.SECONDS);
                            for (int i = 0; i < perThread; i++) {
                                out.add(
                                        c.charge(
                                                batch("fleet", writer + "-" + i, 0.5, cap),
                                                LedgerMark.NONE));
                            }
                            System.err.println(
                                    "ledger writer " + writer + ": " + c.retries() + " re-runs");
                        }
                        return out;
                    };
            futures.add(pool.submit(task));
        }
        Map<String, Boolean> returned = new HashMap<>();
        for (Future<List<LedgerDecision>> f : futures) {
            for (LedgerDecision d : f.get(5, TimeUnit.MINUTES)) {
                assertFalse(d.replayed());
                returned.put(d.status().getChargeKey(), d.accepted());
            }
        }
        pool.shutdown();
        assertEquals(2 * perThread, returned.size());

        List<BudgetStatus> all = statuses(topic);
        List<BudgetStatus> decisions =
                all.stream().filter(s -> s.getKind() != BudgetEventKind.MARKER).toList();
        double charged =
                decisions.stream()
                        .filter(s -> s.getKind() == BudgetEventKind.CHARGE)
                        .mapToDouble(BudgetStatus::getEpsilon)
                        .sum();
        long refusedOnTopic =
                decisions.stream().filter(s -> s.getKind() == BudgetEventKind.REFUSED).count();
        long refusedReturned = returned.values().stream().filter(a -> !a).count();
        assertTrue(charged <= cap, "charged " + charged + " > cap " + cap);
        assertEquals(cap, charged, 1e-12, "the cap is reached exactly (0.5 divides 10)");
        assertEquals(2 * perThread - 20, refusedReturned);
        assertEquals(refusedReturned, refusedOnTopic, "every refusal is published");
        // what each caller was told is what the topic holds, once per key
        Set<Long> seqs = new HashSet<>();
        for (BudgetStatus s : decisions) {
            assertEquals(returned.get(s.getChargeKey()), s.getKind() == BudgetEventKind.CHARGE);
            assertTrue(seqs.add(s.getSeq()), "sequence " + s.getSeq() + " written twice");
        }
        assertEquals(2 * perThread, decisions.size());
        assertEquals(2L * perThread, seqs.stream().mapToLong(x -> x).max().orElse(0));
        // all of the stream's records sit in its partition
        int p = KafkaLedgerClient.partitionFor("fleet", 3);
        raw(topic).forEach(r -> assertEquals(p, r.partition()));
    }

    @Test
    void aSteadyStateWriterReadsOnlyWhatIsNew() throws Exception {
        String topic = "budget-steady";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        int n = 40;
        long[] nanos = new long[n];
        LedgerMark mark = LedgerMark.NONE;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                LedgerDecision d = c.charge(window("fleet", "w" + i, 0.01, 1.0), mark);
                nanos[i] = System.nanoTime() - t;
                assertTrue(d.accepted());
                assertEquals(i + 1, d.mark().seq());
                mark = d.mark();
            }
            assertEquals(0, c.retries());
        }
        java.util.Arrays.sort(nanos);
        System.err.printf(
                "steady-state charge latency over %d charges: median %.1f ms, max %.1f ms%n",
                n, nanos[n / 2] / 1e6, nanos[n - 1] / 1e6);
        assertEquals(2 * n, raw(topic).size(), "one decision and one marker per charge");
    }

    /**
     * {@link LedgerScan}: one pass with one consumer over a partitioned topic finds each stream's
     * latest charged interval end and refuses a stream with a record outside its partition or a
     * decision above its marker.
     */
    @Test
    void oneScanChecksEveryStreamAndFindsWhereEachResumes() throws Exception {
        String topic = "budget-scan";
        createTopic(topic, 4, TopicConfig.CLEANUP_POLICY_COMPACT);
        List<String> streams = new ArrayList<>();
        Map<String, Long> expected = new HashMap<>();
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            for (int s = 0; s < 8; s++) {
                String id = "scan" + s;
                streams.add(id);
                for (int w = 0; w <= s % 3; w++) {
                    PrivacyLedger.Interval i =
                            new PrivacyLedger.Interval(T0 + w * 60_000L, T0 + (w + 1) * 60_000L);
                    LedgerCharge ch =
                            new LedgerCharge(
                                    id,
                                    LedgerCharge.Source.STREAM,
                                    "stats",
                                    i,
                                    "",
                                    0.1,
                                    1.0,
                                    DAY,
                                    PrivacyUnit.RECORD);
                    assertTrue(c.charge(ch, LedgerMark.NONE).accepted());
                    expected.put(id, i.end());
                }
            }
        }
        streams.add("never-charged");
        assertEquals(
                expected,
                LedgerScan.lastChargedEnds(settings(topic), streams, Duration.ofSeconds(30)));

        BudgetStatus forged = statuses(topic).get(0);
        String stream = forged.getStreamId();
        int home = KafkaLedgerClient.partitionFor(stream, 4);
        forged.setSeq(99);
        forged.setChargeKey(stream + "|stream|stats|forged");
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> forge = new KafkaProducer<>(p)) {
            forge.send(
                            new ProducerRecord<>(
                                    topic,
                                    home,
                                    forged.getChargeKey().getBytes(),
                                    AvroCodec.budget().encode(forged)))
                    .get(30, TimeUnit.SECONDS);
        }
        LedgerHistoryException gap =
                assertThrows(
                        LedgerHistoryException.class,
                        () ->
                                LedgerScan.lastChargedEnds(
                                        settings(topic), streams, Duration.ofSeconds(30)));
        assertTrue(gap.getMessage().contains("above its marker"), gap.getMessage());
        assertTrue(gap.getMessage().contains("'" + stream + "'"), gap.getMessage());

        String other = "elsewhere";
        forged.setStreamId(other);
        forged.setChargeKey(other + "|stream|stats|x");
        try (KafkaProducer<byte[], byte[]> forge = new KafkaProducer<>(p)) {
            forge.send(
                            new ProducerRecord<>(
                                    topic,
                                    (KafkaLedgerClient.partitionFor(other, 4) + 1) % 4,
                                    forged.getChargeKey().getBytes(),
                                    AvroCodec.budget().encode(forged)))
                    .get(30, TimeUnit.SECONDS);
        }
        LedgerHistoryException moved =
                assertThrows(
                        LedgerHistoryException.class,
                        () ->
                                LedgerScan.lastChargedEnds(
                                        settings(topic), List.of(other), Duration.ofSeconds(30)));
        assertTrue(moved.getMessage().contains("not in its partition"), moved.getMessage());
        // a writer refuses the moved stream at every charge, not only at the first
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            for (String run : List.of("moved-1", "moved-2")) {
                LedgerHistoryException refused =
                        assertThrows(
                                LedgerHistoryException.class,
                                () -> c.charge(batch(other, run, 0.1, 1.0), LedgerMark.NONE),
                                run);
                assertTrue(refused.getMessage().contains("'" + other + "'"), refused.getMessage());
            }
        }
    }

    /**
     * Review: a batch run learns its decision through {@link KafkaLedgerClient#decision} after more
     * decisions than a history holds in memory; it is looked up on the partition, and a replayed
     * window older than the held decisions gets its recorded decision too.
     */
    @Test
    void decisionsOlderThanTheHeldOnesAreLookedUpOnThePartition() throws Exception {
        String topic = "budget-evicted";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        LedgerMark mark = LedgerMark.NONE;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            LedgerDecision batch = c.charge(batch("old", "r1", 0.001, 100.0), mark);
            mark = batch.mark();
            LedgerCharge firstWindow = null;
            for (int i = 0; i < LedgerHistory.MAX_DECIDED + 8; i++) {
                LedgerCharge w =
                        new LedgerCharge(
                                "old",
                                LedgerCharge.Source.STREAM,
                                "stats",
                                new PrivacyLedger.Interval(
                                        T0 + 60_000 + i * 10_000L, T0 + 70_000 + i * 10_000L),
                                "",
                                0.001,
                                100.0,
                                DAY,
                                PrivacyUnit.RECORD);
                firstWindow = firstWindow == null ? w : firstWindow;
                mark = c.charge(w, mark).mark();
            }
            assertEquals(
                    batch.status(), c.decision("old", batch.status().getChargeKey()), "batch run");
            LedgerDecision replay = c.charge(firstWindow, mark);
            assertTrue(replay.replayed(), "the first window's recorded decision");
            assertEquals(mark, replay.mark(), "nothing written");
        }
    }

    /**
     * The stream job's path: decisions taken from memory are invisible until {@link
     * KafkaLedgerClient#flush} commits them together; after another writer of the partition
     * committed in between, a flush re-decides them and commits only if each is what its caller was
     * told — a decision the other writer's charge turned into a refusal fails the flush and nothing
     * of it is written (the job's checkpoint fails and its release is never published).
     */
    @Test
    void deferredDecisionsCommitAtFlushAndAreDecidedAgainAfterAnotherWriter() throws Exception {
        String topic = "budget-deferred";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        double cap = 3.0;
        try (KafkaLedgerClient job = KafkaLedgerClient.open(settings(topic))) {
            job.register(List.of("a", "b"));
            LedgerDecision a1 = job.decide(window("a", "stats", 1.0, cap), LedgerMark.NONE);
            LedgerDecision b1 = job.decide(window("b", "stats", 1.0, cap), LedgerMark.NONE);
            assertTrue(a1.accepted() && b1.accepted());
            assertEquals(2, job.deferred());
            assertTrue(statuses(topic).isEmpty(), "nothing is visible before the flush");
            job.flush();
            assertEquals(0, job.deferred());
            assertEquals(4, statuses(topic).size(), "two decisions and two markers");

            // another writer charges stream a between a decision of b and its flush: b's
            // decision does not change, so it is committed after being decided again
            LedgerDecision b2 = job.decide(window("b", "ckm", 1.0, cap), b1.mark());
            try (KafkaLedgerClient batch = KafkaLedgerClient.open(settings(topic))) {
                assertTrue(batch.charge(batch("a", "r1", 1.0, cap), LedgerMark.NONE).accepted());
            }
            long before = job.retries();
            job.flush();
            assertTrue(job.retries() > before, "the fenced commit was re-run");
            assertEquals(
                    BudgetEventKind.CHARGE,
                    job.decision("b", b2.status().getChargeKey()).getKind(),
                    "b's deferred charge is committed");

            // the job decides a's last unit of budget; another batch run takes it first: the
            // flush finds the decision changed, throws, and writes nothing of it
            LedgerDecision a2 = job.decide(window("a", "ckm", 1.0, cap), a1.mark());
            assertTrue(a2.accepted(), "a has spent 2 of 3 as far as the job knows");
            try (KafkaLedgerClient batch = KafkaLedgerClient.open(settings(topic))) {
                assertTrue(batch.charge(batch("a", "r2", 1.0, cap), LedgerMark.NONE).accepted());
            }
            assertThrows(LedgerConflictException.class, job::flush);
            assertNull(
                    job.decision("a", a2.status().getChargeKey()),
                    "nothing of the conflicting flush is on the topic");
        }
        // the restarted job replays the charge: now refused, and that refusal is published
        try (KafkaLedgerClient job = KafkaLedgerClient.open(settings(topic))) {
            LedgerDecision again = job.decide(window("a", "ckm", 1.0, cap), LedgerMark.NONE);
            assertFalse(again.accepted());
            job.flush();
        }
        double chargedA =
                statuses(topic).stream()
                        .filter(s -> s.getKind() == BudgetEventKind.CHARGE)
                        .filter(s -> s.getStreamId().equals("a"))
                        .mapToDouble(BudgetStatus::getEpsilon)
                        .sum();
        assertEquals(cap, chargedA, 1e-12, "a's spend is exactly its cap, never above");
        assertEquals(
                1,
                statuses(topic).stream()
                        .filter(s -> s.getKind() == BudgetEventKind.REFUSED)
                        .count(),
                "the replayed refusal is published");
    }

    /**
     * One subtask's flush parked between taking the deferred decisions and sending them (as while
     * its checkpoint commits): another thread's decision returns at once and waits for the next
     * flush. If another writer fences the parked flush, the decisions it took and those taken
     * meanwhile are decided again, in that order, and all committed; if the other writer's charge
     * changes one of them, the flush throws and commits none of them (those taken meanwhile
     * included). A flush parked after its commit, before its read-back, while another writer
     * charges: a decision taken then is decided again from the rebuilt history at the next flush.
     */
    @Test
    void decisionsGoOnWhileAnotherThreadsFlushCommits() throws Exception {
        String topic = "budget-parked-flush";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        double cap = 3.0;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (KafkaLedgerClient job = KafkaLedgerClient.open(settings(topic))) {
            job.register(List.of("a", "b", "c"));
            job.decide(window("a", "stats", 1.0, cap), LedgerMark.NONE);
            job.flush(); // histories read, producer initialised: decisions need no I/O now

            // 1. parked flush; b's decision from another thread does not wait for it
            Parked p1 = Parked.at(job::beforeSend);
            LedgerDecision a2 = job.decide(window("a", "ckm", 1.0, cap), LedgerMark.NONE);
            Future<?> f1 = pool.submit(() -> job.flush());
            p1.awaitParked();
            LedgerDecision b1 = decideOnAnotherThread(pool, job, window("b", "stats", 1.0, cap));
            assertTrue(b1.accepted());
            assertEquals(1, job.deferred(), "b's decision waits for the next flush");
            p1.release();
            f1.get(60, TimeUnit.SECONDS);
            assertEquals(1, job.deferred(), "the parked flush committed only what it took");
            assertTrue(chargeKeys(topic).contains(a2.status().getChargeKey()));
            assertFalse(chargeKeys(topic).contains(b1.status().getChargeKey()));
            job.flush();
            assertEquals(0, job.deferred());
            assertTrue(chargeKeys(topic).contains(b1.status().getChargeKey()));

            // 2. another writer fences the parked flush (charging stream d of the partition: a
            // charge of a would change the totals a's decision states, a conflict): the taken
            // decision and the one taken meanwhile are decided again and committed
            Parked p2 = Parked.at(job::beforeSend);
            LedgerDecision a3 = job.decide(window("a", "dp-hst", 0.5, cap), LedgerMark.NONE);
            Future<?> f2 = pool.submit(() -> job.flush());
            p2.awaitParked();
            chargeAsBatchRun(topic, batch("d", "r1", 0.25, cap));
            LedgerDecision b2 = decideOnAnotherThread(pool, job, window("b", "ckm", 1.0, cap));
            // a's next decision counts a3 on top: decided again after it, from before both
            LedgerDecision a4 = decideOnAnotherThread(pool, job, window("a", "epp", 0.25, cap));
            long retries = job.retries();
            p2.release();
            f2.get(60, TimeUnit.SECONDS);
            assertTrue(job.retries() > retries, "the fenced commit was decided again");
            assertEquals(0, job.deferred(), "the decision taken meanwhile went with them");
            Set<String> keys = chargeKeys(topic);
            assertTrue(keys.contains(a3.status().getChargeKey()), "a's taken decision");
            assertTrue(keys.contains(b2.status().getChargeKey()), "b's decision from meanwhile");
            assertTrue(keys.contains(a4.status().getChargeKey()), "a's decision from meanwhile");

            // 3. the other writer's charge turns b's taken decision into a refusal: nothing of
            // the flush is committed, neither b's nor c's taken meanwhile
            Parked p3 = Parked.at(job::beforeSend);
            LedgerDecision b3 = job.decide(window("b", "dp-hst", 1.0, cap), LedgerMark.NONE);
            assertTrue(b3.accepted(), "b has spent 2 of 3 as far as the job knows");
            Future<?> f3 = pool.submit(() -> job.flush());
            p3.awaitParked();
            chargeAsBatchRun(topic, batch("b", "r2", 0.5, cap));
            LedgerDecision c1 = decideOnAnotherThread(pool, job, window("c", "stats", 1.0, cap));
            long failed = job.failedFlushes();
            p3.release();
            java.util.concurrent.ExecutionException e =
                    assertThrows(
                            java.util.concurrent.ExecutionException.class,
                            () -> f3.get(60, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof LedgerConflictException, e.toString());
            assertEquals(failed + 1, job.failedFlushes());
            keys = chargeKeys(topic);
            assertFalse(keys.contains(b3.status().getChargeKey()), "b's voided decision");
            assertFalse(keys.contains(c1.status().getChargeKey()), "c's voided decision");

            // 4. another writer fences this one after a flush's commit and charges c before the
            // read-back; c's decision taken then did not count that charge: the read-back finds
            // it, and the next flush decides c's again from the rebuilt history — now a refusal
            LedgerDecision c2 = job.decide(window("c", "ckm", 1.0, cap), LedgerMark.NONE);
            Parked p4 = Parked.at(job::afterCommit);
            Future<?> f4 = pool.submit(() -> job.flush());
            p4.awaitParked();
            chargeAsBatchRun(topic, batch("c", "r3", 1.5, cap));
            LedgerDecision c3 = decideOnAnotherThread(pool, job, window("c", "dp-hst", 1.0, cap));
            assertTrue(c3.accepted(), "c has spent 1 of 3 as far as the job knows");
            p4.release();
            f4.get(60, TimeUnit.SECONDS);
            assertTrue(chargeKeys(topic).contains(c2.status().getChargeKey()));
            assertThrows(LedgerConflictException.class, job::flush);
            assertFalse(chargeKeys(topic).contains(c3.status().getChargeKey()), "c's voided one");
        } finally {
            pool.shutdownNow();
        }
        // every stream's decisions numbered 1..h once each, marker at h, spend within the cap
        Map<String, List<Long>> seqs = new HashMap<>();
        Map<String, Long> markers = new HashMap<>();
        Map<String, Double> spent = new HashMap<>();
        for (BudgetStatus st : statuses(topic)) {
            if (st.getKind() == BudgetEventKind.MARKER) {
                markers.put(st.getStreamId(), st.getSeq());
                continue;
            }
            seqs.computeIfAbsent(st.getStreamId(), x -> new ArrayList<>()).add(st.getSeq());
            if (st.getKind() == BudgetEventKind.CHARGE) {
                spent.merge(st.getStreamId(), st.getEpsilon(), Double::sum);
            }
        }
        for (String id : List.of("a", "b", "c")) {
            List<Long> q = seqs.get(id);
            q.sort(Long::compare);
            for (int i = 0; i < q.size(); i++) {
                assertEquals(i + 1L, q.get(i), id + " decisions numbered 1..h once each");
            }
            assertEquals((long) q.size(), markers.get(id), id + "'s marker at h");
            assertTrue(spent.get(id) <= cap + 1e-12, id + " spent " + spent.get(id));
        }
        assertEquals(2.75, spent.get("a"), 1e-12);
        assertEquals(2.5, spent.get("b"), 1e-12);
        assertEquals(2.5, spent.get("c"), 1e-12);
    }

    /** {@code c} decided by {@code job} on a pool thread, within 10 s (it must not wait). */
    private static LedgerDecision decideOnAnotherThread(
            ExecutorService pool, KafkaLedgerClient job, LedgerCharge c) throws Exception {
        return pool.submit(() -> job.decide(c, LedgerMark.NONE)).get(10, TimeUnit.SECONDS);
    }

    /** {@code c} charged (and accepted) by a writer of its own, as a batch run's. */
    private static void chargeAsBatchRun(String topic, LedgerCharge c) {
        try (KafkaLedgerClient batch = KafkaLedgerClient.open(settings(topic))) {
            assertTrue(batch.charge(c, LedgerMark.NONE).accepted());
        }
    }

    /**
     * A flush parked at a hook of its client (before its send, after its commit) until released.
     */
    private record Parked(
            java.util.concurrent.CountDownLatch parked, java.util.concurrent.CountDownLatch go) {
        static Parked at(java.util.function.Consumer<Runnable> hook) {
            Parked p =
                    new Parked(
                            new java.util.concurrent.CountDownLatch(1),
                            new java.util.concurrent.CountDownLatch(1));
            hook.accept(
                    () -> {
                        hook.accept(() -> {}); // once
                        p.parked.countDown();
                        try {
                            if (!p.go.await(60, TimeUnit.SECONDS)) {
                                throw new IllegalStateException("never released");
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
            return p;
        }

        void awaitParked() throws InterruptedException {
            assertTrue(parked.await(30, TimeUnit.SECONDS), "the flush reached its send");
        }

        void release() {
            go.countDown();
        }
    }

    private static Set<String> chargeKeys(String topic) throws Exception {
        Set<String> keys = new HashSet<>();
        for (BudgetStatus st : statuses(topic)) {
            if (st.getKind() != BudgetEventKind.MARKER) {
                keys.add(st.getChargeKey());
            }
        }
        return keys;
    }

    /** Writes one raw record (a forged or restored record), outside any ledger writer. */
    private static void sendRaw(String topic, byte[] key, byte[] value) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(p)) {
            raw.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A writer that starts reads each stream's latest snapshot and its partition after it: it
     * decides from the spend it had, finds an old decision for a replay, checks the history, and
     * reads a fraction of the partition. A snapshot of another topic id is ignored; one of this
     * topic that covers more than the partition holds is missing history and refused.
     */
    @Test
    void aRestartedWriterReadsTheSnapshotsAndOnlyThePartitionAfterThem() throws Exception {
        String topic = "budget-snap";
        createTopicWithSnapshots(topic, 2);
        double cap = 1_000.0;
        int rounds = 60;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic), 20)) {
            c.register(List.of("a", "b"));
            for (int i = 0; i < rounds; i++) {
                c.decide(batch("a", "r" + i, 1.0, cap), LedgerMark.NONE);
                c.decide(batch("b", "r" + i, 1.0, cap), LedgerMark.NONE);
                if (i % 5 == 4) {
                    c.flush();
                }
            }
        }
        int home = KafkaLedgerClient.partitionFor("a", 2);
        long onPartition = raw(topic).stream().filter(r -> r.partition() == home).count();
        String topicId;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic), 20)) {
            topicId = c.topicId();
            LedgerDecision next = c.charge(batch("a", "next", 1.0, cap), LedgerMark.NONE);
            assertTrue(next.accepted());
            assertEquals(rounds + 1.0, next.decision().spent(), 1e-9, "the spend it had, plus 1");
            long read = c.recordsRead();
            assertTrue(read < onPartition / 2, "read " + read + " of " + onPartition + " records");
            assertTrue(
                    c.charge(batch("a", "r0", 1.0, cap), LedgerMark.NONE).replayed(),
                    "the first decision, older than the snapshot's, is looked up");
            assertEquals(rounds + 1, c.verify("a").seq(), "decisions 1..61 all there");
        }
        assertEquals(
                Map.of("a", W.end(), "b", W.end()),
                LedgerScan.lastChargedEnds(
                        settings(topic), List.of("a", "b"), Duration.ofSeconds(30)),
                "the start-up scan from the snapshots");

        byte[] key = "a".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        sendRaw(
                LedgerSnapshot.topicFor(topic),
                key,
                new LedgerSnapshot("a", "another-topic-id", home, 0, new LedgerHistory("a"))
                        .encode(AvroCodec.budget()));
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic), 20)) {
            assertEquals(
                    rounds + 2.0,
                    c.charge(batch("a", "after", 1.0, cap), LedgerMark.NONE).decision().spent(),
                    1e-9,
                    "an empty snapshot of another topic id changes nothing");
        }
        sendRaw(
                LedgerSnapshot.topicFor(topic),
                key,
                new LedgerSnapshot("a", topicId, home, 1_000_000, new LedgerHistory("a"))
                        .encode(AvroCodec.budget()));
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic), 20)) {
            assertThrows(
                    LedgerHistoryException.class,
                    () -> c.charge(batch("a", "later", 1.0, cap), LedgerMark.NONE),
                    "a snapshot beyond the partition's end: its history is gone");
        }
        assertThrows(
                LedgerHistoryException.class,
                () ->
                        LedgerScan.lastChargedEnds(
                                settings(topic), List.of("a"), Duration.ofSeconds(30)));
    }

    /**
     * A flush whose records on the partition follow the writer's read position directly is not read
     * back (they are counted already), also when its commit carries snapshots (records of another
     * topic, whose offsets must not enter the check). A flush after another writer's commit reads
     * that writer's records and counts them; so does the read-back of a flush that skipped its own
     * records when a batch writer fenced it right after its commit.
     */
    @Test
    void aFlushReadsBackOnlyWhatItCannotKnowIsItsOwn() throws Exception {
        String topic = "budget-readback";
        createTopicWithSnapshots(topic, 1);
        double cap = 100.0;
        // a writer under another prefix does not fence this one: its records land before ours
        LedgerSettings unfenced =
                new LedgerSettings(
                        kafka.bootstrapServers(),
                        topic,
                        "it-ledger-unfenced-" + topic,
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(20));
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic), 5)) {
            c.register(List.of("a", "b"));
            c.decide(batch("a", "r0", 1.0, cap), LedgerMark.NONE); // reads the empty partition
            for (int i = 1; i < 20; i++) {
                c.decide(batch("a", "r" + i, 1.0, cap), LedgerMark.NONE);
            }
            c.flush();
            assertFalse(
                    raw(LedgerSnapshot.topicFor(topic)).isEmpty(), "the commit carried snapshots");
            assertEquals(0, c.recordsRead(), "its own 20 decisions and marker are not read back");
            c.decide(batch("a", "r20", 1.0, cap), LedgerMark.NONE);
            c.flush();
            assertEquals(0, c.recordsRead(), "nor those of a second flush");

            try (KafkaLedgerClient o = KafkaLedgerClient.open(unfenced)) {
                assertTrue(o.charge(batch("b", "x", 5.0, cap), LedgerMark.NONE).accepted());
            }
            c.decide(batch("a", "r21", 1.0, cap), LedgerMark.NONE);
            c.flush();
            assertTrue(c.recordsRead() >= 2, "the other writer's decision and marker read back");
            assertEquals(
                    6.0,
                    c.decide(batch("b", "y", 1.0, cap), LedgerMark.NONE).decision().spent(),
                    1e-9,
                    "b's spend counts the other writer's 5");
            c.flush();

            // a batch run fences this writer between its commit and its read-back
            c.afterCommit(
                    () -> {
                        try (KafkaLedgerClient batch = KafkaLedgerClient.open(settings(topic))) {
                            assertTrue(
                                    batch.charge(batch("b", "batch", 2.0, cap), LedgerMark.NONE)
                                            .accepted());
                        }
                    });
            c.decide(batch("a", "r22", 1.0, cap), LedgerMark.NONE);
            c.flush();
            c.afterCommit(() -> {});
            assertEquals(
                    9.0,
                    c.decide(batch("b", "z", 1.0, cap), LedgerMark.NONE).decision().spent(),
                    1e-9,
                    "b's spend counts the batch run's 2, committed after this flush's records");
            c.flush();
            assertEquals(
                    24.0,
                    c.charge(batch("a", "r23", 1.0, cap), LedgerMark.NONE).decision().spent(),
                    1e-9,
                    "a's 24 decisions, each counted once");
        }
        try (KafkaLedgerClient fresh = KafkaLedgerClient.open(settings(topic))) {
            assertEquals(24, fresh.verify("a").seq(), "decisions 1..24 of a on the topic");
            assertEquals(
                    4,
                    fresh.verify("b").seq(),
                    "b: the other writer's, this writer's two and the batch run's");
        }
    }

    /**
     * An entry the writer cannot read (here forged; in life a foreign or corrupt record) refuses
     * the charge that meets it and every charge after it on the same writer: the records polled
     * with it were not counted, so the writer must read the partition again, not on from there.
     */
    @Test
    void anUnreadableEntryRefusesEveryLaterChargeNotOnlyTheFirst() throws Exception {
        String topic = "budget-unreadable";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            assertTrue(c.charge(batch("u", "run-1", 0.25, 1.0), LedgerMark.NONE).accepted());
            sendRaw(
                    topic,
                    "u|forged".getBytes(StandardCharsets.UTF_8),
                    "not a ledger entry".getBytes(StandardCharsets.UTF_8));
            for (String run : List.of("run-2", "run-3")) {
                LedgerHistoryException e =
                        assertThrows(
                                LedgerHistoryException.class,
                                () -> c.charge(batch("u", run, 0.25, 1.0), LedgerMark.NONE),
                                run);
                assertTrue(e.getMessage().contains("unreadable ledger entry"), e.getMessage());
            }
        }
        long decisions =
                raw(topic).stream()
                        .filter(
                                r ->
                                        !"u|forged"
                                                .equals(
                                                        new String(
                                                                r.key(), StandardCharsets.UTF_8)))
                        .map(r -> new String(r.key(), StandardCharsets.UTF_8))
                        .filter(k -> k.contains("run-"))
                        .count();
        assertEquals(1, decisions, "nothing decided past the unreadable entry");
    }

    @Test
    void reChargingTheSameKeyReturnsTheRecordedDecision() throws Exception {
        String topic = "budget-replay";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        LedgerDecision first;
        LedgerDecision refused;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            first = c.charge(window("fleet", "stats", 1.0, 1.0), LedgerMark.NONE);
            assertTrue(first.accepted());
            refused = c.charge(window("fleet", "ckm", 1.0, 1.0), first.mark());
            assertFalse(refused.accepted());
            LedgerDecision again = c.charge(window("fleet", "stats", 1.0, 1.0), refused.mark());
            assertTrue(again.replayed());
            assertTrue(again.accepted(), "a replay of an accepted charge stays accepted");
            assertEquals(first.decision(), again.decision());
        }
        // a restarted writer (another producer, Flink replay after a failover) gets them too
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            LedgerDecision a = c.charge(window("fleet", "stats", 1.0, 1.0), first.mark());
            LedgerDecision b = c.charge(window("fleet", "ckm", 1.0, 1.0), first.mark());
            assertTrue(a.replayed() && a.accepted());
            assertTrue(b.replayed() && !b.accepted());
            assertEquals(refused.decision(), b.decision());
            assertEquals(new LedgerMark(c.topicId(), 2), b.mark());
            // the same key with another epsilon is a conflict, not a new charge
            assertThrows(
                    IllegalStateException.class,
                    () -> c.charge(window("fleet", "stats", 0.5, 1.0), LedgerMark.NONE));
        }
        List<BudgetStatus> decisions =
                statuses(topic).stream()
                        .filter(s -> s.getKind() != BudgetEventKind.MARKER)
                        .toList();
        assertEquals(2, decisions.size(), "each key decided once: " + decisions);
    }

    @Test
    void anEmptiedBudgetTopicIsRefusedUntilRestoredAndAdopted() throws Exception {
        String topic = "budget-emptied";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        LedgerMark seen;
        String oldId;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            oldId = c.topicId();
            c.charge(window("fleet", "stats", 0.4, 1.0), LedgerMark.NONE);
            seen = c.charge(window("fleet", "ckm", 0.4, 1.0), LedgerMark.NONE).mark();
        }
        assertEquals(new LedgerMark(oldId, 2), seen);
        List<ConsumerRecord<byte[], byte[]>> backup = raw(topic);

        admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        String newId;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            newId = c.topicId();
            LedgerHistoryException e =
                    assertThrows(
                            LedgerHistoryException.class,
                            () -> c.charge(window("fleet", "dp-hst", 0.4, 1.0), seen));
            assertEquals(
                    "budget topic 'budget-emptied' lost ledger history of stream 'fleet': it is"
                            + " empty (no ledger marker), but this writer has seen its history up"
                            + " to sequence 2 on topic id "
                            + oldId
                            + "; nothing is charged or released until it is restored: see"
                            + " docs/operations.md, \"Restoring the budget topic\"",
                    e.getMessage());
        }
        assertTrue(raw(topic).isEmpty(), "a refused writer writes nothing");

        // restore: the backup's records, byte for byte, then adopt
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> restore = new KafkaProducer<>(p)) {
            for (ConsumerRecord<byte[], byte[]> r : backup) {
                restore.send(new ProducerRecord<>(topic, r.partition(), r.key(), r.value()))
                        .get(30, TimeUnit.SECONDS);
            }
        }
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            LedgerHistoryException e =
                    assertThrows(
                            LedgerHistoryException.class,
                            () -> c.charge(window("fleet", "dp-hst", 0.4, 1.0), seen));
            assertTrue(
                    e.getMessage()
                            .contains(
                                    "was recreated: its ledger marker was written to topic id "
                                            + oldId
                                            + ", the topic's id is now "
                                            + newId),
                    e.getMessage());
        }
        // through the CLI, with the writers' prefix: verify refuses (one line, exit 2), adopt
        // records the new topic id
        String[] common = {
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--topic",
            topic,
            "--stream",
            "fleet",
            "--transactional-id-prefix",
            settings(topic).transactionalIdPrefix()
        };
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = org.dpclust.cli.DpclustCommand.commandLine();
        cl.setErr(new java.io.PrintWriter(err, true));
        assertEquals(2, cl.execute(concat("ledger", "verify", common)));
        assertTrue(err.toString().startsWith("dpclust ledger: budget topic '" + topic + "' lost"));
        assertEquals(0, cl.execute(concat("ledger", "adopt", common)), err.toString());
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            assertEquals(new LedgerMark(newId, 2), c.verify("fleet"));
            assertEquals(new LedgerMark(newId, 2), c.adopt("fleet"), "adopting twice is a no-op");
        }
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            // the restored spend counts: 0.8 of 1.0 spent, so 0.4 more is refused, 0.2 fits
            assertFalse(c.charge(window("fleet", "dp-hst", 0.4, 1.0), seen).accepted());
            LedgerDecision ok = c.charge(batch("fleet", "r1", 0.2, 1.0), seen);
            assertTrue(ok.accepted());
            assertEquals(new LedgerMark(newId, 4), ok.mark());
        }
    }

    private static String[] concat(String a, String b, String[] rest) {
        String[] out = new String[rest.length + 2];
        out[0] = a;
        out[1] = b;
        System.arraycopy(rest, 0, out, 2, rest.length);
        return out;
    }

    @Test
    void aBudgetTopicThatIsNotCompactedIsRefused() throws Exception {
        String topic = "budget-delete-policy";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_DELETE);
        LedgerHistoryException e =
                assertThrows(
                        LedgerHistoryException.class,
                        () -> KafkaLedgerClient.open(settings(topic)));
        assertEquals(
                "budget topic 'budget-delete-policy' has cleanup.policy=delete; the privacy"
                        + " ledger needs cleanup.policy=compact (a delete policy lets history"
                        + " vanish): kafka-configs.sh --alter --entity-type topics --entity-name"
                        + " budget-delete-policy --add-config cleanup.policy=compact",
                e.getMessage());
        IllegalStateException missing =
                assertThrows(
                        IllegalStateException.class,
                        () -> KafkaLedgerClient.open(settings("no-such-budget-topic")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    }

    /**
     * A device-unit stream in zcdp accounting on the real broker: pure releases of ε = 1/8 (ρ =
     * 1/128 each) over many short windows are accepted until the ρ equivalent of (10, 1e-6) and
     * refused after; a second writer, which decides from the topic alone, still refuses; the
     * records carry ρ spent and its (ε, δ).
     */
    @Test
    void zcdpDeviceStreamReleasesUntilTheCapAndRefusesAfterAcrossWriters() throws Exception {
        String topic = "budget-zcdp";
        createTopic(topic, 1, TopicConfig.CLEANUP_POLICY_COMPACT);
        org.dpclust.config.BudgetAccounting z =
                new org.dpclust.config.BudgetAccounting(
                        org.dpclust.privacy.Accounting.ZCDP, 1e-6, Double.POSITIVE_INFINITY);
        double rhoCap = org.dpclust.privacy.Zcdp.rhoCap(10, 1e-6);
        int expected = (int) Math.floor(rhoCap * 128);
        LedgerMark mark = LedgerMark.NONE;
        int accepted = 0;
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            for (int i = 0; i <= expected; i++) {
                LedgerCharge charge =
                        new LedgerCharge(
                                        "device-fleet",
                                        LedgerCharge.Source.STREAM,
                                        "stats",
                                        new PrivacyLedger.Interval(
                                                T0 + i * 10_000L, T0 + (i + 1) * 10_000L),
                                        "",
                                        0.125,
                                        10,
                                        DAY,
                                        PrivacyUnit.DEVICE)
                                .withAccounting(z);
                LedgerDecision d = c.charge(charge, mark);
                mark = d.mark();
                if (d.accepted()) {
                    accepted++;
                }
            }
        }
        assertEquals(expected, accepted, "accepted exactly up to the rho cap");
        try (KafkaLedgerClient c = KafkaLedgerClient.open(settings(topic))) {
            LedgerCharge late =
                    new LedgerCharge(
                                    "device-fleet",
                                    LedgerCharge.Source.STREAM,
                                    "stats",
                                    new PrivacyLedger.Interval(T0 + 3_600_000L, T0 + 3_610_000L),
                                    "",
                                    0.125,
                                    10,
                                    DAY,
                                    PrivacyUnit.DEVICE)
                            .withAccounting(z);
            LedgerDecision d = c.charge(late, mark);
            assertFalse(d.accepted(), "a new writer refuses from the topic's rho totals");
            assertEquals(expected / 128.0, d.status().getRhoSpent(), 0.0);
            assertTrue(d.decision().spent() <= 10.0);
            assertEquals(10.0, d.decision().cap());
        }
        double rhoCharged =
                statuses(topic).stream()
                        .filter(s -> s.getKind() == BudgetEventKind.CHARGE)
                        .mapToDouble(BudgetStatus::getRho)
                        .sum();
        assertEquals(expected / 128.0, rhoCharged, 0.0);
        assertTrue(rhoCharged <= rhoCap);
        System.err.println(
                "zcdp ledger: "
                        + accepted
                        + " releases of eps 1/8 under (10, 1e-6) (pure accounting: 80), rho cap "
                        + rhoCap);
    }
}
