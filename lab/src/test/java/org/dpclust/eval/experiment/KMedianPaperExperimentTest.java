package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KMedianPaperExperimentTest {
    @Test
    void quickRunPrintsCostRowsWithThePaperKeysForEveryCell(@TempDir Path out) throws Exception {
        List<JsonNode> cost = new ArrayList<>();
        List<JsonNode> diameters = new ArrayList<>();
        for (JsonNode r :
                EvaluateRun.jsonRows("kmedian", "--quick", "--json", "--out", out.toString())) {
            String kind = r.get("row").asText();
            if (kind.equals("cost")) {
                cost.add(r);
            } else if (kind.equals("diameter")) {
                diameters.add(r);
            }
        }
        KMedianPaperExperiment.Config q = KMedianPaperExperiment.Config.quick();
        // (mnist l1 + one graph) x 2 demand kinds x 6 methods x |ks|
        assertEquals(2 * 2 * 6 * q.ks().length, cost.size());
        Set<String> methods = new TreeSet<>();
        for (JsonNode r : cost) {
            for (String key :
                    List.of(
                            "dataset",
                            "metric",
                            "demand",
                            "method",
                            "k",
                            "initial_cost",
                            "final_cost",
                            "repetitions")) {
                assertTrue(r.has(key), "row without " + key + ": " + r);
            }
            assertTrue(
                    r.get("initial_cost").asDouble() > 0 && r.get("final_cost").asDouble() > 0,
                    r.toString());
            if (r.get("method").asText().startsWith("NDP")) {
                assertTrue(
                        r.get("final_cost").asDouble()
                                <= r.get("initial_cost").asDouble() * (1 + 1e-6),
                        "local search made it worse: " + r);
            }
            methods.add(r.get("method").asText());
        }
        assertEquals(new TreeSet<>(KMedianPaperExperiment.METHODS), methods);
        assertEquals(2, diameters.size());
        for (JsonNode d : diameters) {
            assertTrue(
                    d.get("exact_diameter").asDouble() <= d.get("diameter_bound").asDouble(),
                    d.toString());
            assertTrue(
                    d.get("diameter_bound").asDouble() <= 2 * d.get("exact_diameter").asDouble(),
                    d.toString());
        }
        String readme = Files.readString(out.resolve("README.md"));
        assertTrue(
                readme.contains("Headline: DP-HST vs DP-kmedian++"),
                "report lacks the headline table");
        assertTrue(Files.size(out.resolve("init_time_vs_k.png")) > 0);
        assertTrue(Files.size(out.resolve("initial_cost_mnist10k_l1_imbalanced.png")) > 0);
    }

    @Test
    void movingAverageUsesTrailingWindows() {
        assertArrayEquals(
                new double[] {2, 3, 4},
                KMedianPaperExperiment.movingAverage(new double[] {1, 2, 3, 4, 5}, 3));
        assertArrayEquals(
                new double[] {3}, KMedianPaperExperiment.movingAverage(new double[] {1, 5}, 9));
    }
}
