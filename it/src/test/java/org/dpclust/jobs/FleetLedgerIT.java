package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
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
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.ledger.KafkaLedgerClient;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fleet and batch writers on one budget topic: a streaming job of 1,000 streams (one stream set,
 * parallelism 2, a budget topic of 4 partitions) releases three windows per stream while two batch
 * writers — ledger clients of their own, so they fence the job's writer of every partition they
 * charge — charge 100 of the streams again and again until the job ends, and at least four times
 * each (four charges of 1 against a cap of 3: each of those streams has a refusal). The job's
 * decisions are taken from memory and committed before each checkpoint; a batch charge between a
 * decision and its commit makes the job decide again (and restart when the outcome changed).
 * Whatever the timing: no stream's spend at any instant exceeds its cap, every request the job made
 * and every batch charge is decided exactly once and published, and exactly the accepted windows
 * are released.
 */
class FleetLedgerIT {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final long W = 60_000;
    private static final int WINDOWS = 3;
    private static final int STREAMS = 1_000;
    private static final int BATCHED = 100;
    private static final double CAP = 3.0;

    @RegisterExtension static final MiniClusterExtension FLINK = StreamingRuns.miniCluster();

    @Test
    void aThousandStreamsAndConcurrentBatchWritersNeverExceedAnyCap() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            DpclustConfig cfg =
                    ConfigLoader.parse(
                            """
                            kafka:
                              bootstrap_servers: "%s"
                              topics: {input: fl.in, centroids: fl.centroids, sketches: fl.sketches, budget: fl.budget, dlq: fl.dlq}
                              group_id: fl
                              transactional_id_prefix: fleet-ledger-it
                              transaction_timeout: PT1M
                              starting_offsets: earliest
                            job:
                              checkpoint_interval: PT0.5S
                              max_out_of_orderness: PT1S
                              idle_timeout: PT2S
                              bounded_input: true
                              parallelism: 2
                              max_lateness: P3650D
                              start: "%s"
                              end: "%s"
                            streams:
                              - ids: {prefix: f, from: 0, to: %d, digits: 4}
                                dimension: 2
                                lower: [0.0, 0.0]
                                upper: [1.0, 1.0]
                                k: 2
                                window: PT1M
                                epsilon_per_release: 1.0
                                budget_cap: %s
                                budget_period: P1D
                                summaries: [stats]
                            """
                                    .formatted(
                                            kafka.bootstrapServers(),
                                            T0,
                                            T0.plusMillis(WINDOWS * W),
                                            STREAMS - 1,
                                            CAP));
            TopicAdmin.ensureTopics(cfg.kafka(), 2, 4);
            try (TelemetryProducer p =
                    new TelemetryProducer(kafka.bootstrapServers(), cfg.kafka().inputTopic())) {
                for (int w = 0; w < WINDOWS; w++) {
                    for (StreamSpec s : cfg.streams()) {
                        p.send(
                                s.id(),
                                "d",
                                T0.toEpochMilli() + w * W + 1_000,
                                new double[] {0.25 + 0.5 * (w % 2), 0.5});
                    }
                }
                p.flush();
            }
            PrivacyLedger.Interval all =
                    new PrivacyLedger.Interval(T0.toEpochMilli(), T0.toEpochMilli() + WINDOWS * W);
            LedgerSettings ledger = LedgerSettings.of(cfg.kafka());

            StreamingJob job =
                    new StreamingJob(
                            KafkaEndpoints.source(cfg),
                            KafkaEndpoints.sink(cfg),
                            cfg,
                            TestRandoms.secretSource(),
                            Map.of());
            JobClient client =
                    job.executeAsync(StreamingRuns.env("fixed-delay", 1_000, Duration.ZERO));
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<Set<String>>> writers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int parity = t;
                writers.add(
                        pool.submit(
                                () -> {
                                    Set<String> keys = new HashSet<>();
                                    try (KafkaLedgerClient c = KafkaLedgerClient.open(ledger)) {
                                        for (int round = 0; !done.get() || round < 4; round++) {
                                            for (int i = parity; i < BATCHED; i += 2) {
                                                LedgerCharge b =
                                                        new LedgerCharge(
                                                                cfg.streams().get(i).id(),
                                                                LedgerCharge.Source.BATCH,
                                                                "stats",
                                                                all,
                                                                "r" + round,
                                                                1.0,
                                                                CAP,
                                                                Duration.ofDays(1).toMillis(),
                                                                PrivacyUnit.RECORD);
                                                c.charge(b, LedgerMark.NONE);
                                                keys.add(b.key());
                                            }
                                        }
                                    }
                                    return keys;
                                }));
            }
            client.getJobExecutionResult().get(8, TimeUnit.MINUTES);
            done.set(true);
            Set<String> requested = new HashSet<>();
            for (Future<Set<String>> f : writers) {
                requested.addAll(f.get(2, TimeUnit.MINUTES));
            }
            pool.shutdown();
            int batchRequests = requested.size();
            for (StreamSpec s : cfg.streams()) {
                for (int w = 0; w < WINDOWS; w++) {
                    long start = T0.toEpochMilli() + w * W;
                    requested.add(LedgerCharge.stream(s, "stats", start, start + W).key());
                }
            }

            Map<String, double[]> charged = new HashMap<>(); // per stream, ε on each window
            Set<String> decided = new HashSet<>();
            int decisions = 0;
            int streamCharges = 0;
            int refused = 0;
            for (BudgetStatus b :
                    LedgerTestRuns.read(
                            kafka.bootstrapServers(),
                            cfg.kafka().budgetTopic(),
                            AvroCodec.budget())) {
                if (b.getKind() == BudgetEventKind.MARKER) {
                    continue;
                }
                decisions++;
                assertTrue(decided.add(b.getChargeKey()), "decided twice: " + b.getChargeKey());
                if (b.getKind() == BudgetEventKind.REFUSED) {
                    refused++;
                    continue;
                }
                streamCharges += "stream".equals(b.getSource()) ? 1 : 0;
                LedgerTestRuns.addToWindows(
                        b,
                        T0.toEpochMilli(),
                        W,
                        charged.computeIfAbsent(b.getStreamId(), s -> new double[WINDOWS]));
            }
            for (Map.Entry<String, double[]> e : charged.entrySet()) {
                for (double x : e.getValue()) {
                    assertTrue(x <= CAP + 1e-12, e.getKey() + " spent " + x + " > cap " + CAP);
                }
            }
            assertEquals(requested, decided, "every request decided and published, once");
            assertEquals(requested.size(), decisions);
            assertTrue(refused > 0, "the batch writers exhaust their streams' budgets");
            List<CentroidRelease> releases =
                    LedgerTestRuns.read(
                            kafka.bootstrapServers(),
                            cfg.kafka().centroidsTopic(),
                            AvroCodec.centroids());
            assertEquals(streamCharges, releases.size(), "a release per accepted window, no more");
            assertTrue(
                    streamCharges >= (STREAMS - BATCHED) * WINDOWS,
                    "streams nobody else charges release every window: " + streamCharges);
            System.err.printf(
                    "FleetLedgerIT: %d streams, %d batch charges, %d window releases, %d refusals%n",
                    STREAMS, batchRequests, streamCharges, refused);
        }
    }
}
