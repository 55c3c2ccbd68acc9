package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpclust local} as a user runs it: {@code java -jar target/dpclust.jar local --with-job
 * --with-dashboard} in its own JVM on free ports, then {@code generate} and {@code consume} as
 * separate processes against its broker until releases of both configured streams arrive; then
 * SIGINT (sent with {@code kill -INT}, as Ctrl-C does). Every process must exit 0, the shutdown
 * must be logged step by step (job stopped with a savepoint, broker stopped) and the broker, Flink
 * and dashboard ports must be free afterwards. Also checks what the person sees on stderr: the
 * resolved configuration and windows, the Flink web UI address, never the secret. Each JVM gets a
 * small heap; every wait is bounded.
 */
class LocalCommandIT {
    private static final Path CLI_JAR = Path.of("target", "dpclust.jar");
    private static final Path LOCAL_CONFIG = Path.of("flink-conf", "dpclust-local.yaml");
    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef";

    @TempDir Path tmp;

    @Test
    void localServesGenerateAndConsumeThenStopsCleanlyOnSigint() throws Exception {
        assertTrue(Files.exists(CLI_JAR), "run after `mvn package`");
        int kafkaPort = freePort();
        int flinkPort = freePort();
        int dashboardPort = freePort();
        int metricsPort = freePort();
        String bootstrap = "127.0.0.1:" + kafkaPort;
        Path dataDir = tmp.resolve("kafka-data");
        File localErr = tmp.resolve("local.err").toFile();
        ProcessBuilder localPb =
                dpclust(
                                "-Xmx384m",
                                "local",
                                "--port",
                                Integer.toString(kafkaPort),
                                "--data-dir",
                                dataDir.toString(),
                                "--config",
                                LOCAL_CONFIG.toString(),
                                "--with-job",
                                "--flink-port",
                                Integer.toString(flinkPort),
                                "--with-dashboard",
                                "--dashboard-port",
                                Integer.toString(dashboardPort),
                                "--metrics-port",
                                Integer.toString(metricsPort))
                        .redirectOutput(tmp.resolve("local.out").toFile())
                        .redirectError(localErr);
        localPb.environment().put("DPCLUST_SECRET", SECRET);
        Process local = localPb.start();
        try {
            awaitLog(local, localErr, "running; in another terminal", Duration.ofMinutes(3));

            Instant generateLaunched = Instant.now();
            Process generate =
                    dpclust(
                                    "-Xmx256m",
                                    "generate",
                                    "--config",
                                    LOCAL_CONFIG.toString(),
                                    "--bootstrap-servers",
                                    bootstrap,
                                    "--realtime",
                                    "--windows",
                                    "4",
                                    "--records-per-window",
                                    "2000",
                                    "--malformed-per-window",
                                    "2")
                            .redirectOutput(tmp.resolve("generate.out").toFile())
                            .redirectError(ProcessBuilder.Redirect.INHERIT)
                            .start();
            // real time: each 10 s window at its wall-clock start, so 30-40 s
            assertTrue(generate.waitFor(2, TimeUnit.MINUTES), "generate exits within 2 minutes");
            assertEquals(0, generate.exitValue(), "generate exit code");
            JsonNode written =
                    new ObjectMapper().readTree(Files.readString(tmp.resolve("generate.out")));
            assertEquals(16_000, written.get("valid").asLong());

            // the schedule started when local started the job; a window closes once the append
            // time watermark passes its end + max_lateness (8 s), i.e. once records of the window
            // after next arrive: the generator's windows 0 and 1 (its first starts at the first
            // boundary after it started) are released, visible at the next checkpoint (every 2 s),
            // after the empty windows before them, which are not counted here
            Map<String, Integer> releases = new TreeMap<>();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!(releases.getOrDefault("sensors-2d", 0) >= 2
                    && releases.getOrDefault("fleet-3d", 0) >= 2)) {
                if (System.nanoTime() > deadline) {
                    fail("releases seen after 3 minutes: " + releases);
                }
                assertTrue(local.isAlive(), "dpclust local is still running");
                releases = consumeReleases(bootstrap, generateLaunched);
                Thread.sleep(1000);
            }

            HttpResponse<String> state =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "http://127.0.0.1:"
                                                                    + dashboardPort
                                                                    + "/api/state"))
                                            .timeout(Duration.ofSeconds(10))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, state.statusCode());

            // --metrics-port: the job's counters, stream ids as configured (sensors-2d, not
            // sensors_2d), the generator's malformed records counted by reason
            String metrics =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "http://127.0.0.1:"
                                                                    + metricsPort
                                                                    + "/metrics"))
                                            .timeout(Duration.ofSeconds(10))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
            assertTrue(
                    metrics.lines()
                            .anyMatch(
                                    l ->
                                            l.startsWith(
                                                            "flink_taskmanager_job_task_operator_dpclust_stream_releases{")
                                                    && l.contains("stream=\"sensors-2d\"")),
                    "releases of sensors-2d on /metrics");
            double rejected =
                    metrics.lines()
                            .filter(
                                    l ->
                                            l.startsWith(
                                                    "flink_taskmanager_job_task_operator_dpclust_rejected_"))
                            .mapToDouble(
                                    l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                            .sum();
            assertTrue(rejected >= 1, "malformed records counted on /metrics: " + rejected);

            Process kill =
                    new ProcessBuilder("kill", "-INT", Long.toString(local.pid()))
                            .inheritIO()
                            .start();
            assertTrue(kill.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, kill.exitValue());
            assertTrue(local.waitFor(2, TimeUnit.MINUTES), "dpclust local stops within 2 minutes");
            assertEquals(0, local.exitValue(), "dpclust local exit code after SIGINT");
        } finally {
            if (local.isAlive()) {
                local.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }

        String log = Files.readString(localErr.toPath(), StandardCharsets.UTF_8);
        for (String expected :
                List.of(
                        "stream sensors-2d: d=2",
                        "stream fleet-3d: d=3",
                        "tumbling event-time windows of PT10S",
                        "topics: input telemetry.v1",
                        "privacy secret: DPCLUST_SECRET",
                        "release schedule starts at job.start",
                        "Web frontend listening at http://127.0.0.1:" + flinkPort,
                        "dashboard: http://127.0.0.1:" + dashboardPort,
                        "metrics: http://127.0.0.1:" + metricsPort + "/metrics",
                        "stopping (SIGINT received)",
                        "streaming job stopped with a savepoint",
                        "Flink MiniCluster stopped",
                        "dashboard stopped",
                        "Kafka broker stopped",
                        "stopped cleanly")) {
            assertTrue(log.contains(expected), "local's log lacks '" + expected + "':\n" + log);
        }
        assertFalse(log.contains(SECRET), "the secret is never logged");
        // a stack trace's frames or causes (a client's WARN naming a retried error is not one)
        assertFalse(
                java.util.regex.Pattern.compile("(?m)^\\s+at [\\w.$]+\\(|^Caused by: ")
                        .matcher(log)
                        .find(),
                "no stack traces:\n" + log);
        for (int port : new int[] {kafkaPort, flinkPort, dashboardPort, metricsPort}) {
            assertTrue(isFree(port), "port " + port + " is free after dpclust local exited");
        }
        assertTrue(
                Files.exists(dataDir.resolve("dpclust-cluster.id")),
                "the broker's data stays in --data-dir");
    }

    /**
     * Stand-alone {@code stream} (a MiniCluster in its own JVM) stopped with SIGTERM: it stops the
     * job with a savepoint and exits 0, leaving no Kafka transaction open (the dead-letter topic's
     * last stable offset equals its high watermark at once, not after the transaction timeout).
     */
    @Test
    void aStandAloneStreamStopsCleanlyOnSigterm() throws Exception {
        assertTrue(Files.exists(CLI_JAR), "run after `mvn package`");
        int metricsPort = freePort();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            File err = tmp.resolve("stream-term.err").toFile();
            ProcessBuilder pb =
                    dpclust(
                                    "-Xmx384m",
                                    "stream",
                                    "--config",
                                    LOCAL_CONFIG.toString(),
                                    "--bootstrap-servers",
                                    kafka.bootstrapServers(),
                                    "--create-topics",
                                    "--start",
                                    Instant.now().toString(),
                                    "--metrics-port",
                                    Integer.toString(metricsPort))
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .redirectError(err);
            pb.environment().put("DPCLUST_SECRET", SECRET);
            // the operator's input report every 2 s instead of every minute
            pb.environment().put("JAVA_TOOL_OPTIONS", "-Ddpclust.input.report.seconds=2");
            Process stream = pb.start();
            try {
                awaitLog(stream, err, "SIGTERM or Ctrl-C stops it cleanly", Duration.ofMinutes(2));
                // undecodable records, one every 100 ms: the sink writes dead letters in every
                // checkpoint's transaction, so one is open when SIGTERM arrives
                DpclustConfig c0 = ConfigLoader.load(LOCAL_CONFIG);
                java.util.Properties pp = new java.util.Properties();
                pp.put("bootstrap.servers", kafka.bootstrapServers());
                pp.put(
                        "key.serializer",
                        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
                pp.put(
                        "value.serializer",
                        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
                try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> garbage =
                        new org.apache.kafka.clients.producer.KafkaProducer<>(pp)) {
                    for (int i = 0; i < 50; i++) {
                        garbage.send(
                                new org.apache.kafka.clients.producer.ProducerRecord<>(
                                        c0.kafka().inputTopic(), new byte[] {1, 2, 3}));
                        garbage.flush();
                        Thread.sleep(100);
                    }
                }
                // --metrics-port: the rejections on /metrics of the stand-alone job
                double undecodable = 0;
                for (int i = 0; i < 60 && undecodable == 0; i++) {
                    undecodable = metric(metricsPort, "dpclust_rejected_undecodable");
                    if (undecodable == 0) {
                        Thread.sleep(500);
                    }
                }
                assertTrue(undecodable >= 1, "undecodable records counted on /metrics");
                Process term =
                        new ProcessBuilder("kill", "-TERM", Long.toString(stream.pid()))
                                .inheritIO()
                                .start();
                assertTrue(term.waitFor(30, TimeUnit.SECONDS));
                assertTrue(stream.waitFor(2, TimeUnit.MINUTES), "stream stops within 2 minutes");
                assertEquals(0, stream.exitValue(), "exit code after SIGTERM");
            } finally {
                if (stream.isAlive()) {
                    stream.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
            String log = Files.readString(err.toPath(), StandardCharsets.UTF_8);
            for (String expected :
                    List.of(
                            "metrics: http://127.0.0.1:" + metricsPort + "/metrics",
                            "stopping (SIGTERM received)",
                            "streaming job stopped with a savepoint",
                            "stopped cleanly",
                            // what an operator sees when everything is rejected
                            "WARN  RecordValidator: stream (undecodable): ",
                            "mostly undecodable: not dpclust TelemetryRecords")) {
                assertTrue(
                        log.contains(expected), "stream's log lacks '" + expected + "':\n" + log);
            }
            DpclustConfig c = ConfigLoader.load(LOCAL_CONFIG);
            java.util.Properties p = new java.util.Properties();
            p.put("bootstrap.servers", kafka.bootstrapServers());
            try (org.apache.kafka.clients.admin.Admin admin =
                    org.apache.kafka.clients.admin.Admin.create(p)) {
                org.apache.kafka.common.TopicPartition tp =
                        new org.apache.kafka.common.TopicPartition(c.kafka().dlqTopic(), 0);
                long stable =
                        endOffset(admin, tp, org.apache.kafka.common.IsolationLevel.READ_COMMITTED);
                long high =
                        endOffset(
                                admin, tp, org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED);
                assertTrue(high > 0, "the job wrote dead letters");
                assertEquals(high, stable, "no transaction left open on the dead-letter topic");
            }
        }
    }

    /**
     * A lost broker is not silent: a stand-alone {@code stream} and {@code consume --follow} each
     * say within 20 s that Kafka does not answer (one line naming the servers).
     */
    @Test
    void aLostBrokerIsReportedByStreamAndConsume() throws Exception {
        assertTrue(Files.exists(CLI_JAR), "run after `mvn package`");
        File streamErr = tmp.resolve("stream-lost.err").toFile();
        File consumeErr = tmp.resolve("consume-lost.err").toFile();
        Process stream = null;
        Process consume = null;
        try {
            String servers;
            try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
                servers = kafka.bootstrapServers();
                ProcessBuilder pb =
                        dpclust(
                                        "-Xmx384m",
                                        "stream",
                                        "--config",
                                        LOCAL_CONFIG.toString(),
                                        "--bootstrap-servers",
                                        servers,
                                        "--create-topics",
                                        "--start",
                                        Instant.now().toString())
                                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                                .redirectError(streamErr);
                pb.environment().put("DPCLUST_SECRET", SECRET);
                stream = pb.start();
                awaitLog(
                        stream,
                        streamErr,
                        "SIGTERM or Ctrl-C stops it cleanly",
                        Duration.ofMinutes(2));
                consume =
                        dpclust("-Xmx128m", "consume", "--bootstrap-servers", servers, "--follow")
                                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                                .redirectError(consumeErr)
                                .start();
                Thread.sleep(3_000);
            } // the broker stops here
            awaitLog(
                    stream,
                    streamErr,
                    "no answer from Kafka at " + servers,
                    Duration.ofSeconds(20));
            awaitLog(
                    consume,
                    consumeErr,
                    "consume: no answer from Kafka at " + servers,
                    Duration.ofSeconds(20));
        } finally {
            for (Process p : new Process[] {stream, consume}) {
                if (p != null && p.isAlive()) {
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** The sum of the samples of Prometheus metric names containing {@code name}, 0 if none. */
    private static double metric(int port, String name) {
        try {
            String text =
                    java.net.http.HttpClient.newHttpClient()
                            .send(
                                    java.net.http.HttpRequest.newBuilder(
                                                    java.net.URI.create(
                                                            "http://127.0.0.1:"
                                                                    + port
                                                                    + "/metrics"))
                                            .build(),
                                    java.net.http.HttpResponse.BodyHandlers.ofString())
                            .body();
            return text.lines()
                    .filter(l -> !l.startsWith("#") && l.contains(name))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                    .sum();
        } catch (IOException e) {
            return 0; // not serving yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    @Test
    void anUnresolvableBrokerFailsWithOneLineNamingTheHost() throws Exception {
        assertTrue(Files.exists(CLI_JAR), "run after `mvn package`");
        File err = tmp.resolve("stream.err").toFile();
        ProcessBuilder pb =
                dpclust(
                                "-Xmx256m",
                                "stream",
                                "--config",
                                LOCAL_CONFIG.toString(),
                                "--bootstrap-servers",
                                "no-such-broker.invalid:9092",
                                "--start",
                                "2026-12-01T00:00:00Z")
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(err);
        pb.environment().put("DPCLUST_SECRET", SECRET);
        Process stream = pb.start();
        assertTrue(stream.waitFor(1, TimeUnit.MINUTES));
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(err.toPath(), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        assertEquals(1, lines.size(), "one line: " + lines);
        assertTrue(
                lines.get(0).contains("'no-such-broker.invalid' does not resolve"), lines.get(0));
        assertEquals(2, stream.exitValue());
    }

    /**
     * Runs {@code consume} (to the end, not following) and counts releases per stream of windows
     * starting at or after {@code since}.
     */
    private Map<String, Integer> consumeReleases(String bootstrap, Instant since) throws Exception {
        File out = tmp.resolve("consume.out").toFile();
        Process consume =
                dpclust("-Xmx256m", "consume", "--bootstrap-servers", bootstrap)
                        .redirectOutput(out)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
        assertTrue(consume.waitFor(2, TimeUnit.MINUTES), "consume exits within 2 minutes");
        assertEquals(0, consume.exitValue(), "consume exit code");
        Map<String, Integer> perStream = new TreeMap<>();
        ObjectMapper m = new ObjectMapper();
        for (String line : Files.readAllLines(out.toPath(), StandardCharsets.UTF_8)) {
            JsonNode r = m.readTree(line);
            assertEquals("dp", r.get("guarantee").asText());
            if (!Instant.parse(r.get("window_start").asText()).isBefore(since)) {
                perStream.merge(r.get("stream_id").asText(), 1, Integer::sum);
            }
        }
        return perStream;
    }

    private static long endOffset(
            org.apache.kafka.clients.admin.Admin admin,
            org.apache.kafka.common.TopicPartition tp,
            org.apache.kafka.common.IsolationLevel level)
            throws Exception {
        return admin.listOffsets(
                        Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest()),
                        new org.apache.kafka.clients.admin.ListOffsetsOptions(level))
                .partitionResult(tp)
                .get(30, TimeUnit.SECONDS)
                .offset();
    }

    private static void awaitLog(Process p, File log, String line, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.readString(log.toPath(), StandardCharsets.UTF_8).contains(line)) {
            if (!p.isAlive()) {
                fail(
                        "dpclust local exited with "
                                + p.exitValue()
                                + ":\n"
                                + Files.readString(log.toPath()));
            }
            if (System.nanoTime() > deadline) {
                fail("no '" + line + "' after " + timeout + ":\n" + Files.readString(log.toPath()));
            }
            Thread.sleep(500);
        }
    }

    private static ProcessBuilder dpclust(String heap, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add(heap);
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-jar");
        cmd.add(CLI_JAR.toString());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
