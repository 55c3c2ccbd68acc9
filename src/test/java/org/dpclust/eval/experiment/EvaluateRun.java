package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.dpclust.cli.DpclustCommand;

/**
 * Runs {@code dpclust evaluate ARGS} in-process, asserts exit 0 and returns its JSON rows from
 * stdout.
 */
final class EvaluateRun {
    private EvaluateRun() {}

    static List<JsonNode> jsonRows(String... args) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        String[] full = new String[args.length + 1];
        full[0] = "evaluate";
        System.arraycopy(args, 0, full, 1, args.length);
        int exit;
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            exit = DpclustCommand.commandLine().execute(full);
        } finally {
            System.setOut(stdout);
        }
        assertEquals(0, exit, "dpclust " + String.join(" ", full));
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
