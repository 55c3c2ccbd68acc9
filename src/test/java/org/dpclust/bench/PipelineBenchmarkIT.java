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
                        "pipeline-stats",
                        "pipeline-ckm",
                        "pipeline-dp-hst",
                        "pipeline-fast",
                        "pipeline-nonprivate",
                        "pipeline",
                        "pipeline-stats",
                        "pipeline-ckm",
                        "pipeline-dp-hst",
                        "pipeline-fast",
                        "pipeline-nonprivate",
                        "pipeline-hot-stream",
                        "pipeline-hot-stream"),
                rows.stream().map(r -> r.get("benchmark")).toList());
        for (Map<String, Object> r : rows) {
            assertEquals(0L, r.get("late_records"), "every record reached its window: " + r);
            assertTrue((double) r.get("records_per_second") > 0, r.toString());
            assertTrue(r.containsKey("cores") && r.containsKey("jvm"));
        }
        for (Map<String, Object> r : rows.subList(0, 5)) {
            assertTrue(r.containsKey("fraction_of_nonprivate"), r.toString());
            assertEquals(10L, r.get("stream_windows"), r.toString());
        }
        assertEquals("descent", rows.get(4).get("hst_snap"));
        assertEquals(true, rows.get(4).get("ckm_warm_start"));
        assertEquals(
                List.of(1, 4),
                rows.subList(12, 14).stream().map(r -> r.get("salt_buckets")).toList());
    }
}
