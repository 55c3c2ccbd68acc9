package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpclust evaluate utility --quick --json}: one row per (data set, method, ε) with the
 * documented keys, the data-free answer among the methods at its constant value, and the report
 * with the peer row, the winner and a plot per data set.
 */
class UtilityExperimentTest {
    @Test
    void methodsAreTheDpAlgorithmsWithTheDataFreeAnswerAndNoKMedianSearch() {
        List<String> m = UtilityExperiment.methods(3, 4);
        assertTrue(
                m.containsAll(List.of("stats", "ckm", "dplloyd", "public-centre")), m.toString());
        assertFalse(m.contains("lloyd"), "non-private reference among the dp methods: " + m);
        assertFalse(m.stream().anyMatch(n -> n.endsWith("-paper")), m.toString());
        assertFalse(m.stream().anyMatch(n -> n.contains("local-search")), m.toString());
    }

    @Test
    void quickRunPrintsRowsAndWritesTheReport(@TempDir Path out) throws Exception {
        List<JsonNode> rows =
                EvaluateRun.jsonRows("utility", "--quick", "--json", "--out", out.toString());
        Set<String> datasets =
                rows.stream().map(r -> r.get("dataset").asText()).collect(Collectors.toSet());
        assertEquals(Set.of("iris", "sep-n150-d13"), datasets);
        int methods = UtilityExperiment.methods(3, 4).size();
        assertEquals(2 * methods * UtilityExperiment.EPSILONS_QUICK.length, rows.size());
        for (JsonNode r : rows) {
            for (String key :
                    List.of("dataset", "method", "epsilon", "median_relative_sse", "q1", "q3")) {
                assertTrue(r.has(key), "row without " + key + ": " + r);
            }
            assertTrue(r.get("q1").asDouble() <= r.get("median_relative_sse").asDouble());
            assertTrue(r.get("median_relative_sse").asDouble() <= r.get("q3").asDouble());
            // no release beats the best of 10 Lloyd runs by more than Lloyd's own slack
            assertTrue(r.get("q1").asDouble() >= 0.99, r.toString());
            if (r.get("method").asText().equals("public-centre")) {
                assertEquals(r.get("q1").asDouble(), r.get("q3").asDouble(), 0, r.toString());
            }
        }
        String report = Files.readString(out.resolve("README.md"));
        assertTrue(report.contains("best peer (issue 18)"), report);
        assertTrue(report.contains("| winner |"), report);
        assertTrue(report.contains("8.21 diffprivlib"), report);
        // the small-n / higher-d family: auto's choices beside the old stats summary
        assertTrue(report.contains("| auto chose (runs) |"), report);
        assertTrue(report.contains("| data-free (public-centre) |"), report);
        assertTrue(Files.exists(out.resolve("relative_sse_iris.png")));
        assertTrue(Files.exists(out.resolve("relative_sse_sep-n150-d13.png")));
    }
}
