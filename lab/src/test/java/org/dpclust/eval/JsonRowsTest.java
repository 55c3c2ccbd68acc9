package org.dpclust.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parses printed rows back with Jackson and checks key order and snake_case enforcement. */
class JsonRowsTest {

    @Test
    void printsOneParsableObjectPerLineWithKeysInOrder() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JsonRows rows = new JsonRows(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        rows.row()
                .put("zeta", 1)
                .put("benchmark", "lloyd_s1")
                .put("records_per_second", 2.5e6)
                .print();
        Map<String, Object> second = new LinkedHashMap<>();
        second.put("b_key", true);
        second.put("a_key", null);
        rows.print(second);

        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length);
        ObjectMapper mapper = new ObjectMapper();
        JsonNode first = mapper.readTree(lines[0]);
        assertEquals(List.of("zeta", "benchmark", "records_per_second"), keys(first));
        assertEquals("lloyd_s1", first.get("benchmark").asText());
        assertEquals(2.5e6, first.get("records_per_second").asDouble());
        assertEquals(List.of("b_key", "a_key"), keys(mapper.readTree(lines[1])));
    }

    @Test
    void rejectsNonSnakeCaseKeys() {
        JsonRows rows =
                new JsonRows(
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThrows(IllegalArgumentException.class, () -> rows.row().put("recordsPerSecond", 1));
        assertThrows(IllegalArgumentException.class, () -> rows.row().put("records-per-second", 1));
        assertThrows(IllegalArgumentException.class, () -> rows.row().put("_x", 1));
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
