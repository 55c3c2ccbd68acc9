package org.dpclust.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

/**
 * What a quick run of the end-to-end benchmark must show: every run finishes, no record is late,
 * the rows have their columns. Checked by {@code BenchAllIT} on the rows {@code bench all --quick
 * --json} printed, so CI runs the benchmark once.
 */
public final class PipelineQuickRows {
    private PipelineQuickRows() {}

    /** Checks the rows of {@link PipelineBenchmark#run} in quick mode, in their order. */
    public static void check(List<Map<String, Object>> rows) {
        List<String> perParallelism =
                List.of(
                        "pipeline",
                        "pipeline-device",
                        "pipeline-stats",
                        "pipeline-stats-device",
                        "pipeline-ckm",
                        "pipeline-ckm-device",
                        "pipeline-dp-hst",
                        "pipeline-dp-hst-device",
                        "pipeline-fast",
                        "pipeline-fast-device",
                        "pipeline-nonprivate");
        List<String> expected = new java.util.ArrayList<>(perParallelism);
        expected.addAll(perParallelism);
        expected.addAll(
                List.of(
                        "pipeline-fast-long",
                        "pipeline-nonprivate-long",
                        "pipeline-hot-stream",
                        "pipeline-hot-stream",
                        "pipeline-input",
                        "pipeline-input",
                        "pipeline-input"));
        assertEquals(expected, rows.stream().map(r -> r.get("benchmark")).toList());
        for (Map<String, Object> r : rows) {
            assertEquals(0L, r.get("late_records"), "every record reached its window: " + r);
            assertTrue((double) r.get("records_per_second") > 0, r.toString());
            assertTrue(r.containsKey("cores") && r.containsKey("jvm"));
        }
        for (Map<String, Object> r : rows.subList(0, 10)) {
            assertTrue(r.containsKey("fraction_of_nonprivate"), r.toString());
            assertEquals(10L, r.get("stream_windows"), r.toString());
        }
        for (int i = 1; i < 10; i += 2) {
            Map<String, Object> dev = rows.get(i);
            assertEquals("device", dev.get("privacy_unit"), dev.toString());
            assertEquals(rows.get(i - 1).get("summaries"), dev.get("summaries"));
            assertEquals(
                    Math.round(
                                    1000
                                            * (double) dev.get("records_per_second")
                                            / (double) rows.get(i - 1).get("records_per_second"))
                            / 1000.0,
                    (double) dev.get("fraction_of_record_units"),
                    1e-9,
                    "the ratio to the record-unit row of the same summaries: " + dev);
        }
        Map<String, Object> fastLong = rows.get(22);
        assertEquals(30L, fastLong.get("stream_windows"), "10 streams x 3 windows: " + fastLong);
        assertEquals(3 * (long) rows.get(0).get("records"), fastLong.get("records"));
        assertTrue(fastLong.containsKey("fraction_of_nonprivate"), fastLong.toString());
        assertEquals("pivot", rows.get(8).get("hst_snap"));
        assertEquals(true, rows.get(8).get("ckm_warm_start"));
        assertEquals(
                List.of(1L, 4L),
                rows.subList(24, 26).stream().map(r -> r.get("salt_buckets")).toList());
        // the input formats, each its better of two runs, the others over Avro's
        List<Map<String, Object>> input = rows.subList(26, 29);
        assertEquals(
                List.of("avro-single-object", "json", "avro-registry"),
                input.stream().map(r -> r.get("input_format")).toList());
        for (Map<String, Object> r : input) {
            @SuppressWarnings("unchecked")
            List<Double> runs = (List<Double>) r.get("runs_records_per_second");
            assertEquals(2, runs.size(), r.toString());
            assertEquals(Math.max(runs.get(0), runs.get(1)), (double) r.get("records_per_second"));
            assertEquals(r.get("records"), rows.get(0).get("records"), "the same records: " + r);
        }
        for (Map<String, Object> r : input.subList(1, 3)) {
            assertEquals(
                    Math.round(
                                    1000
                                            * (double) r.get("records_per_second")
                                            / (double) input.get(0).get("records_per_second"))
                            / 1000.0,
                    (double) r.get("fraction_of_avro"),
                    1e-9,
                    r.toString());
        }
    }
}
