package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CkmMaskExperimentTest {
    @Test
    void quickRunComparesBothShapesCellByCellAndWritesTheReport(@TempDir Path out)
            throws Exception {
        List<JsonNode> rows =
                EvaluateRun.jsonRows("ckm-mask", "--quick", "--json", "--out", out.toString());
        assertEquals(
                CkmMaskExperiment.ALPHAS.length * CkmMaskExperiment.EPSILONS.length, rows.size());
        for (JsonNode r : rows) {
            double u = r.get("median_relative_sse_uniform").asDouble();
            double b = r.get("median_relative_sse_block").asDouble();
            // relative SSE ≥ 1 up to the reference's own suboptimality; finite for both shapes
            assertTrue(u > 0.9 && Double.isFinite(u), r.toString());
            assertTrue(b > 0.9 && Double.isFinite(b), r.toString());
            assertEquals(2, r.get("trials").asInt());
        }
        // the masks differ, so the sketches (and most decodes) differ: not one result twice
        assertTrue(
                rows.stream().anyMatch(r -> r.get("paired_diff_mean").asDouble() != 0.0),
                rows.toString());
        assertTrue(Files.readString(out.resolve("README.md")).contains("Paired"));
        assertTrue(Files.size(out.resolve("paired_difference_vs_epsilon.png")) > 1000);
    }
}
