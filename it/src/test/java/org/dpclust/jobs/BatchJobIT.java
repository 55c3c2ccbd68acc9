package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.cli.CliRun;
import org.dpclust.cli.DpclustCommand;
import org.dpclust.cli.StrictBatchCommandTest;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.kafka.TopicReader;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code dpclust batch --algorithm stats} ({@link org.dpclust.jobs.BatchJob}) over a bounded topic
 * on a real in-process KRaft broker, in a Flink MiniCluster (BATCH mode): exactly one committed
 * release, the CHARGE on the budget topic, and a second run beyond the cap refused (REFUSED status,
 * no release).
 */
class BatchJobIT {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant T1 = T0.plus(Duration.ofMinutes(10));
    private static final double[][] CENTERS = {{20, 20}, {50, 80}, {80, 30}};
    private static final String INPUT = "telemetry-batch-it";

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(LocalCluster.config())
                            .build());

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    private static String yaml() {
        return """
                kafka:
                  bootstrap_servers: %s
                  transactional_id_prefix: batch-it
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
                    budget_cap: 1.5
                    budget_period: P1D
                    privacy_unit: record
                    summaries: [stats]
                    public_seed: 3
                """
                .formatted(kafka.bootstrapServers(), INPUT);
    }

    /**
     * The configuration of {@link #yaml()} for another test: its own input topic, transactional
     * prefix, stream id, cap and output topics ({@code PREFIX.centroids}, {@code PREFIX.budget}).
     */
    private static String yaml(String input, String prefix, String streamId, String cap) {
        return yaml().replace("input: " + INPUT, "input: " + input)
                .replace(
                        "transactional_id_prefix: batch-it",
                        "transactional_id_prefix: batch-it-" + prefix)
                .replace("id: fleet", "id: " + streamId)
                .replace("budget_cap: 1.5", "budget_cap: " + cap)
                .replace(
                        "topics:",
                        "topics:\n    centroids: "
                                + prefix
                                + ".centroids\n    budget: "
                                + prefix
                                + ".budget");
    }

    private record Run(int exit, String out, String err) {}

    private static Run batch(Path config, Path secret, double epsilon) {
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int exit =
                    cl.execute(
                            "batch",
                            "--algorithm",
                            "stats",
                            "--input",
                            "kafka:" + INPUT,
                            "--config",
                            config.toString(),
                            "--stream",
                            "fleet",
                            "--from",
                            T0.toString(),
                            "--to",
                            T1.toString(),
                            "--epsilon",
                            Double.toString(epsilon),
                            "--output",
                            "kafka",
                            "--secret-file",
                            secret.toString(),
                            "--json");
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(stdout);
        }
    }

    @Test
    void statsBatchReleasesOnceChargesTheLedgerAndIsRefusedBeyondTheCap(@TempDir Path dir)
            throws Exception {
        Path config = dir.resolve("dpclust.yaml");
        Files.writeString(config, yaml());
        Path secret = dir.resolve("secret.hex");
        Files.writeString(secret, "8f1e2d3c4b5a69788796a5b4c3d2e1f0");
        DpclustConfig cfg = ConfigLoader.load(config);
        TopicAdmin.ensureTopics(cfg.kafka(), 1);
        SplittableRandom rng = new SplittableRandom(42); // public randomness (not privacy noise)
        try (TelemetryProducer p = new TelemetryProducer(kafka.bootstrapServers(), INPUT)) {
            for (int i = 0; i < 3000; i++) {
                double[] c = CENTERS[i % 3];
                p.send(
                        "fleet",
                        "dev-" + (i % 50),
                        T0.toEpochMilli() + i * 150L,
                        new double[] {
                            c[0] + 2 * rng.nextGaussian(), c[1] + 2 * rng.nextGaussian()
                        });
            }
            for (int i = 0; i < 200; i++) { // outside the public interval: dropped, not released
                p.send("fleet", "dev-late", T1.toEpochMilli() + i, new double[] {95, 95});
            }
            p.flush();
        }

        Run first = batch(config, secret, 1.0);
        assertEquals(0, first.exit(), first.err());
        assertTrue(first.out().contains("\"status\":\"charged\""), first.out());

        AvroCodec<CentroidRelease> releases = AvroCodec.centroids();
        List<CentroidRelease> published = readAll(cfg.kafka().centroidsTopic(), releases);
        assertEquals(1, published.size(), "exactly one committed release");
        CentroidRelease r = published.get(0);
        assertEquals("batch", r.getMode());
        assertEquals("dp", r.getGuarantee());
        assertEquals("stats", r.getAlgorithm());
        assertEquals(1.0, r.getEpsilon());
        assertEquals(1.0, r.getSpent(), 1e-12);
        assertEquals(T0, r.getWindowStart());
        assertEquals(T1, r.getWindowEnd());
        assertEquals(10, r.getWindowsCovered());
        double[][] centroids =
                r.getCentroids().stream()
                        .map(c -> c.stream().mapToDouble(Double::doubleValue).toArray())
                        .toArray(double[][]::new);
        assertTrue(
                ClusteringMetrics.meanMatchedDistance(CENTERS, centroids) < 5,
                "released centroids far from the true centres: " + r.getCentroids());

        List<BudgetStatus> statuses = decisions(cfg.kafka().budgetTopic());
        assertEquals(1, statuses.size());
        BudgetStatus charge = statuses.get(0);
        assertEquals(1, charge.getSeq());
        assertTrue(charge.getChargeKey().startsWith("fleet|batch|stats|"), charge.getChargeKey());
        assertEquals(BudgetEventKind.CHARGE, charge.getKind());
        assertEquals("batch", charge.getSource());
        assertEquals(1.0, charge.getEpsilon());
        assertEquals(1.0, charge.getSpent(), 1e-12);
        assertEquals(T0, charge.getWindowStart());

        Run second = batch(config, secret, 1.0); // 1.0 + 1.0 > cap 1.5
        assertEquals(3, second.exit(), second.err());
        assertTrue(second.out().contains("\"status\":\"refused\""), second.out());
        assertEquals(
                1,
                readAll(cfg.kafka().centroidsTopic(), releases).size(),
                "a refused run released something");
        List<BudgetStatus> after = decisions(cfg.kafka().budgetTopic());
        assertEquals(2, after.size());
        BudgetStatus refused = after.get(1);
        assertEquals(2, refused.getSeq());
        assertFalse(
                refused.getChargeKey().equals(charge.getChargeKey()),
                "each run charges under its own key");
        assertEquals(BudgetEventKind.REFUSED, refused.getKind());
        assertEquals("batch", refused.getSource());
        assertEquals(1.0, refused.getEpsilon());
        assertEquals(1.0, refused.getSpent(), 1e-12, "a refusal reports the spend before it");
    }

    /**
     * A k-median algorithm over a public universe on a bounded Kafka topic: one committed dp
     * release, charged.
     */
    @Test
    void dpHstLocalSearchOnAKafkaTopicSnapsRecordsToThePublicUniverse(@TempDir Path dir)
            throws Exception {
        String input = "batch-it-kmedian.in";
        Path config = dir.resolve("dpclust.yaml");
        Files.writeString(config, yaml(input, "kmedian", "depot", "10"));
        Path secret = dir.resolve("secret.hex");
        Files.writeString(secret, "8f1e2d3c4b5a69788796a5b4c3d2e1f0");
        Path universe = dir.resolve("universe.csv");
        StringBuilder u = new StringBuilder("x1,x2\n");
        SplittableRandom pub = new SplittableRandom(9); // public randomness (not privacy noise)
        for (int i = 0; i < 300; i++) {
            u.append(100 * pub.nextDouble())
                    .append(',')
                    .append(100 * pub.nextDouble())
                    .append('\n');
        }
        Files.writeString(universe, u.toString());
        DpclustConfig cfg = ConfigLoader.load(config);
        TopicAdmin.ensureTopics(cfg.kafka(), 1);
        SplittableRandom rng = new SplittableRandom(43); // public randomness (not privacy noise)
        try (TelemetryProducer p = new TelemetryProducer(kafka.bootstrapServers(), input)) {
            for (int i = 0; i < 1500; i++) {
                double[] c = CENTERS[i % 3];
                p.send(
                        "depot",
                        "dev-" + (i % 50),
                        T0.toEpochMilli() + i * 300L,
                        new double[] {
                            c[0] + 2 * rng.nextGaussian(), c[1] + 2 * rng.nextGaussian()
                        });
            }
        }
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        int exit =
                cl.execute(
                        "batch",
                        "--algorithm",
                        "dp-hst-local-search",
                        "--input",
                        "kafka:" + input,
                        "--config",
                        config.toString(),
                        "--stream",
                        "depot",
                        "--universe",
                        universe.toString(),
                        "--metric",
                        "l2",
                        "--from",
                        T0.toString(),
                        "--to",
                        T1.toString(),
                        "--epsilon",
                        "1.0",
                        "--output",
                        "kafka",
                        "--secret-file",
                        secret.toString());
        assertEquals(0, exit, err.toString());
        List<CentroidRelease> published =
                readAll(cfg.kafka().centroidsTopic(), AvroCodec.centroids());
        assertEquals(1, published.size());
        CentroidRelease r = published.get(0);
        assertEquals("dp-hst-local-search", r.getAlgorithm());
        assertEquals("dp", r.getGuarantee());
        assertEquals(3, r.getK());
        List<String> rows = List.of(u.toString().split("\n")).subList(1, 301);
        for (List<Double> c : r.getCentroids()) {
            double nearest = Double.POSITIVE_INFINITY;
            for (String row : rows) {
                String[] xy = row.split(",");
                nearest =
                        Math.min(
                                nearest,
                                Math.hypot(
                                        c.get(0) - Double.parseDouble(xy[0]),
                                        c.get(1) - Double.parseDouble(xy[1])));
            }
            assertTrue(
                    nearest < 1e-4,
                    "a centre is a point of the public universe: " + c + " (" + nearest + ")");
        }
        List<BudgetStatus> statuses = decisions(cfg.kafka().budgetTopic());
        assertEquals(1, statuses.size());
        assertEquals(BudgetEventKind.CHARGE, statuses.get(0).getKind());
        assertEquals("dp-hst-local-search", statuses.get(0).getAlgorithm());
    }

    /**
     * No data-dependent failure after a charge, through Kafka: every strict algorithm ({@code
     * --mode strict}) on a public interval holding 0, 1 or k − 1 records (in rotation, each size
     * for several algorithms) exits 0 and publishes its {@code dp} release and its CHARGE.
     */
    @Test
    void everyStrictAlgorithmReleasesAndChargesOnZeroOneAndKMinusOneRecords(@TempDir Path dir)
            throws Exception {
        String input = "batch-it-degenerate.in";
        Path config = dir.resolve("dpclust.yaml");
        Files.writeString(config, yaml(input, "degenerate", "sparse", "100"));
        Path secret = dir.resolve("secret.hex");
        Files.writeString(secret, "8f1e2d3c4b5a69788796a5b4c3d2e1f0");
        Path universe = StrictBatchCommandTest.universe(dir);
        DpclustConfig cfg = ConfigLoader.load(config);
        TopicAdmin.ensureTopics(cfg.kafka(), 1);
        List<String> algorithms = StrictBatchCommandTest.strictAlgorithms();
        int[] sizes = {0, 1, 2}; // k = 3
        Duration slot = Duration.ofMinutes(10);
        try (TelemetryProducer p = new TelemetryProducer(kafka.bootstrapServers(), input)) {
            for (int a = 0; a < algorithms.size(); a++) {
                long start = T0.plus(slot.multipliedBy(a)).toEpochMilli();
                for (int i = 0; i < sizes[a % sizes.length]; i++) {
                    p.send("sparse", "dev-" + i, start + 1000L * i, new double[] {30 + 40 * i, 70});
                }
            }
            p.flush();
        }
        for (int a = 0; a < algorithms.size(); a++) {
            String name = algorithms.get(a);
            Instant from = T0.plus(slot.multipliedBy(a));
            List<String> args =
                    StrictBatchCommandTest.strictArgs(name, "kafka:" + input, secret, universe);
            args.addAll(
                    List.of(
                            "--config",
                            config.toString(),
                            "--stream",
                            "sparse",
                            "--from",
                            from.toString(),
                            "--to",
                            from.plus(slot).toString(),
                            "--output",
                            "kafka"));
            CliRun run = CliRun.of(args.toArray(new String[0]));
            String what = name + " on " + sizes[a % sizes.length] + " records";
            assertEquals(0, run.exit(), what + ": " + run.err());
        }
        List<CentroidRelease> published =
                readAll(cfg.kafka().centroidsTopic(), AvroCodec.centroids());
        List<BudgetStatus> statuses = decisions(cfg.kafka().budgetTopic());
        assertEquals(algorithms.size(), published.size(), "one release per run");
        assertEquals(algorithms.size(), statuses.size(), "one budget status per run");
        for (int a = 0; a < algorithms.size(); a++) {
            String name = algorithms.get(a);
            Instant from = T0.plus(slot.multipliedBy(a));
            CentroidRelease r = published.get(a);
            assertEquals(name, r.getAlgorithm());
            assertEquals("dp", r.getGuarantee());
            assertEquals(from, r.getWindowStart());
            assertEquals(3, r.getCentroids().size(), name);
            BudgetStatus charge = statuses.get(a);
            assertEquals(BudgetEventKind.CHARGE, charge.getKind(), name);
            assertEquals(name, charge.getAlgorithm());
            assertEquals(from, charge.getWindowStart());
            assertEquals(1.0, charge.getEpsilon());
        }
    }

    /** The CHARGE and REFUSED statuses of the budget topic (its ledger markers left out). */
    private static List<BudgetStatus> decisions(String topic) throws Exception {
        return readAll(topic, AvroCodec.budget()).stream()
                .filter(b -> b.getKind() != BudgetEventKind.MARKER)
                .toList();
    }

    private static <T extends org.apache.avro.specific.SpecificRecordBase> List<T> readAll(
            String topic, AvroCodec<T> codec) throws Exception {
        List<T> out = new ArrayList<>();
        try (TopicReader reader = new TopicReader(kafka.bootstrapServers(), topic)) {
            for (ConsumerRecord<byte[], byte[]> rec : reader.readToEnd(Duration.ofSeconds(30))) {
                out.add(codec.decode(rec.value()));
            }
        }
        return out;
    }
}
