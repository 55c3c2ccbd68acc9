package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.batch.BatchParams;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.StreamSpec;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The streaming job and three batch runs on the same stream, started together (Flink MiniCluster,
 * real in-process broker): all of them charge the stream's one ledger through its fenced writer, so
 * the spend stays within the cap, every refusal (stream windows and batch runs alike) is a REFUSED
 * record on the budget topic, and exactly the charged requests are released. Record units: the
 * spend is the most charged to any instant — a batch run covers all five windows, a window charge
 * its own — recomputed here from the CHARGE records. Which requests win depends on timing; that
 * three runs of 1 against a cap of 2 leave at least one refusal and a spend of exactly the cap does
 * not.
 */
class StreamAndBatchLedgerIT {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final long W = 60_000;
    private static final int WINDOWS = 5;
    private static final int BATCH_RUNS = 3;
    private static final double CAP = 2.0;

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .setConfiguration(LocalCluster.config())
                            .build());

    @Test
    void aStreamJobAndBatchRunsOnOneStreamNeverExceedTheCapAndPublishEveryRefusal()
            throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            DpclustConfig cfg =
                    ConfigLoader.parse(
                            """
                            kafka:
                              bootstrap_servers: "%s"
                              topics: {input: sb.in, centroids: sb.centroids, sketches: sb.sketches, budget: sb.budget, dlq: sb.dlq}
                              group_id: sb
                              transactional_id_prefix: stream-batch-it
                              transaction_timeout: PT1M
                              starting_offsets: earliest
                            job:
                              checkpoint_interval: PT0.5S
                              max_out_of_orderness: PT1S
                              idle_timeout: PT2S
                              bounded_input: true
                              parallelism: 1
                              # synthetic history replayed: every record counts, the end of the input
                              # releases every scheduled window of [start, end)
                              max_lateness: P3650D
                              start: "%s"
                              end: "%s"
                            streams:
                              - id: fleet
                                dimension: 2
                                lower: [0.0, 0.0]
                                upper: [100.0, 100.0]
                                k: 3
                                window: PT1M
                                epsilon_per_release: 1.0
                                budget_cap: %s
                                budget_period: P1D
                                privacy_unit: record
                                summaries: [stats]
                                public_seed: 3
                            """
                                    .formatted(
                                            kafka.bootstrapServers(),
                                            T0,
                                            T0.plusMillis(WINDOWS * W),
                                            CAP));
            StreamSpec spec = cfg.streams().get(0);
            TopicAdmin.ensureTopics(cfg.kafka(), 1);
            SplittableRandom rng = new SplittableRandom(7); // public randomness (no privacy noise)
            int perWindow = 100;
            try (TelemetryProducer p =
                    new TelemetryProducer(kafka.bootstrapServers(), cfg.kafka().inputTopic())) {
                for (int i = 0; i < WINDOWS * perWindow; i++) {
                    p.send(
                            "fleet",
                            "dev-" + (i % 30),
                            T0.toEpochMilli() + i * (W / perWindow),
                            new double[] {100 * rng.nextDouble(), 100 * rng.nextDouble()});
                }
                p.flush();
            }
            BatchParams params = LedgerTestRuns.statsParams(spec, 3, 1.0);
            PrivacyLedger.Interval interval =
                    new PrivacyLedger.Interval(T0.toEpochMilli(), T0.toEpochMilli() + WINDOWS * W);

            CyclicBarrier go = new CyclicBarrier(BATCH_RUNS + 1);
            ExecutorService pool = Executors.newFixedThreadPool(BATCH_RUNS + 1);
            Future<JobClient> stream =
                    pool.submit(
                            () -> {
                                StreamingJob job =
                                        StreamingJob.fromKafka(cfg, TestRandoms.secretSource());
                                go.await(60, TimeUnit.SECONDS);
                                return job.executeAsync(
                                        StreamExecutionEnvironment.getExecutionEnvironment(
                                                LocalCluster.config()));
                            });
            List<Future<String>> batchKeys = new ArrayList<>();
            for (int r = 0; r < BATCH_RUNS; r++) {
                batchKeys.add(
                        pool.submit(LedgerTestRuns.statsBatchRun(cfg, spec, params, interval, go)));
            }
            Set<String> requested = new HashSet<>();
            for (Future<String> f : batchKeys) {
                requested.add(f.get(10, TimeUnit.MINUTES));
            }
            stream.get(5, TimeUnit.MINUTES).getJobExecutionResult().get(10, TimeUnit.MINUTES);
            pool.shutdown();
            for (int w = 0; w < WINDOWS; w++) {
                long start = T0.toEpochMilli() + w * W;
                requested.add(LedgerCharge.stream(spec, "stats", start, start + W).key());
            }
            assertEquals(BATCH_RUNS + WINDOWS, requested.size());

            List<BudgetStatus> decisions = new ArrayList<>();
            for (BudgetStatus b :
                    LedgerTestRuns.read(
                            kafka.bootstrapServers(),
                            cfg.kafka().budgetTopic(),
                            AvroCodec.budget())) {
                if (b.getKind() != BudgetEventKind.MARKER) {
                    decisions.add(b);
                }
            }
            Set<String> decided = new HashSet<>();
            int accepted = 0;
            double[] charged = new double[WINDOWS]; // epsilon charged to each window's instants
            for (BudgetStatus b : decisions) {
                decided.add(b.getChargeKey().toString());
                if (b.getKind() == BudgetEventKind.CHARGE) {
                    accepted++;
                    assertTrue(b.getSpent() <= CAP + 1e-12, "spent " + b.getSpent());
                    LedgerTestRuns.addToWindows(b, T0.toEpochMilli(), W, charged);
                }
            }
            double spent = java.util.Arrays.stream(charged).max().orElseThrow();
            assertEquals(
                    requested,
                    decided,
                    "every request, stream window or batch run, is decided and published: "
                            + decisions);
            assertEquals(requested.size(), decisions.size(), "one decision per request");
            assertTrue(
                    spent <= CAP + 1e-12,
                    "spent " + spent + " > cap " + CAP + ": " + java.util.Arrays.toString(charged));
            assertEquals(CAP, spent, 1e-12, "three batch runs of 1 alone exceed the cap of 2");
            assertTrue(accepted < requested.size(), "at least one refusal");
            assertEquals(
                    requested.size() - accepted,
                    decisions.stream().filter(b -> b.getKind() == BudgetEventKind.REFUSED).count(),
                    "every refusal is published");
            List<CentroidRelease> releases =
                    LedgerTestRuns.read(
                            kafka.bootstrapServers(),
                            cfg.kafka().centroidsTopic(),
                            AvroCodec.centroids());
            assertEquals(accepted, releases.size(), "a release per charge, none for a refusal");
        }
    }
}
