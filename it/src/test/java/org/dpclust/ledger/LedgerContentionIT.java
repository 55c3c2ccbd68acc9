package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;
import org.junit.jupiter.api.Test;

/**
 * Writers under contention for 30 s on one budget topic (2 partitions, with its snapshot topic): a
 * stream-job writer shared by two threads (two subtasks' handles on one client), each deciding 15
 * streams' windows in memory and flushing after each round — so one thread's decisions go on while
 * the other's flush commits — and two batch writers — new clients every few rounds, so each starts
 * from the snapshots — charging the same streams, every charge fencing the job's writer. No writer
 * may ever see a history that is not whole (a view ending inside another writer's transaction held
 * a decision without the marker committed with it: found by this test), every decision the job's
 * writer was told and flushed without a conflict is on the topic (a retried re-decision once
 * dropped them), and each stream's decisions are numbered 1..h once each with its marker at h.
 */
class LedgerContentionIT {
    private static final int STREAMS = 30;
    private static final long RUN_MS = 30_000;

    @Test
    void contendingWritersKeepEveryHistoryWholeAndEveryFlushedDecision() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String topic = "contention.budget";
            try (Admin a =
                    Admin.create(
                            Map.of(
                                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                                    kafka.bootstrapServers()))) {
                Map<String, String> compact =
                        Map.of(
                                TopicConfig.CLEANUP_POLICY_CONFIG,
                                TopicConfig.CLEANUP_POLICY_COMPACT);
                a.createTopics(
                                List.of(
                                        new NewTopic(topic, 2, (short) 1).configs(compact),
                                        new NewTopic(LedgerSnapshot.topicFor(topic), 1, (short) 1)
                                                .configs(compact)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            LedgerSettings s =
                    new LedgerSettings(
                            kafka.bootstrapServers(),
                            topic,
                            "contention",
                            Duration.ofSeconds(60),
                            Duration.ofSeconds(20));
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < STREAMS; i++) {
                ids.add("f" + i);
            }
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<Set<String>>> jobs = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int me = t;
                jobs.add(
                        pool.submit(
                                () -> {
                                    Set<String> flushed = new HashSet<>();
                                    try (SharedLedgerClient j = SharedLedgerClient.acquire(s, 50)) {
                                        j.register(ids);
                                        for (long w = 0; !done.get(); w++) {
                                            List<String> told = new ArrayList<>();
                                            try {
                                                for (int i = me; i < STREAMS; i += 2) {
                                                    told.add(
                                                            j.decide(
                                                                            charge(ids.get(i), w),
                                                                            LedgerMark.NONE)
                                                                    .status()
                                                                    .getChargeKey());
                                                }
                                                j.flush();
                                                flushed.addAll(told);
                                            } catch (LedgerConflictException e) {
                                                // another writer's charge changed a stated total,
                                                // or the other thread's flush that took these
                                                // failed: they are void (the job would replay)
                                            }
                                        }
                                    }
                                    return flushed;
                                }));
            }
            List<Future<Integer>> batches = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int parity = t;
                batches.add(
                        pool.submit(
                                () -> {
                                    int charged = 0;
                                    for (int round = 0; !done.get(); ) {
                                        try (KafkaLedgerClient b = KafkaLedgerClient.open(s, 50)) {
                                            for (int k = 0; k < 5 && !done.get(); k++, round++) {
                                                for (int i = parity; i < STREAMS; i += 2) {
                                                    b.charge(
                                                            batch(ids.get(i), parity, round),
                                                            LedgerMark.NONE);
                                                    charged++;
                                                }
                                            }
                                        }
                                    }
                                    return charged;
                                }));
            }
            Thread.sleep(RUN_MS);
            done.set(true);
            Set<String> flushed = new HashSet<>();
            for (Future<Set<String>> f : jobs) {
                flushed.addAll(f.get(3, TimeUnit.MINUTES));
            }
            int batchCharges = 0;
            for (Future<Integer> f : batches) {
                batchCharges += f.get(3, TimeUnit.MINUTES);
            }
            pool.shutdown();

            AvroCodec<BudgetStatus> codec = AvroCodec.budget();
            Set<String> keys = new HashSet<>();
            Map<String, List<Long>> seqs = new HashMap<>();
            Map<String, Long> markers = new HashMap<>();
            try (TopicReader r = new TopicReader(kafka.bootstrapServers(), topic)) {
                for (ConsumerRecord<byte[], byte[]> rec : r.readToEnd(Duration.ofSeconds(60))) {
                    BudgetStatus st = codec.decode(rec.value());
                    if (st.getKind() == BudgetEventKind.MARKER) {
                        markers.put(st.getStreamId(), st.getSeq());
                    } else {
                        assertTrue(keys.add(st.getChargeKey()), "twice: " + st.getChargeKey());
                        seqs.computeIfAbsent(st.getStreamId(), x -> new ArrayList<>())
                                .add(st.getSeq());
                    }
                }
            }
            Set<String> missing = new HashSet<>(flushed);
            missing.removeAll(keys);
            assertEquals(Set.of(), missing, "flushed decisions missing from the topic");
            for (String id : ids) {
                List<Long> q = seqs.get(id);
                q.sort(Long::compare);
                for (int i = 0; i < q.size(); i++) {
                    assertEquals(i + 1L, q.get(i), id + " decisions numbered 1..h once each");
                }
                assertEquals((long) q.size(), markers.get(id), id + "'s marker at h");
            }
            assertTrue(flushed.size() > STREAMS && batchCharges > STREAMS, "both kinds wrote");
            System.err.printf(
                    "LedgerContentionIT: %d flushed window decisions, %d batch charges%n",
                    flushed.size(), batchCharges);
        }
    }

    private static LedgerCharge charge(String id, long w) {
        return new LedgerCharge(
                id,
                LedgerCharge.Source.STREAM,
                "stats",
                new PrivacyLedger.Interval(w * 10_000, (w + 1) * 10_000),
                "",
                0.001,
                1e6,
                86_400_000L,
                PrivacyUnit.RECORD);
    }

    private static LedgerCharge batch(String id, int writer, int round) {
        return new LedgerCharge(
                id,
                LedgerCharge.Source.BATCH,
                "stats",
                new PrivacyLedger.Interval(0, 10_000),
                "b" + writer + "-" + round,
                0.001,
                1e6,
                86_400_000L,
                PrivacyUnit.RECORD);
    }
}
