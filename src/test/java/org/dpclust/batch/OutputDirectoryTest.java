package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** summary.json writes whole numbers as integers, other values as they are. */
class OutputDirectoryTest {
    @Test
    void wholeDoublesAreWrittenAsIntegers(@TempDir Path dir) throws Exception {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("k", 3);
        summary.put("epsilon", 0.5);
        summary.put("parameters", Map.of("cells", 64.0, "radius_1", 0.25, "huge", 1e300));
        new OutputDirectory(dir).write(new double[][] {{0.5, 0.5}}, summary);
        JsonNode s = new ObjectMapper().readTree(dir.resolve(OutputDirectory.SUMMARY).toFile());
        assertEquals(true, s.at("/parameters/cells").isIntegralNumber(), s.toString());
        assertEquals(64, s.at("/parameters/cells").asLong());
        assertEquals(0.25, s.at("/parameters/radius_1").asDouble());
        assertEquals(true, s.at("/parameters/huge").isDouble(), "beyond 2^53 stays a double");
        assertEquals(0.5, s.at("/epsilon").asDouble());
    }
}
