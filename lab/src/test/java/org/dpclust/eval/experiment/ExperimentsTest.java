package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentsTest {
    @Test
    void unknownExperimentIsAnErrorListingTheKnownOnes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Experiments.get("nope"));
        assertTrue(e.getMessage().contains("stats"), e.getMessage());
    }

    @Test
    void quickStatsRunPrintsRowsWithTheExpectedKeysAndWritesTheReport(@TempDir Path out)
            throws Exception {
        List<JsonNode> rows =
                EvaluateRun.jsonRows("stats", "--quick", "--json", "--out", out.toString());
        // quick: drifting mixture 3 windows + s1 2 windows, 4 epsilons each
        assertEquals((3 + 2) * StatsReplayExperiment.EPSILONS.length, rows.size());
        Set<String> datasets = new TreeSet<>();
        for (JsonNode r : rows) {
            for (String key : List.of("dataset", "epsilon", "window", "relative_sse")) {
                assertTrue(r.has(key), "row without " + key + ": " + r);
            }
            assertTrue(
                    r.get("relative_sse").asDouble() > 0.5,
                    "relative SSE below the reference: " + r);
            datasets.add(r.get("dataset").asText());
            String guarantee = r.get("guarantee").asText();
            assertEquals(
                    r.get("dataset").asText().equals("drifting_mixture")
                            ? "dp"
                            : StatsReplayExperiment.NOT_DP,
                    guarantee);
        }
        assertEquals(Set.of("drifting_mixture", "s1"), datasets);
        String readme = Files.readString(out.resolve("README.md"));
        assertTrue(readme.contains("NOT dp"), "report must say data-derived bounds are not dp");
        assertTrue(Files.size(out.resolve("relative_sse_s1.png")) > 0);
        assertTrue(Files.size(out.resolve("relative_sse_drifting_mixture.png")) > 0);
    }
}
