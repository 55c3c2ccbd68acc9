package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
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
import org.dpclust.jobs.LedgerTestRuns;
import org.dpclust.jobs.LocalCluster;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.ledger.PrivacyLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three batch runs ({@link BatchJob}, Flink BATCH jobs on a MiniCluster, real in-process broker) on
 * the same stream and the same public interval, started together, each asking epsilon 1 of a cap of
 * 2: they charge through the stream's fenced ledger writer, so exactly two are charged and released
 * and one is refused and published as REFUSED, each under its own run's key. (Before the fenced
 * ledger each run decided against the spend it had read at start: all three charged.)
 */
class ConcurrentBatchLedgerIT {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant T1 = T0.plus(Duration.ofMinutes(5));
    private static final String INPUT = "telemetry-concurrent-batch";

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .setConfiguration(LocalCluster.config())
                            .build());

    @Test
    void concurrentBatchRunsOnOneStreamNeverExceedTheCap(@TempDir Path dir) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            Path config = dir.resolve("dpclust.yaml");
            Files.writeString(
                    config,
                    """
                    kafka:
                      bootstrap_servers: %s
                      transactional_id_prefix: concurrent-batch-it
                      transaction_timeout: PT1M
                      topics:
                        input: %s
                    streams:
                      - id: fleet
                        dimension: 2
                        lower: [0.0, 0.0]
                        upper: [100.0, 100.0]
                        k: 3
                        window: PT1M
                        epsilon_per_release: 1.0
                        budget_cap: 2.0
                        budget_period: P1D
                        privacy_unit: record
                        summaries: [stats]
                        public_seed: 3
                    """
                            .formatted(kafka.bootstrapServers(), INPUT));
            DpclustConfig cfg = ConfigLoader.load(config);
            StreamSpec spec = cfg.streams().get(0);
            TopicAdmin.ensureTopics(cfg.kafka(), 1);
            SplittableRandom rng = new SplittableRandom(7); // public randomness (no privacy noise)
            try (TelemetryProducer p = new TelemetryProducer(kafka.bootstrapServers(), INPUT)) {
                for (int i = 0; i < 600; i++) {
                    p.send(
                            "fleet",
                            "dev-" + (i % 30),
                            T0.toEpochMilli() + i * 400L,
                            new double[] {100 * rng.nextDouble(), 100 * rng.nextDouble()});
                }
                p.flush();
            }
            BatchParams params = LedgerTestRuns.statsParams(spec, 3, 1.0);
            PrivacyLedger.Interval interval =
                    new PrivacyLedger.Interval(T0.toEpochMilli(), T1.toEpochMilli());
            int runs = 3;
            CyclicBarrier go = new CyclicBarrier(runs);
            ExecutorService pool = Executors.newFixedThreadPool(runs);
            List<Future<String>> keys = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                keys.add(
                        pool.submit(LedgerTestRuns.statsBatchRun(cfg, spec, params, interval, go)));
            }
            Set<String> runKeys = new HashSet<>();
            for (Future<String> f : keys) {
                runKeys.add(f.get(10, TimeUnit.MINUTES));
            }
            pool.shutdown();
            assertEquals(runs, runKeys.size(), "each run charges under its own key");

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
            assertEquals(runs, decisions.size(), "one decision per run: " + decisions);
            Set<String> decided = new HashSet<>();
            double charged = 0;
            int refused = 0;
            for (BudgetStatus b : decisions) {
                decided.add(b.getChargeKey());
                if (b.getKind() == BudgetEventKind.CHARGE) {
                    charged += b.getEpsilon();
                    assertTrue(b.getSpent() <= spec.cap() + 1e-12, "spent " + b.getSpent());
                } else {
                    refused++;
                }
            }
            assertEquals(runKeys, decided);
            assertTrue(charged <= spec.cap(), "charged " + charged + " > cap " + spec.cap());
            assertEquals(2.0, charged, 1e-12);
            assertEquals(1, refused, "the refusal is published");
            List<CentroidRelease> releases =
                    LedgerTestRuns.read(
                            kafka.bootstrapServers(),
                            cfg.kafka().centroidsTopic(),
                            AvroCodec.centroids());
            assertEquals(2, releases.size(), "a release per charge, none for the refused run");
        }
    }
}
