package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpclust.eval.JsonRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpDpExperimentTest {
    @Test
    void quickRunPrintsOneSnakeCaseRowPerCellAndWritesTheReport(@TempDir Path out)
            throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        Path report =
                Experiments.get("expdp")
                        .run(
                                new ExperimentContext(
                                        out,
                                        true,
                                        new JsonRows(
                                                new PrintStream(
                                                        buffer, true, StandardCharsets.UTF_8)),
                                        "dpclust evaluate expdp --quick"));
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> rows =
                buffer.toString(StandardCharsets.UTF_8)
                        .lines()
                        .filter(l -> !l.isBlank())
                        .map(
                                l -> {
                                    try {
                                        return mapper.readTree(l);
                                    } catch (Exception e) {
                                        throw new IllegalStateException(l, e);
                                    }
                                })
                        .toList();
        // quick: iris and s1, 2 epsilons, 2 modes, 7 methods
        assertEquals(
                2 * ExpDpExperiment.EPSILONS_QUICK.length * 2 * ExpDpExperiment.METHODS.length,
                rows.size());
        for (String method : List.of("gupt", "privgene")) {
            for (String mode : List.of("paper", "strict")) {
                assertEquals(
                        2 * ExpDpExperiment.EPSILONS_QUICK.length,
                        rows.stream()
                                .filter(
                                        r ->
                                                r.get("method").asText().equals(method)
                                                        && r.get("mode").asText().equals(mode))
                                .count(),
                        method + " " + mode);
            }
        }
        for (JsonNode r : rows) {
            for (String key :
                    List.of(
                            "dataset",
                            "method",
                            "mode",
                            "epsilon",
                            "normalized_cost",
                            "convergence_degree",
                            "avg_iterations",
                            "lloyd_iterations",
                            "runs")) {
                assertTrue(r.has(key), "row without " + key + ": " + r);
            }
            assertTrue(
                    r.get("normalized_cost").asDouble() > 0.9,
                    "cost below Lloyd's from the same start: " + r);
            double degree = r.get("convergence_degree").asDouble();
            assertTrue(degree >= 0 && degree <= 1);
            assertTrue(
                    r.get("mode").asText().equals("paper")
                            || r.get("mode").asText().equals("strict"));
            if (r.get("mode").asText().equals("strict")) {
                assertTrue(
                        r.get("guarantee").asText().contains("not dp here"),
                        "scaled by the data's own min/max");
            }
        }
        String md = Files.readString(report);
        assertTrue(
                md.contains("Fig. 9") && md.contains("Fig. 10") && md.contains("OWN min and max"));
        assertTrue(Files.exists(out.resolve("cost_iris_strict.png")));
    }
}
