package org.dpclust.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The soak's flatness check and its reading of Flink's checkpoint statistics. */
class SoakFlatnessTest {
    /** Rows over 10 minutes: heap grows by {@code growth} MB a minute, all else constant. */
    private static List<Map<String, Object>> rows(double growth) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            double t = i * 0.5;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("minutes", t);
            r.put("heap_after_gc_mb", 60 + growth * t);
            r.put("broker_heap_after_gc_mb", 100.0);
            r.put("checkpoint_kb", 26.5);
            r.put("checkpoint_ms", 40.0);
            r.put("latency_ms_mean", i % 4 == 0 ? Double.NaN : 1700.0);
            rows.add(r);
        }
        return rows;
    }

    @Test
    void aGrowingHeapDriftsWithItsSlopeAndTheConstantSeriesAreFlat() {
        List<Map<String, Object>> f = SoakBenchmark.flatness(rows(2));
        assertEquals(5, f.size());
        Map<String, Object> heap = f.get(0);
        assertEquals(2.0, (double) heap.get("slope_per_minute_second_half"), 1e-9);
        assertEquals(62.0, (double) heap.get("start"), 1e-9); // the second sample (1 min)
        assertEquals(80.0, (double) heap.get("end"), 1e-9);
        assertEquals("drifts", heap.get("verdict"));
        for (Map<String, Object> s : f.subList(1, 5)) {
            assertEquals(0.0, (double) s.get("slope_per_minute_second_half"), 1e-9, s.toString());
            assertEquals("flat", s.get("verdict"), s.toString());
        }
    }

    @Test
    void aSlowGrowthWithinTheToleranceIsFlat() {
        // 0.1 MB/min over the 5-minute second half is 0.5 MB on a mean of ~68.75 MB: under 10 %
        Map<String, Object> heap = SoakBenchmark.flatness(rows(0.1)).get(0);
        assertEquals("flat", heap.get("verdict"), heap.toString());
        Map<String, Object> fast = SoakBenchmark.flatness(rows(3)).get(0);
        assertEquals("drifts", fast.get("verdict"), fast.toString());
    }

    @Test
    void checkpointStatisticsReadTheLatestSizeAndTheMeanCompletedDuration() throws Exception {
        String body =
                """
                {"counts": {"restored": 0, "total": 7, "in_progress": 1, "completed": 5, "failed": 1},
                 "latest": {"completed": {"id": 6, "status": "COMPLETED", "state_size": 27000,
                                          "end_to_end_duration": 30}},
                 "history": [
                   {"id": 7, "status": "IN_PROGRESS", "end_to_end_duration": 999},
                   {"id": 6, "status": "COMPLETED", "end_to_end_duration": 30},
                   {"id": 5, "status": "FAILED", "end_to_end_duration": 5000},
                   {"id": 4, "status": "COMPLETED", "end_to_end_duration": 50}]}
                """;
        CheckpointStats s = CheckpointStats.parse(new ObjectMapper().readTree(body));
        assertEquals(new CheckpointStats(5, 27000, 40.0), s);
        assertEquals(
                new CheckpointStats(0, 0, 0.0),
                CheckpointStats.parse(new ObjectMapper().readTree("{\"counts\": {}}")));
    }
}
