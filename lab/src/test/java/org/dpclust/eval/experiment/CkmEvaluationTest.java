package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpclust evaluate ckm --quick --json}: rows with the documented keys and labels, and the
 * report.
 */
class CkmEvaluationTest {
    @Test
    void registeredWithItsFullConfiguration() {
        assertEquals("ckm", Experiments.get("ckm").name());
        assertEquals("ckm-full", Experiments.get("ckm-full").name());
    }

    @Test
    void quickRunPrintsRowsWithTheKeysAndWritesTheReport(@TempDir Path out) throws Exception {
        List<JsonNode> rows =
                EvaluateRun.jsonRows("ckm", "--quick", "--json", "--out", out.toString());
        // quick: gaussian_mixture 2 alpha_r x 2 epsilons, s1 one cell
        assertEquals(5, rows.size(), rows.toString());
        for (JsonNode r : rows) {
            for (String key :
                    List.of(
                            "dataset",
                            "n",
                            "alpha_r",
                            "epsilon",
                            "median_relative_sse",
                            "iqr",
                            "trials")) {
                assertTrue(r.has(key), "row without " + key + ": " + r);
            }
            assertTrue(
                    r.get("median_relative_sse").asDouble() >= 0.99, "below the reference: " + r);
            boolean synthetic = r.get("dataset").asText().equals(CkmEvaluation.SYNTHETIC);
            assertEquals(synthetic ? "dp" : CkmEvaluation.NOT_DP, r.get("guarantee").asText());
        }
        // at epsilon = 1 on 1e4 points the DP sketch still decodes to a usable clustering
        assertTrue(rows.get(1).get("median_relative_sse").asDouble() < 3, rows.get(1).toString());
        String report = Files.readString(out.resolve("README.md"));
        assertTrue(
                report.contains("sigma")
                        && report.contains("not-dp")
                        && report.contains("Reproduce"),
                report);
        assertTrue(Files.exists(out.resolve("median_relative_sse_vs_epsilon.png")));
    }

    @Test
    void quantileInterpolatesLinearly() {
        double[] s = {1, 2, 3, 4, 5};
        assertEquals(3, CkmEvaluation.quantile(s, 0.5), 0);
        assertEquals(2, CkmEvaluation.quantile(s, 0.25), 0);
        assertEquals(1.5, CkmEvaluation.quantile(new double[] {1, 2}, 0.5), 0);
    }
}
