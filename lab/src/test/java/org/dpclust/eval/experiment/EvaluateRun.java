package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dpclust.eval.JsonRows;

/**
 * Runs an experiment as {@code dpclust evaluate NAME [--quick] [--full] --json --out DIR} does (the
 * registry, the context, the JSON rows on stdout) and returns its JSON rows; the command's own
 * option handling is tested in the cli unit.
 */
final class EvaluateRun {
    private EvaluateRun() {}

    static List<JsonNode> jsonRows(String... args) throws IOException {
        List<String> a = Arrays.asList(args);
        boolean quick = a.contains("--quick");
        String name = a.contains("--full") ? args[0] + "-full" : args[0];
        assertEquals(true, a.contains("--json"), "the rows are read from --json");
        Path out = Path.of(args[a.indexOf("--out") + 1]);
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        PrintStream rowsOut = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        System.setOut(rowsOut);
        try {
            Experiments.get(name)
                    .run(
                            new ExperimentContext(
                                    out,
                                    quick,
                                    new JsonRows(rowsOut),
                                    "dpclust evaluate " + String.join(" ", args)));
        } finally {
            System.setOut(stdout);
        }
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> rows = new ArrayList<>();
        for (String line : buffer.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                rows.add(mapper.readTree(line));
            }
        }
        return rows;
    }
}
