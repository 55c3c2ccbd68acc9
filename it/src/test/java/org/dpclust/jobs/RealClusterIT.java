package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;
import org.dpclust.ledger.KafkaLedgerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The deployed topology with real processes: a Kafka broker JVM, a standalone Flink cluster
 * (JobManager and TaskManager JVMs, RocksDB state backend) and target/dpclust-job.jar submitted
 * with {@code flink run -d}. The job runs unbounded on the broker's log append-time clock
 * (docs/event-time.md) with {@code release_clock: records}, so that the test decides when windows
 * close: data is written in real time, each 2 s window's records at that window's start, and a
 * "tick" record per stream written later moves the watermark past the last data windows and some
 * empty ones (the job's own release clock runs in real processes in {@code ComposeServicesIT}).
 *
 * <p>First an undisturbed live run. Then a live run on fresh topics whose TaskManager process is
 * killed (SIGKILL) while windows 2.. are open, after checkpoints, and a new TaskManager started;
 * its releases must be byte-identical, per stream and window and with no duplicates for a {@code
 * read_committed} consumer, to those of an undisturbed job replaying the same input topic (append
 * times are in the log, so a replay sees the same clock).
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterIT {
    private static final long W = 2_000;
    private static final int PER_WINDOW = 2000;

    /** Data windows 0..5; the tick written after window 6 closed releases at least 0..6. */
    private static final int RELEASED_WINDOWS = 7;

    /** A window closes max_lateness (3 s) + the lag (1 s) after its end on the append clock. */
    private static final long CLOSE_DELAY = 4_000;

    /** Start of a run's schedule and data: the window boundary after next. */
    private static long nextStart() {
        return Math.floorDiv(System.currentTimeMillis(), W) * W + 2 * W;
    }

    private static final String SECRET =
            "8f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0";

    private static RealCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = new RealCluster();
        cluster.startKafka();
        cluster.startFlink();
        Files.writeString(RealCluster.HOME.resolve("secret.hex"), SECRET + "\n");
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Path config(String name, long start) throws IOException {
        return config(name, name, start);
    }

    /** A live configuration writing to topics {@code name.*} and reading {@code input.in}. */
    private static Path config(String name, String input, long start) throws IOException {
        return config(name, name, input, start, 1, "");
    }

    /**
     * The live configuration in file {@code file.yaml}, writing to topics {@code name.*} and
     * reading {@code input.in}, at the given parallelism, with {@code aExtra} added to stream a's
     * entry (e.g. {@code ", salt_buckets: 4"}).
     */
    private static Path config(
            String file, String name, String input, long start, int parallelism, String aExtra)
            throws IOException {
        Path path = RealCluster.HOME.resolve(file + ".yaml");
        Files.writeString(
                path,
                """
                kafka:
                  bootstrap_servers: "unused:9092"
                  topics: {input: %2$s.in, centroids: %1$s.centroids, sketches: %1$s.sketches, budget: %1$s.budget, dlq: %1$s.dlq}
                  group_id: %1$s
                  transactional_id_prefix: %1$s
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                job:
                  checkpoint_interval: PT1S
                  max_out_of_orderness: PT1S
                  release_clock: records
                  idle_timeout: PT5S
                  bounded_input: false
                  parallelism: %4$d
                  max_lateness: PT3S
                  max_future: PT3S
                  start: "%3$s"
                streams:
                  - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT2S, epsilon_per_release: 1.0,
                     budget_cap: 1000, public_seed: 1%5$s}
                  - {id: b, dimension: 3, lower: [-1, -1, -1], upper: [1, 1, 1], k: 2, window: PT2S,
                     epsilon_per_release: 1.0, budget_cap: 1000, public_seed: 2}
                """
                        .formatted(name, input, Instant.ofEpochMilli(start), parallelism, aExtra));
        return path;
    }

    /** The configuration as the job sees it with {@code --bootstrap-servers}. */
    private static DpclustConfig load(Path file) {
        DpclustConfig c = ConfigLoader.load(file);
        return c.withKafka(c.kafka().withBootstrapServers(cluster.bootstrapServers()));
    }

    /**
     * Windows [from, from + n) of the scenario in real time: window w's records at the wall-clock
     * start of window w, so each record's event time is within a window of its append time.
     */
    private static void writeLive(DpclustConfig c, long start, int from, int n)
            throws InterruptedException {
        try (TelemetryProducer p =
                new TelemetryProducer(cluster.bootstrapServers(), c.kafka().inputTopic())) {
            for (int w = from; w < from + n; w++) {
                sleepUntil(start + w * W);
                new SyntheticTelemetry(c.streams(), start + w * W, 1, PER_WINDOW, 0, 50, 7 + w)
                        .write(p);
            }
        }
    }

    /** One record per stream with event time now: its append time moves the clock. */
    private static void writeTicks(DpclustConfig c) {
        try (TelemetryProducer p =
                new TelemetryProducer(cluster.bootstrapServers(), c.kafka().inputTopic())) {
            long t = System.currentTimeMillis();
            p.send("a", "tick", t, new double[] {0.5, 0.5});
            p.send("b", "tick", t, new double[] {0, 0, 0});
            p.flush();
        }
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private static void createInputTopic(DpclustConfig c) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(
                            List.of(
                                    new NewTopic(c.kafka().inputTopic(), 1, (short) 1)
                                            .configs(
                                                    Map.of(
                                                            "message.timestamp.type",
                                                            "LogAppendTime"))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static String submit(Path config) throws Exception {
        return submit(List.of(), config);
    }

    /** Submits the job jar with Flink run options (e.g. {@code -s SAVEPOINT}). */
    private static String submit(List<String> runOptions, Path config) throws Exception {
        return cluster.submit(
                runOptions,
                RealCluster.TARGET.resolve("dpclust-job.jar"),
                List.of(
                        "--config",
                        config.toString(),
                        "--secret-file",
                        RealCluster.HOME.resolve("secret.hex").toString(),
                        "--create-topics",
                        "--budget-partitions",
                        "3",
                        "--bootstrap-servers",
                        cluster.bootstrapServers()));
    }

    private static Set<String> expected(long start, int windows) {
        Set<String> keys = new TreeSet<>();
        for (String s : List.of("a", "b")) {
            for (int w = 0; w < windows; w++) {
                keys.add(key(s, start + w * W));
            }
        }
        return keys;
    }

    private static String key(String stream, long windowStart) {
        return stream + "@" + Instant.ofEpochMilli(windowStart);
    }

    /**
     * Follows the centroids topic as a {@code read_committed} consumer until every key in {@code
     * want} was released; fails on a duplicate (stream, window) and at the timeout.
     */
    private static Map<String, byte[]> awaitReleases(
            DpclustConfig c, Set<String> want, Duration timeout) throws Exception {
        RealCluster.await(
                "topic " + c.kafka().centroidsTopic(),
                Duration.ofSeconds(60),
                () -> topicExists(c));
        Map<String, byte[]> seen = new TreeMap<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (TopicReader r =
                new TopicReader(cluster.bootstrapServers(), c.kafka().centroidsTopic())) {
            while (!seen.keySet().containsAll(want)) {
                assertTrue(
                        System.nanoTime() < deadline,
                        "timed out after "
                                + timeout
                                + "; released "
                                + seen.keySet()
                                + ", waiting for "
                                + want
                                + " (logs: "
                                + RealCluster.HOME
                                + ")");
                r.poll(Duration.ofMillis(500), rec -> add(seen, rec));
            }
        }
        return seen;
    }

    private static boolean topicExists(DpclustConfig c) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            return admin.listTopics()
                    .names()
                    .get(10, TimeUnit.SECONDS)
                    .contains(c.kafka().centroidsTopic());
        } catch (Exception e) {
            return false;
        }
    }

    private static void add(Map<String, byte[]> seen, ConsumerRecord<byte[], byte[]> rec) {
        try {
            CentroidRelease r = AvroCodec.centroids().decode(rec.value());
            String k = key(r.getStreamId(), r.getWindowStart().toEpochMilli());
            assertTrue(
                    seen.put(k, rec.value()) == null,
                    "no duplicates for a read_committed consumer: " + k);
            assertEquals("dp", r.getGuarantee());
        } catch (IOException e) {
            throw new AssertionError("undecodable release at offset " + rec.offset(), e);
        }
    }

    /**
     * Everything committed on the centroids topic, read from the beginning by a fresh
     * read_committed consumer.
     */
    private static Map<String, byte[]> committedReleases(DpclustConfig c) {
        Map<String, byte[]> all = new TreeMap<>();
        try (TopicReader r =
                new TopicReader(cluster.bootstrapServers(), c.kafka().centroidsTopic())) {
            r.readToEnd(Duration.ofSeconds(60)).forEach(rec -> add(all, rec));
        }
        return all;
    }

    /**
     * Cancels the job after a failure; a failure to cancel is attached to the original one, never
     * replaces it.
     */
    private static void cancelAfter(String job, Throwable failure) {
        try {
            cluster.cancel(job);
        } catch (Exception | Error e) {
            failure.addSuppressed(e);
        }
    }

    private static int completedCheckpoints(String jobId) {
        JsonNode cp = cluster.rest("/jobs/" + jobId + "/checkpoints");
        return cp == null ? 0 : cp.path("counts").path("completed").asInt();
    }

    @Test
    @Order(1)
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void anUnboundedJobSubmittedWithFlinkRunReleasesEveryWindowOnce() throws Exception {
        long start = nextStart();
        Path file = config("calm", start);
        DpclustConfig c = load(file);
        createInputTopic(c);
        writeLive(c, start, 0, 6);
        sleepUntil(start + RELEASED_WINDOWS * W + CLOSE_DELAY);
        writeTicks(c);
        String job = submit(file);
        Map<String, byte[]> released;
        try {
            JsonNode checkpointConfig = cluster.rest("/jobs/" + job + "/checkpoints/config");
            assertNotNull(checkpointConfig, "checkpoint configuration of job " + job);
            assertEquals("exactly_once", checkpointConfig.path("mode").asText());
            assertTrue(
                    checkpointConfig.path("state_backend").asText().contains("RocksDB"),
                    "state backend: " + checkpointConfig.path("state_backend"));
            awaitReleases(c, expected(start, RELEASED_WINDOWS), Duration.ofSeconds(90));
        } catch (Exception | Error e) {
            cancelAfter(job, e);
            throw e;
        }
        cluster.cancel(job);
        released = committedReleases(c); // fails on a duplicate
        assertTrue(
                released.keySet().containsAll(expected(start, RELEASED_WINDOWS)),
                "2 streams x windows 0..6 from the configured start, each once: "
                        + released.keySet());
        // --budget-partitions 3: every stream's ledger on its own partition of the budget topic
        Map<String, Set<Integer>> partitions = new TreeMap<>();
        try (TopicReader r = new TopicReader(cluster.bootstrapServers(), c.kafka().budgetTopic())) {
            for (ConsumerRecord<byte[], byte[]> rec : r.readToEnd(Duration.ofSeconds(60))) {
                String stream = AvroCodec.budget().decode(rec.value()).getStreamId();
                partitions.computeIfAbsent(stream, x -> new TreeSet<>()).add(rec.partition());
            }
        }
        assertEquals(
                Map.of(
                        "a", Set.of(KafkaLedgerClient.partitionFor("a", 3)),
                        "b", Set.of(KafkaLedgerClient.partitionFor("b", 3))),
                partitions);
    }

    @Test
    @Order(2)
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void killingTheTaskManagerMidRunChangesNoReleasedByte() throws Exception {
        long start = nextStart();
        Path file = config("storm", start);
        DpclustConfig c = load(file);
        createInputTopic(c);
        // windows 0..4 in real time: the clock then stands at window 4's append time, which has
        // closed windows 0 and 1 (close = end + 3 s + 1 s lag) and no later one; nothing else is
        // appended until the TaskManager is back, so windows 2.. stay open across the kill
        writeLive(c, start, 0, 5);
        String job = submit(file);
        Map<String, byte[]> disturbed;
        try {
            awaitReleases(c, expected(start, 2), Duration.ofSeconds(60));
            int checkpointsBefore = completedCheckpoints(job);
            assertTrue(checkpointsBefore >= 1, "a checkpoint completed before the kill");
            cluster.killTaskManager();
            Map<String, byte[]> atKill = committedReleases(c);
            assertFalse(
                    atKill.containsKey(key("a", start + 3 * W))
                            || atKill.containsKey(key("b", start + 3 * W)),
                    "window 3 was still open when the TaskManager was killed");
            System.out.printf(
                    "RealClusterIT: TaskManager killed with windows 2.. open; REST reported >= %d"
                            + " completed checkpoints; %d releases committed%n",
                    checkpointsBefore, atKill.size());
            cluster.startTaskManager();
            writeTicks(c); // appended now, long after window 4: closes it and empty ones after
            awaitReleases(c, expected(start, 5), Duration.ofSeconds(120));
            JsonNode restored =
                    cluster.rest("/jobs/" + job + "/checkpoints").path("latest").path("restored");
            assertTrue(restored.has("id"), "the job was restored from a checkpoint: " + restored);
            System.out.printf(
                    "RealClusterIT: restored from checkpoint %s%n", restored.path("id").asText());
            Thread.sleep(5_000); // the clock stands still: nothing more may be released
        } catch (Exception | Error e) {
            cancelAfter(job, e);
            throw e;
        }
        cluster.cancel(job);
        disturbed = committedReleases(c);

        // the reference: an undisturbed job replaying the same input topic
        assertSameAsReplay("replay", "storm", start, disturbed);
        System.out.printf(
                "RealClusterIT: %d releases byte-identical to the undisturbed replay%n",
                disturbed.size());
    }

    /**
     * Runs an undisturbed job on topics {@code name.*} replaying input topic {@code input.in} and
     * checks that the disturbed run's releases are the same (stream, window)s, each byte-identical;
     * returns the replay's configuration.
     */
    private static DpclustConfig assertSameAsReplay(
            String name, String input, long start, Map<String, byte[]> disturbed) throws Exception {
        Path replayFile = config(name, input, start);
        DpclustConfig replay = load(replayFile);
        String replayJob = submit(replayFile);
        try {
            awaitReleases(replay, disturbed.keySet(), Duration.ofSeconds(90));
            Thread.sleep(5_000);
        } catch (Exception | Error e) {
            cancelAfter(replayJob, e);
            throw e;
        }
        cluster.cancel(replayJob);
        Map<String, byte[]> undisturbed = committedReleases(replay);
        assertEquals(
                undisturbed.keySet(),
                disturbed.keySet(),
                "the same (stream, window) releases, each once");
        for (String k : undisturbed.keySet()) {
            assertArrayEquals(
                    undisturbed.get(k), disturbed.get(k), "release " + k + " is byte-identical");
        }
        return replay;
    }

    /** The budget topic's records, every field but the topic's own id, sorted. */
    /**
     * The budget topic's decisions, sorted, and each stream's latest marker: how many intermediate
     * markers there are depends on how the job's decisions were grouped into commits (one marker
     * per stream per checkpoint), which a restart changes; the decisions and the final high-water
     * marks must not change.
     */
    private static List<String> ledger(DpclustConfig c) throws IOException {
        List<String> l = new ArrayList<>();
        Map<String, String> lastMarker = new java.util.TreeMap<>();
        try (TopicReader r = new TopicReader(cluster.bootstrapServers(), c.kafka().budgetTopic())) {
            for (ConsumerRecord<byte[], byte[]> rec : r.readToEnd(Duration.ofSeconds(60))) {
                BudgetStatus b = AvroCodec.budget().decode(rec.value());
                b.setTopicId("");
                if (b.getKind() == org.dpclust.avro.BudgetEventKind.MARKER) {
                    lastMarker.put(b.getStreamId(), b.toString());
                } else {
                    l.add(b.toString());
                }
            }
        }
        Collections.sort(l);
        l.addAll(lastMarker.values());
        return l;
    }

    @Test
    @Order(3)
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void restartingTheBrokerMidRunChangesNoReleasedByteNorCharge() throws Exception {
        long start = nextStart();
        Path file = config("quake", start);
        DpclustConfig c = load(file);
        createInputTopic(c);
        // as in the TaskManager test: windows 0 and 1 close, windows 2.. stay open across the
        // broker's restart (nothing is appended while it is down)
        writeLive(c, start, 0, 5);
        String job = submit(file);
        Map<String, byte[]> disturbed;
        try {
            awaitReleases(c, expected(start, 2), Duration.ofSeconds(60));
            int checkpointsBefore = completedCheckpoints(job);
            assertTrue(checkpointsBefore >= 1, "a checkpoint completed before the restart");
            long stopped = System.nanoTime();
            cluster.stopKafka();
            Thread.sleep(5_000); // the job's clients find the broker gone
            cluster.restartKafka();
            System.out.printf(
                    "RealClusterIT: broker stopped with windows 2.. open (>= %d checkpoints) and"
                            + " serving again on the same data directory after %.1f s%n",
                    checkpointsBefore, (System.nanoTime() - stopped) / 1e9);
            Map<String, byte[]> atRestart = committedReleases(c);
            assertFalse(
                    atRestart.containsKey(key("a", start + 3 * W))
                            || atRestart.containsKey(key("b", start + 3 * W)),
                    "window 3 was still open across the restart");
            writeTicks(c);
            awaitReleases(c, expected(start, 5), Duration.ofSeconds(180));
            Thread.sleep(5_000); // the clock stands still: nothing more may be released
        } catch (Exception | Error e) {
            cancelAfter(job, e);
            throw e;
        }
        cluster.cancel(job);
        disturbed = committedReleases(c); // fails on a duplicate
        List<String> disturbedLedger = ledger(c);

        DpclustConfig replay = assertSameAsReplay("quake-replay", "quake", start, disturbed);
        List<String> undisturbedLedger = ledger(replay);
        assertEquals(undisturbedLedger, disturbedLedger, "the same budget records");
        long charges = disturbedLedger.stream().filter(l -> l.contains("\"CHARGE\"")).count();
        assertEquals(disturbed.size(), charges, "one charge per release");
        System.out.printf(
                "RealClusterIT: %d releases byte-identical to the undisturbed replay, %d budget"
                        + " records (%d charges) equal to its%n",
                disturbed.size(), disturbedLedger.size(), charges);
    }

    /**
     * Restores {@code savepoint} under a changed public parameter of stream a (stats.cells): the
     * job must fail without restarts, naming the saved and the configured parameters, and release
     * nothing.
     */
    private static void assertRefusedFrom(String savepoint, long start, String salted)
            throws Exception {
        Path file =
                config(
                        "scale-changed",
                        "scale",
                        "scale",
                        start,
                        1,
                        salted + ", stats: {cells: 97}");
        String job = submit(List.of("-s", savepoint), file);
        RealCluster.await(
                "the job restored under a changed configuration to fail",
                Duration.ofSeconds(90),
                () -> "FAILED".equals(cluster.rest("/jobs/" + job).path("state").asText()));
        String exceptions = cluster.rest("/jobs/" + job + "/exceptions").toString();
        assertTrue(
                exceptions.contains("stream 'a': its public parameters changed since its state"),
                exceptions);
        assertTrue(exceptions.contains("stats.cells=97"), "names the configured value");
        int at = exceptions.indexOf("stream 'a': its public parameters");
        System.out.printf(
                "RealClusterIT: refused: %s%n",
                exceptions.substring(at, Math.min(exceptions.length(), at + 400)));
    }

    /** The highest parallelism of the job's operators, from the REST API. */
    private static int parallelism(String jobId) {
        int p = 0;
        for (JsonNode v : cluster.rest("/jobs/" + jobId).path("vertices")) {
            p = Math.max(p, v.path("parallelism").asInt());
        }
        return p;
    }

    @Test
    @Order(4)
    @Timeout(value = 420, unit = TimeUnit.SECONDS)
    void rescalingThroughSavepointsChangesNoReleasedByteNorCharge() throws Exception {
        long start = nextStart();
        String salted = ", salt_buckets: 4"; // stream a salted, stream b not
        Path p1 = config("scale", "scale", "scale", start, 1, salted);
        DpclustConfig c = load(p1);
        createInputTopic(c);
        writeLive(c, start, 0, 5); // windows 0 and 1 close, 2.. stay open across both rescales
        String job = submit(p1);
        String savepoint;
        try {
            awaitReleases(c, expected(start, 2), Duration.ofSeconds(60));
            assertTrue(completedCheckpoints(job) >= 1, "a checkpoint completed at parallelism 1");
            savepoint = cluster.stopWithSavepoint(job);
        } catch (Exception | Error e) {
            cancelAfter(job, e);
            throw e;
        }
        String[] steps = {"scale-p2", "scale-p1"};
        int[] parallelisms = {2, 1};
        for (int i = 0; i < steps.length; i++) {
            if (i == 1) {
                assertRefusedFrom(savepoint, start, salted);
            }
            Path file = config(steps[i], "scale", "scale", start, parallelisms[i], salted);
            job = submit(List.of("-s", savepoint), file);
            String running = job;
            try {
                RealCluster.await(
                        "a checkpoint of the job restored at parallelism " + parallelisms[i],
                        Duration.ofSeconds(90),
                        () -> completedCheckpoints(running) >= 1);
                assertEquals(parallelisms[i], parallelism(job), "the job runs rescaled");
                String restored =
                        cluster.rest("/jobs/" + job + "/checkpoints")
                                .path("latest")
                                .path("restored")
                                .path("external_path")
                                .asText();
                assertTrue(
                        restored.endsWith(savepoint.substring(savepoint.lastIndexOf('/'))),
                        "restored from " + savepoint + ": " + restored);
                System.out.printf(
                        "RealClusterIT: restored %s at parallelism %d%n",
                        savepoint, parallelisms[i]);
                if (i < steps.length - 1) {
                    savepoint = cluster.stopWithSavepoint(job);
                }
            } catch (Exception | Error e) {
                cancelAfter(job, e);
                throw e;
            }
        }
        Map<String, byte[]> disturbed;
        try {
            writeTicks(c);
            awaitReleases(c, expected(start, 5), Duration.ofSeconds(120));
            Thread.sleep(5_000);
        } catch (Exception | Error e) {
            cancelAfter(job, e);
            throw e;
        }
        cluster.cancel(job);
        disturbed = committedReleases(c); // fails on a duplicate
        // the reference replays the same input unsalted at parallelism 1 (salting changes no byte)
        DpclustConfig replay = assertSameAsReplay("scale-replay", "scale", start, disturbed);
        assertEquals(ledger(replay), ledger(c), "the same budget records");
        System.out.printf(
                "RealClusterIT: parallelism 1 -> 2 -> 1 through savepoints (stream a salted into 4"
                        + " buckets): %d releases byte-identical to the undisturbed replay%n",
                disturbed.size());
    }
}
