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
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.generator.SyntheticTelemetry;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.TelemetryProducer;
import org.dpclust.io.TopicReader;
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
 * with {@code flink run -d}. The job runs unbounded; a "tick" record per stream two windows after
 * the data moves the watermark past the last data window and the empty one after it.
 *
 * <p>First an undisturbed run; then the same input on fresh topics under another transactional-id
 * prefix, with the TaskManager process killed (SIGKILL) while window 3 is open, after checkpoints,
 * and a new TaskManager started. Its releases must be byte-identical, per stream and window, with
 * no duplicates for a {@code read_committed} consumer.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterIT {
    private static final long START = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final long W = 10_000;
    private static final int PER_WINDOW = 2000;

    /**
     * Data windows 0..5; the tick in window 7 closes windows 0..6 (6 is released from empty
     * summaries).
     */
    private static final int RELEASED_WINDOWS = 7;

    private static final String SECRET =
            "8f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0";

    private static RealCluster cluster;
    private static Map<String, byte[]> undisturbed;

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

    private static Path config(String name) throws IOException {
        Path file = RealCluster.HOME.resolve(name + ".yaml");
        Files.writeString(
                file,
                """
                kafka:
                  bootstrap_servers: "unused:9092"
                  topics: {input: %1$s.in, centroids: %1$s.centroids, sketches: %1$s.sketches, budget: %1$s.budget, dlq: %1$s.dlq}
                  group_id: %1$s
                  transactional_id_prefix: %1$s
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                job:
                  checkpoint_interval: PT1S
                  max_out_of_orderness: PT1S
                  idle_timeout: PT5S
                  bounded_input: false
                  parallelism: 1
                streams:
                  - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT10S, epsilon_per_release: 1.0,
                     budget_cap: 100, public_seed: 1}
                  - {id: b, dimension: 3, lower: [-1, -1, -1], upper: [1, 1, 1], k: 2, window: PT10S,
                     epsilon_per_release: 1.0, budget_cap: 100, public_seed: 2}
                """
                        .formatted(name));
        return file;
    }

    /** The configuration as the job sees it with {@code --bootstrap-servers}. */
    private static DpclustConfig load(Path file) {
        DpclustConfig c = ConfigLoader.load(file);
        return c.withKafka(c.kafka().withBootstrapServers(cluster.bootstrapServers()));
    }

    /** Windows [from, from + n) of the scenario, the same bytes in every run. */
    private static void write(DpclustConfig c, int from, int n) {
        try (TelemetryProducer p =
                new TelemetryProducer(cluster.bootstrapServers(), c.kafka().inputTopic())) {
            new SyntheticTelemetry(c.streams(), START + from * W, n, PER_WINDOW, 0, 50, 7).write(p);
        }
    }

    private static void writeTicks(DpclustConfig c) {
        try (TelemetryProducer p =
                new TelemetryProducer(cluster.bootstrapServers(), c.kafka().inputTopic())) {
            long t = START + RELEASED_WINDOWS * W + 5_000;
            p.send("a", "tick", t, new double[] {0.5, 0.5});
            p.send("b", "tick", t, new double[] {0, 0, 0});
            p.flush();
        }
    }

    private static void createInputTopic(DpclustConfig c) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(c.kafka().inputTopic(), 1, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static String submit(Path config) throws Exception {
        return cluster.submit(
                RealCluster.TARGET.resolve("dpclust-job.jar"),
                List.of(
                        "--config",
                        config.toString(),
                        "--secret-file",
                        RealCluster.HOME.resolve("secret.hex").toString(),
                        "--create-topics",
                        "--bootstrap-servers",
                        cluster.bootstrapServers()));
    }

    private static Set<String> expected(int windows) {
        Set<String> keys = new TreeSet<>();
        for (String s : List.of("a", "b")) {
            for (int w = 0; w < windows; w++) {
                keys.add(key(s, START + w * W));
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
        Path file = config("calm");
        DpclustConfig c = load(file);
        createInputTopic(c);
        write(c, 0, 3);
        write(c, 3, 1);
        write(c, 4, 2);
        writeTicks(c);
        String job = submit(file);
        try {
            JsonNode checkpointConfig = cluster.rest("/jobs/" + job + "/checkpoints/config");
            assertNotNull(checkpointConfig, "checkpoint configuration of job " + job);
            assertEquals("exactly_once", checkpointConfig.path("mode").asText());
            assertTrue(
                    checkpointConfig.path("state_backend").asText().contains("RocksDB"),
                    "state backend: " + checkpointConfig.path("state_backend"));
            awaitReleases(c, expected(RELEASED_WINDOWS), Duration.ofSeconds(90));
        } catch (Exception | Error e) {
            cancelAfter(job, e);
            throw e;
        }
        cluster.cancel(job);
        undisturbed = committedReleases(c);
        assertEquals(
                expected(RELEASED_WINDOWS),
                undisturbed.keySet(),
                "2 streams x 7 windows, each once");
    }

    @Test
    @Order(2)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void killingTheTaskManagerMidWindowChangesNoReleasedByte() throws Exception {
        assertNotNull(undisturbed, "the undisturbed run (test 1) must have passed first");
        Path file = config("storm");
        DpclustConfig c = load(file);
        createInputTopic(c);
        write(c, 0, 3);
        String job = submit(file);
        try {
            // windows 0 and 1 released and committed: at least one checkpoint has completed with
            // them
            awaitReleases(c, expected(2), Duration.ofSeconds(60));
            int checkpointsBefore = completedCheckpoints(job);
            assertTrue(checkpointsBefore >= 1, "a checkpoint completed before the kill");
            write(c, 3, 1);
            // window 2 closes only once records of window 3 were read: the watermark is now inside
            // window 3,
            // which holds records and cannot close (nothing later has been written)
            awaitReleases(c, expected(3), Duration.ofSeconds(60));
            int checkpointsAtKill = completedCheckpoints(job);
            cluster.killTaskManager();
            Map<String, byte[]> atKill = committedReleases(c);
            assertFalse(
                    atKill.containsKey(key("a", START + 3 * W))
                            || atKill.containsKey(key("b", START + 3 * W)),
                    "window 3 was still open when the TaskManager was killed");
            // the REST statistics are cached for a few seconds: the counts are lower bounds
            System.out.printf(
                    "RealClusterIT: TaskManager killed mid-window 3; REST reported >= %d completed checkpoints "
                            + "(>= %d before window 3 was written); %d releases committed%n",
                    checkpointsAtKill, checkpointsBefore, atKill.size());

            cluster.startTaskManager();
            write(c, 4, 2);
            writeTicks(c);
            awaitReleases(c, expected(RELEASED_WINDOWS), Duration.ofSeconds(120));
            JsonNode restored =
                    cluster.rest("/jobs/" + job + "/checkpoints").path("latest").path("restored");
            assertTrue(restored.has("id"), "the job was restored from a checkpoint: " + restored);
            System.out.printf(
                    "RealClusterIT: restored from checkpoint %s%n", restored.path("id").asText());
        } catch (Exception | Error e) {
            cancelAfter(job, e);
            throw e;
        }
        cluster.cancel(job);
        Map<String, byte[]> disturbed = committedReleases(c);
        assertEquals(
                undisturbed.keySet(),
                disturbed.keySet(),
                "the same (stream, window) releases, each once");
        for (String k : undisturbed.keySet()) {
            assertArrayEquals(
                    undisturbed.get(k), disturbed.get(k), "release " + k + " is byte-identical");
        }
        System.out.printf(
                "RealClusterIT: %d releases byte-identical to the undisturbed run%n",
                disturbed.size());
    }
}
