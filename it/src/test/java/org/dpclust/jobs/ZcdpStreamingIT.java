package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.privacy.Zcdp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A device-unit stream under {@code accounting: zcdp} end to end (in-process Kafka broker, Flink
 * MiniCluster): 48 one-second windows in one one-minute budget period, c = 5, cap (ε, δ) = (10,
 * 10⁻⁹) and ρ per release a 40th of the period's ρ cap. The job releases the first 40 windows with
 * discrete Gaussian noise, each release carrying its ρ, the (ε, δ) it implies and the period's ρ
 * spent, and the fenced ledger refuses the last 8; every BudgetStatus states ρ and its (ε, δ). The
 * stream publishes its noisy cells too ({@code stats.publish_cells}), one CellsRelease per release,
 * and a running release over its last 8 windows ({@code running}) next to each window release.
 */
class ZcdpStreamingIT {
    private static final long PERIOD = 60_000;
    private static final long W = 1_000;

    /** A period-aligned start about ten minutes ago (the data are within max_lateness). */
    private static final long START = Math.floorDiv(StreamingRuns.START, PERIOD) * PERIOD;

    private static final int WINDOWS = 48;
    private static final int RELEASABLE = 40;
    private static final double DELTA = 1e-9;
    private static final double RHO_CAP = Zcdp.rhoCap(10, DELTA);
    private static final double RHO = RHO_CAP * (1 - 1e-9) / RELEASABLE;

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(1)
                            .setConfiguration(StreamingRuns.clusterConfig())
                            .build());

    private static EmbeddedKafka kafka;
    private static StreamingRuns runs;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
        runs = new StreamingRuns(kafka);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    /**
     * The job's configuration: topics and ids prefixed {@code t}, {@code windows} one-second
     * windows from START, and the one stream {@code stream} (its YAML list item, to which the
     * shared 2-d, k = 3, one-second-window, one-minute-period options are added).
     */
    private static DpclustConfig config(String t, int windows, String stream) {
        return ConfigLoader.parse(
                """
                kafka:
                  bootstrap_servers: "%s"
                  topics: {input: %2$s.in, centroids: %2$s.centroids, sketches: %2$s.sketches, cells: %2$s.cells, running: %2$s.running, budget: %2$s.budget, dlq: %2$s.dlq}
                  group_id: %2$s
                  transactional_id_prefix: %2$s
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                job: {checkpoint_interval: PT0.3S, max_out_of_orderness: PT1S, idle_timeout: PT2S,
                      bounded_input: true, parallelism: 1, max_lateness: PT1H, start: "%3$s", end: "%4$s"}
                streams:
                """
                                .formatted(
                                        kafka.bootstrapServers(),
                                        t,
                                        Instant.ofEpochMilli(START),
                                        Instant.ofEpochMilli(START + windows * W))
                        + stream.replaceFirst(
                                "\n",
                                "\n    dimension: 2\n    lower: [0, 0]\n    upper: [1, 1]\n    k: 3\n"
                                        + "    window: PT1S\n    budget_period: PT1M\n"));
    }

    @Test
    void releasesUntilTheRhoCapAndRefusesAfterWithRhoAndEpsilonDeltaOnEveryStatus()
            throws Exception {
        DpclustConfig c =
                config(
                        "z",
                        WINDOWS,
                        """
                          - id: z
                            privacy_unit: device
                            device_contribution_bound: 5
                            accounting: zcdp
                            budget_cap: 10
                            budget_delta: 1.0e-9
                            rho_per_release: %s
                            public_seed: 3
                            stats: {cells: 32, publish_cells: true}
                            running: {windows: 8}
                        """
                                .formatted(Double.toString(RHO)));
        TopicAdmin.ensureTopics(c.kafka(), 1);
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            // 300 records a window over 40 devices: 7 or 8 each, bounded to c = 5 by the job
            new SyntheticTelemetry(c.streams(), START, WINDOWS, 300, 0, 40, 11).write(p);
        }
        runs.runBounded(c, new RawRecordDeserializer(), "none");

        double epsilon = Zcdp.epsilon(RHO, DELTA);
        List<CentroidRelease> rel = runs.releases(c);
        assertEquals(RELEASABLE, rel.size(), "the first 40 windows are released");
        for (CentroidRelease r : rel) {
            int window = (int) ((r.getWindowStart().toEpochMilli() - START) / W);
            assertTrue(window < RELEASABLE, "window " + window);
            assertEquals(2, r.getSchemaVersion());
            assertEquals("zcdp", r.getAccounting());
            assertEquals(RHO, r.getRho(), 0.0);
            assertEquals(DELTA, r.getDelta(), 0.0);
            assertEquals(epsilon, r.getEpsilon(), 0.0);
            assertEquals((window + 1) * RHO, r.getRhoSpent(), 1e-12 * RHO_CAP);
            assertEquals(RHO_CAP, r.getRhoCap(), 0.0);
            assertEquals(10.0, r.getCap(), 0.0);
            assertTrue(r.getSpent() <= 10.0, "spent (epsilon at delta) within the cap");
            double rhoCount = r.getMechanismParams().get("rho_count");
            assertEquals(
                    5 / Math.sqrt(2 * rhoCount),
                    r.getMechanismParams().get("count_noise_sd"),
                    1e-6 * r.getMechanismParams().get("count_noise_sd"),
                    "count noise calibrated to c = 5 and the release's rho");
            assertEquals(RHO, rhoCount + r.getMechanismParams().get("rho_sum"), 1e-15);
        }

        List<org.dpclust.avro.CellsRelease> cells = new java.util.ArrayList<>();
        for (var r : runs.committed(c.kafka().cellsTopic())) {
            cells.add(org.dpclust.io.AvroCodec.cells().decode(r.value()));
        }
        assertEquals(RELEASABLE, cells.size(), "the noisy cells of every stats release");
        for (org.dpclust.avro.CellsRelease x : cells) {
            assertEquals("zcdp", x.getAccounting());
            assertEquals(RHO, x.getRho(), 0.0);
            assertEquals(32, x.getNoisyCounts().size());
        }

        assertRunningReleases(c, rel);

        List<BudgetStatus> statuses =
                runs.budget(c).stream().filter(b -> b.getKind() != BudgetEventKind.MARKER).toList();
        List<BudgetStatus> charges =
                statuses.stream().filter(b -> b.getKind() == BudgetEventKind.CHARGE).toList();
        List<BudgetStatus> refused =
                statuses.stream().filter(b -> b.getKind() == BudgetEventKind.REFUSED).toList();
        assertEquals(RELEASABLE, charges.size());
        assertEquals(WINDOWS - RELEASABLE, refused.size(), "every window after the cap");
        for (BudgetStatus b : statuses) {
            assertEquals("zcdp", b.getAccounting());
            assertEquals(DELTA, b.getDelta(), 0.0);
            assertEquals(RHO, b.getRho(), 0.0);
            assertEquals(RHO_CAP, b.getRhoCap(), 0.0);
            assertEquals(10.0, b.getCap(), 0.0);
            assertEquals(Zcdp.epsilon(b.getRhoSpent(), DELTA), b.getSpent(), 1e-12);
        }
        for (BudgetStatus b : refused) {
            assertTrue(
                    b.getWindowStart().toEpochMilli() >= START + RELEASABLE * W,
                    "refused after the cap");
            assertEquals(RELEASABLE * RHO, b.getRhoSpent(), 1e-12 * RHO_CAP);
            assertTrue(b.getSpent() <= 10.0 && b.getSpent() > 9.9, "spent " + b.getSpent());
        }
    }

    /**
     * A record-unit stream with {@code running.mode: tree}: every window is charged its {@code
     * stats} ρ and ρ_tree ({@code stats-tree}) on the budget topic, and publishes a tree running
     * release over the period so far that states ρ_tree.
     */
    @Test
    void aRecordUnitStreamPublishesTreeRunningReleasesChargedRhoTree() throws Exception {
        int windows = 12;
        DpclustConfig c =
                config(
                        "t",
                        windows,
                        """
                          - id: t
                            accounting: zcdp
                            budget_cap: 10
                            budget_delta: 1.0e-9
                            public_seed: 3
                            stats: {cells: 32}
                            running: {mode: tree}
                        """);
        TopicAdmin.ensureTopics(c.kafka(), 1);
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            new SyntheticTelemetry(c.streams(), START, windows, 300, 0, 40, 12).write(p);
        }
        runs.runBounded(c, new RawRecordDeserializer(), "none");

        double rhoTree = RHO_CAP * (1 - 1e-9) / 2; // stats and the tree split the cap
        assertEquals(rhoTree, c.streams().get(0).rhoPerRelease(), 1e-15 * RHO_CAP);
        assertEquals(windows, runs.releases(c).size());
        List<CentroidRelease> running = new java.util.ArrayList<>();
        for (var r : runs.committed(c.kafka().runningTopic())) {
            running.add(org.dpclust.io.AvroCodec.centroids().decode(r.value()));
        }
        assertEquals(windows, running.size(), "a tree running release per window");
        for (int i = 0; i < windows; i++) {
            CentroidRelease r = running.get(i);
            assertEquals("running", r.getMode());
            assertEquals(START, r.getWindowStart().toEpochMilli(), "the period so far");
            assertEquals(START + (i + 1) * W, r.getWindowEnd().toEpochMilli());
            assertEquals(i + 1, r.getWindowsCovered());
            assertEquals(c.streams().get(0).rhoPerRelease(), r.getRho(), 0.0, "charged");
            assertEquals(
                    (double) Integer.bitCount(i + 1), r.getMechanismParams().get("tree_nodes"));
        }
        List<BudgetStatus> charges =
                runs.budget(c).stream().filter(b -> b.getKind() == BudgetEventKind.CHARGE).toList();
        assertEquals(2 * windows, charges.size(), "stats and stats-tree per window");
        assertEquals(
                windows,
                charges.stream().filter(b -> "stats-tree".equals(b.getAlgorithm())).count());
        for (BudgetStatus b : charges) {
            assertTrue(b.getRhoSpent() <= RHO_CAP, "record units: within the cap per window");
        }
    }

    /**
     * One running release per accepted window on the running topic, over the last 8 windows,
     * spending nothing (ρ and ε 0), stating the period's ρ spend after the window's charge. (This
     * stream is noise-dominated by design; {@code StreamingJobIT} measures the error of running
     * releases.)
     */
    private static void assertRunningReleases(DpclustConfig c, List<CentroidRelease> windows)
            throws Exception {
        List<CentroidRelease> running = new java.util.ArrayList<>();
        for (var r : runs.committed(c.kafka().runningTopic())) {
            running.add(org.dpclust.io.AvroCodec.centroids().decode(r.value()));
        }
        assertEquals(RELEASABLE, running.size(), "a running release per accepted window");
        for (int i = 0; i < RELEASABLE; i++) {
            CentroidRelease r = running.get(i);
            assertEquals(START + (i + 1) * W, r.getWindowEnd().toEpochMilli(), "window order");
            assertEquals("running", r.getMode());
            assertEquals(Math.min(i + 1, 8), r.getWindowsCovered());
            assertEquals(START + Math.max(0, i - 7) * W, r.getWindowStart().toEpochMilli());
            assertEquals("zcdp", r.getAccounting());
            assertEquals(0.0, r.getRho(), 0.0, "post-processing: no charge");
            assertEquals(0.0, r.getEpsilon(), 0.0);
            assertEquals(windows.get(i).getRhoSpent(), r.getRhoSpent(), 0.0);
        }
    }
}
