package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HstSnapExperimentTest {
    @Test
    void quickRunMeasuresEveryRuleWithPairedNoiseAndWritesTheReport(@TempDir Path out)
            throws Exception {
        List<JsonNode> rows =
                EvaluateRun.jsonRows("hst-snap", "--quick", "--json", "--out", out.toString());
        int rules = 2; // nearest, pivot
        int sigmas = HstSnapExperiment.SIGMAS.length;
        assertEquals(
                rules * sigmas + rules * sigmas * HstSnapExperiment.EPSILONS.length, rows.size());
        Map<String, Double> agreement = new HashMap<>();
        for (JsonNode r : rows) {
            String key = r.get("sigma").asDouble() + "/" + r.get("rule").asText();
            if (r.get("table").asText().equals("snap")) {
                agreement.put(key, r.get("agreement").asDouble());
            } else if (r.get("rule").asText().equals("nearest")) {
                // the same noise against itself
                assertEquals(0.0, r.get("paired_diff_mean").asDouble(), 0.0, r.toString());
            }
        }
        for (double sigma : HstSnapExperiment.SIGMAS) {
            assertEquals(1.0, agreement.get(sigma + "/nearest"));
            // approximate: usually, not always, the nearest point
            assertTrue(agreement.get(sigma + "/pivot") >= 0.95, agreement.toString());
            assertTrue(agreement.get(sigma + "/pivot") < 1.0, agreement.toString());
        }
        assertTrue(Files.readString(out.resolve("README.md")).contains("paired"));
    }
}
