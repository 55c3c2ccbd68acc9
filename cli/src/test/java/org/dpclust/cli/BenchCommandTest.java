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
import org.dpclust.bench.BenchEnvironment;
import org.junit.jupiter.api.Test;

/** {@code dpclust bench sketch --quick}: runs and prints the documented keys. */
class BenchCommandTest {
    static String run(String... args) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, DpclustCommand.commandLine().execute(args));
        } finally {
            System.setOut(stdout);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }

    static List<JsonNode> jsonRows(String out) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                rows.add(new ObjectMapper().readTree(line));
            }
        }
        return rows;
    }

    /**
     * The keys of a per-record row measured against its bound, and a positive finite
     * fraction_of_bound.
     */
    static void assertBoundRow(JsonNode r, String benchmark) {
        assertEquals(benchmark, r.get("benchmark").asText(), r.toString());
        for (String key :
                List.of(
                        "benchmark",
                        "ns_per_record",
                        "records_per_second",
                        "bound_ns_per_record",
                        "fraction_of_bound",
                        "cores",
                        "jvm")) {
            assertTrue(r.has(key), "row without " + key + ": " + r);
        }
        assertTrue(r.get("ns_per_record").asDouble() > 0, r.toString());
        double fraction = r.get("fraction_of_bound").asDouble();
        // a ratio of two timings taken in the same run: positive and finite; its size is the
        // benchmark's result,
        // not something a quick run on a shared machine can assert
        assertTrue(
                fraction > 0 && Double.isFinite(fraction),
                "fraction_of_bound " + fraction + ": " + r);
    }

    @Test
    void quickSketchBenchPrintsJsonRowsWithTheKeys() throws Exception {
        List<JsonNode> rows = jsonRows(run("bench", "sketch", "--quick", "--json"));
        assertEquals(10, rows.size(), rows.toString());
        List<String> names =
                List.of(
                        "sketch-update",
                        "sketch-update",
                        "sketch-update",
                        "sketch-update-batch",
                        "sketch-update-batch",
                        "sketch-update-batch",
                        "sketch-update-block",
                        "sketch-update-block");
        List<Integer> rs = List.of(1000, 100, 10, 1000, 100, 10, 100, 10); // block: r < m
        for (int i = 0; i < names.size(); i++) {
            assertBoundRow(rows.get(i), names.get(i));
            assertEquals(rs.get(i), rows.get(i).get("r").asInt(), rows.get(i).toString());
        }
        JsonNode decode = rows.get(8);
        assertEquals("clompr-decode", decode.get("benchmark").asText());
        assertTrue(decode.get("decode_seconds").asDouble() > 0, decode.toString());
        assertTrue(decode.has("cores") && decode.has("jvm"), decode.toString());
        JsonNode warm = rows.get(9);
        assertEquals("clompr-decode-warm", warm.get("benchmark").asText());
        for (String key :
                List.of(
                        "decode_seconds",
                        "cold_decode_seconds",
                        "speedup",
                        "warm_relative_residual",
                        "cold_relative_residual")) {
            assertTrue(warm.get(key).asDouble() > 0, key + ": " + warm);
        }
    }

    @Test
    void withoutJsonPrintsAMarkdownTable() {
        String out = run("bench", "sketch", "--quick");
        assertTrue(out.startsWith("| benchmark | r |"), out);
        assertTrue(
                out.contains("ns_per_record")
                        && out.contains("decode_seconds")
                        && out.contains("sketch-update"),
                out);
    }

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
            assertEquals(BenchEnvironment.jvm(), r.get("jvm").asText());
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
