package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code dpclust bench all --quick --json}: every registered benchmark runs, in registration order,
 * including the end-to-end pipeline ones (in-process broker and MiniCluster, hence an integration
 * test).
 */
class BenchAllIT {
    /**
     * Every registered benchmark runs, in registration order; the stats, hst and lloyd rows have
     * their keys.
     */
    @Test
    void quickAllRunsEveryRegisteredBenchmark() throws Exception {
        List<JsonNode> rows =
                BenchCommandTest.jsonRows(
                        BenchCommandTest.run("bench", "all", "--quick", "--json"));
        List<String> names = new ArrayList<>();
        rows.forEach(r -> names.add(r.get("benchmark").asText()));
        List<String> expectedOrder =
                List.of(
                        "sketch-update",
                        "clompr-decode",
                        "stats-update",
                        "hst-count",
                        "lloyd-iteration",
                        "dp_local_search_iteration",
                        "pipeline",
                        "pipeline-nonprivate",
                        "pipeline-hot-stream",
                        "pipeline-state");
        int last = -1;
        for (String name : expectedOrder) {
            int at = names.indexOf(name);
            assertTrue(at > last, name + " missing or out of order in " + names);
            last = at;
        }
        for (JsonNode r : rows) {
            assertTrue(r.has("cores") && r.has("jvm"), r.toString());
            switch (r.get("benchmark").asText()) {
                case "stats-update", "hst-count" ->
                        BenchCommandTest.assertBoundRow(r, r.get("benchmark").asText());
                case "lloyd-iteration" -> {
                    assertTrue(r.get("seconds_per_iteration").asDouble() > 0, r.toString());
                    assertTrue(
                            r.get("ns_per_record").asDouble() > 0
                                    && r.get("iterations").asInt() >= 1,
                            r.toString());
                }
                default -> {}
            }
        }
    }
}
