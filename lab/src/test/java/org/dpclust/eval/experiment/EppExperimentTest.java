package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EppExperimentTest {
    private static final List<String> KEYS =
            List.of(
                    "dataset",
                    "method",
                    "epsilon",
                    "fraction",
                    "nmi",
                    "ari",
                    "purity",
                    "rand",
                    "ap",
                    "error_ratio",
                    "sweep");

    @Test
    void quickRunPrintsRowsWithTheIssueKeysAndWritesTheReport(@TempDir Path out) throws Exception {
        List<JsonNode> rows =
                EvaluateRun.jsonRows("epp", "--quick", "--json", "--out", out.toString());
        // 3 data sets x 4 methods x (5 epsilons + 4 fractions)
        assertEquals(
                3 * 4 * (EppExperiment.EPSILONS.length + EppExperiment.FRACTIONS.length),
                rows.size());
        Set<String> methods = new TreeSet<>();
        Set<String> datasets = new TreeSet<>();
        for (JsonNode r : rows) {
            for (String key : KEYS) {
                assertTrue(r.has(key), "row without " + key + ": " + r);
            }
            methods.add(r.get("method").asText());
            datasets.add(r.get("dataset").asText());
            assertTrue(r.get("nmi").asDouble() >= 0 && r.get("nmi").asDouble() <= 1, r.toString());
            if (r.get("method").asText().equals("KM")) {
                assertEquals(0.0, r.get("ap").asDouble(), r.toString());
            }
        }
        assertEquals(Set.of("KM", "EPP-KM(1)", "EPP-KM(2)", "DP-KM"), methods);
        assertEquals(Set.of("synthetic", "seeds", "ukm"), datasets);
        String readme = Files.readString(out.resolve("README.md"));
        assertTrue(
                readme.contains("NOT DIFFERENTIAL PRIVACY")
                        && readme.contains("No row of this report is dp"),
                "report must say so");
        for (String ds : datasets) {
            assertTrue(Files.size(out.resolve("nmi_vs_epsilon_" + ds + ".png")) > 0);
            assertTrue(Files.size(out.resolve("ap_vs_epsilon_" + ds + ".png")) > 0);
            assertTrue(Files.size(out.resolve("nmi_vs_fraction_" + ds + ".png")) > 0);
        }
    }
}
