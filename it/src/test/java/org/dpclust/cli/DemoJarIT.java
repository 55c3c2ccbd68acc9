package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The packaged jars as a user runs them: {@code java -jar target/dpclust.jar demo --windows 5
 * --json} in a fresh JVM (in-process broker, MiniCluster, the shaded services files), checked
 * against the foundation issue's acceptance criteria; and the job jar's contents (Flink provided,
 * connector bundled).
 */
class DemoJarIT {
    private static final Path CLI_JAR = Path.of("target", "dpclust.jar");
    private static final Path JOB_JAR = Path.of("target", "dpclust-job.jar");

    @Test
    void theDemoReleasesFiveWindowsPerStreamCloseToTheTruthAndRejectsExactlyTheMalformedRecords()
            throws Exception {
        assertTrue(Files.exists(CLI_JAR), "run after `mvn package`");
        File stdout = File.createTempFile("demo", ".jsonl");
        File stderr = File.createTempFile("demo", ".err");
        ProcessBuilder demo =
                new ProcessBuilder(
                                javaBin(),
                                "-Xmx1g",
                                "-jar",
                                CLI_JAR.toString(),
                                "demo",
                                "--windows",
                                "5",
                                "--json")
                        .redirectOutput(stdout)
                        .redirectError(stderr);
        demo.environment().put("DPCLUST_LOG_LEVEL", "WARN"); // no release lines in the test log
        Process p = demo.start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the demo exits by itself within 5 minutes");
        String err = Files.readString(stderr.toPath(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), err);
        // progress lines only: no Kafka test-kit output (its bootstrap metadata line is ~700 chars)
        assertFalse(err.contains("BootstrapMetadata") || err.contains("Formatting metadata"), err);
        List<JsonNode> lines = new ArrayList<>();
        ObjectMapper m = new ObjectMapper();
        for (String line : Files.readAllLines(stdout.toPath(), StandardCharsets.UTF_8)) {
            lines.add(m.readTree(line)); // every stdout line is JSON
        }
        JsonNode summary = lines.remove(lines.size() - 1);
        Map<String, Integer> perStream = new HashMap<>();
        for (JsonNode r : lines) {
            String stream = r.get("stream_id").asText();
            int n = perStream.merge(stream, 1, Integer::sum);
            assertEquals("dp", r.get("guarantee").asText());
            assertEquals(1.0, r.get("epsilon").asDouble(), 0.0);
            assertNotNull(r.get("true_centers"));
            if (n > 2) {
                assertTrue(
                        r.get("matched_error").asDouble() < 0.05,
                        stream + " release " + n + " matched error " + r.get("matched_error"));
            }
        }
        assertTrue(perStream.size() >= 2, "at least two streams");
        perStream
                .values()
                .forEach(n -> assertTrue(n >= 5, "at least 5 releases per stream: " + perStream));
        assertEquals(
                summary.get("malformed_injected").asLong(), summary.get("rejected_total").asLong());
        assertTrue(summary.get("malformed_injected").asLong() > 0);
        assertEquals(lines.size(), summary.get("releases").asInt());
    }

    @Test
    void theJobJarBundlesTheConnectorButNotFlink() throws Exception {
        assertTrue(Files.exists(JOB_JAR), "run after `mvn package`");
        try (JarFile jar = new JarFile(JOB_JAR.toFile())) {
            assertEquals(
                    "org.dpclust.launch.StreamCommand",
                    jar.getManifest().getMainAttributes().getValue("Main-Class"));
            assertNotNull(jar.getEntry("org/dpclust/jobs/StreamingJob.class"));
            assertNotNull(
                    jar.getEntry("org/apache/flink/connector/kafka/source/KafkaSource.class"));
            assertNotNull(jar.getEntry("org/apache/avro/Schema.class"));
            assertNull(
                    jar.getEntry(
                            "org/apache/flink/streaming/api/environment/StreamExecutionEnvironment.class"),
                    "Flink itself is provided by the cluster");
            assertNull(jar.getEntry("org/apache/flink/runtime/minicluster/MiniCluster.class"));
            assertNull(
                    jar.getEntry("org/apache/logging/log4j/core/Logger.class"),
                    "logging is the cluster's");
            assertNull(
                    jar.getEntry("org/apache/kafka/common/test/KafkaClusterTestKit.class"),
                    "no broker in the job");
            assertFalse(
                    jar.stream().anyMatch(e -> e.getName().startsWith("org/junit/")),
                    "no test frameworks");
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
