package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpclust.devkit.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands a user chains: generate → stream (bounded replay) → consume, on a real in-process
 * broker.
 */
class CliIT {
    @TempDir Path dir;

    private static String run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            int rc = DpclustCommand.commandLine().execute(args);
            assertEquals(0, rc, "dpclust " + String.join(" ", args));
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(240)
    void generateStreamAndConsume() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            Path config = dir.resolve("dpclust.yaml");
            Files.writeString(config, CliRun.demoConfig(kafka.bootstrapServers()));
            Path secret = CliRun.secretFile(dir);

            JsonNode generated =
                    new ObjectMapper()
                            .readTree(
                                    run(
                                            "generate",
                                            "--config",
                                            config.toString(),
                                            "--windows",
                                            "3",
                                            "--records-per-window",
                                            "2000",
                                            "--malformed-per-window",
                                            "4"));
            assertEquals(3 * 2 * 2004, generated.get("records").asLong());

            run(CliRun.stream(config, secret));

            List<JsonNode> releases = new ArrayList<>();
            for (String line :
                    run("consume", "--bootstrap-servers", kafka.bootstrapServers()).split("\n")) {
                if (!line.isBlank()) {
                    releases.add(new ObjectMapper().readTree(line));
                }
            }
            assertEquals(
                    6,
                    releases.size(),
                    "3 windows x 2 streams: "
                            + releases.stream()
                                    .map(
                                            r ->
                                                    r.get("stream_id").asText()
                                                            + "@"
                                                            + r.get("window_start").asText())
                                    .toList());
            assertTrue(releases.stream().allMatch(r -> r.get("guarantee").asText().equals("dp")));
            List<String> dead =
                    List.of(
                            run(
                                            "consume",
                                            "--bootstrap-servers",
                                            kafka.bootstrapServers(),
                                            "--kind",
                                            "dead_letters")
                                    .split("\n"));
            assertEquals(24, dead.stream().filter(l -> !l.isBlank()).count());
            List<String> budget =
                    List.of(
                            run(
                                            "consume",
                                            "--bootstrap-servers",
                                            kafka.bootstrapServers(),
                                            "--kind",
                                            "budget")
                                    .split("\n"));
            assertEquals(6, budget.stream().filter(l -> l.contains("\"CHARGE\"")).count());
        }
    }

    @Test
    void invalidConfigurationFailsAtStartUpNamingTheOption() throws Exception {
        Path config = dir.resolve("bad.yaml");
        Files.writeString(
                config,
                "streams:\n  - {id: s, dimension: 2, lower: [0, 0], upper: [1, 1], k: 2,"
                        + " window: PT10S, epsilon_per_release: 0, budget_cap: 1}\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        var cl = DpclustCommand.commandLine();
        cl.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        assertEquals(2, cl.execute("stream", "--config", config.toString()));
        assertTrue(
                err.toString(StandardCharsets.UTF_8).contains("streams[0].epsilon_per_release"),
                err.toString());
    }
}
