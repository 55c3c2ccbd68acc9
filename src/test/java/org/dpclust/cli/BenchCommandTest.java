package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchCommandTest {
    @Test
    void quickKmedianBenchPrintsTimingRowsWithBenchmarkCoresAndJvm() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exit;
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            exit = DpclustCommand.commandLine().execute("bench", "kmedian", "--quick", "--json");
        } finally {
            System.setOut(stdout);
        }
        assertEquals(0, exit);
        List<JsonNode> rows = new ArrayList<>();
        for (String line : buffer.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                rows.add(new ObjectMapper().readTree(line));
            }
        }
        assertEquals(3, rows.size(), "two k values on mnist + one graph row");
        for (JsonNode r : rows) {
            for (String key : List.of("benchmark", "cores", "jvm")) {
                assertTrue(r.has(key), "row without " + key + ": " + r);
            }
            assertEquals(System.getProperty("java.version"), r.get("jvm").asText());
        }
        assertTrue(rows.get(0).get("hst_build_seconds").asDouble() > 0);
        assertTrue(rows.get(0).get("kmedianpp_seconds").asDouble() > 0);
        assertEquals("dp_local_search_iteration", rows.get(2).get("benchmark").asText());
        assertTrue(rows.get(2).get("seconds_per_iteration").asDouble() > 0);
    }

    @Test
    void anUnknownBenchmarkIsAnError() {
        assertEquals(2, DpclustCommand.commandLine().execute("bench", "nope"));
    }
}
