package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.dpclust.devkit.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "against a Kafka broker of your own" block, run as written by bash from the
 * repository root against a real broker: the only changes are the broker's address (this test's
 * in-process KRaft broker instead of localhost:9092) and two lines appended to stop the background
 * {@code stream} with SIGTERM and wait for it. Whatever the date, {@code consume} prints releases
 * of both streams, and the stream stops cleanly (exit 0).
 */
class ReadmeOwnBrokerIT {
    @TempDir Path tmp;

    @Test
    void theReadmesOwnBrokerBlockReleasesOnAnyDate() throws Exception {
        assertTrue(Files.exists(Path.of("target", "dpclust.jar")), "run after `mvn package`");
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        int at = readme.indexOf("Against a Kafka broker of your own");
        assertTrue(at >= 0, "the README's own-broker section");
        int open = readme.indexOf("```\n", at) + 4;
        String block = readme.substring(open, readme.indexOf("```", open));
        assertTrue(block.contains("localhost:9092"), block);
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String script =
                    "set -e\n"
                            + block.replace("localhost:9092", kafka.bootstrapServers())
                            + "kill -TERM %1\nwait %1\n";
            Path sh = Files.writeString(tmp.resolve("readme.sh"), script);
            File out = tmp.resolve("out.txt").toFile();
            File err = tmp.resolve("err.txt").toFile();
            Process p =
                    new ProcessBuilder("bash", sh.toString())
                            .redirectOutput(out)
                            .redirectError(err)
                            .start();
            boolean ended = p.waitFor(5, TimeUnit.MINUTES);
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            String stderr = Files.readString(err.toPath(), StandardCharsets.UTF_8);
            assertTrue(ended, "the block ran within 5 minutes:\n" + stderr);
            assertEquals(0, p.exitValue(), "every command and the stream's clean stop:\n" + stderr);
            Map<String, Integer> releases = new TreeMap<>();
            ObjectMapper json = new ObjectMapper();
            for (String line : Files.readAllLines(out.toPath(), StandardCharsets.UTF_8)) {
                if (!line.startsWith("{")) {
                    continue;
                }
                JsonNode r = json.readTree(line);
                if (r.has("stream_id") && r.has("window_start")) {
                    assertEquals("dp", r.get("guarantee").asText());
                    releases.merge(r.get("stream_id").asText(), 1, Integer::sum);
                }
            }
            assertTrue(
                    releases.getOrDefault("sensors-2d", 0) >= 1
                            && releases.getOrDefault("fleet-3d", 0) >= 1,
                    "releases of both streams printed by consume: " + releases + "\n" + stderr);
            assertTrue(stderr.contains("stopped cleanly"), stderr);
        }
    }
}
