package org.dpclust.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end benchmark in quick mode: every run finishes, no record is late, the rows have
 * their columns.
 */
class PipelineBenchmarkIT {
    @Test
    void quickRunProducesOneRowPerPipelineAndParallelism() {
        List<Map<String, Object>> rows = new PipelineBenchmark().run(true);
        assertEquals(
                List.of(
                        "pipeline",
                        "pipeline-nonprivate",
                        "pipeline",
                        "pipeline-nonprivate",
                        "pipeline-hot-stream",
                        "pipeline-hot-stream"),
                rows.stream().map(r -> r.get("benchmark")).toList());
        for (Map<String, Object> r : rows) {
            assertEquals(0L, r.get("late_records"), "every record reached its window: " + r);
            assertTrue((double) r.get("records_per_second") > 0, r.toString());
            assertTrue(r.containsKey("cores") && r.containsKey("jvm"));
        }
        assertTrue(rows.get(0).containsKey("fraction_of_nonprivate"));
        assertEquals(10L, rows.get(0).get("stream_windows"));
        assertEquals(
                List.of(1, 4),
                rows.subList(4, 6).stream().map(r -> r.get("salt_buckets")).toList());
    }
}
