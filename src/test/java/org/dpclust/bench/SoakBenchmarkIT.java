package org.dpclust.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The soak benchmark in quick mode (15 s of the live job on the in-process broker and a
 * MiniCluster): it samples over time, windows get released with a measured latency, checkpoints
 * complete and their size is measured, and the heap after GC is reported. Its numbers are not
 * asserted (speed is measured by {@code bench soak}, never asserted); their presence and sanity
 * are.
 */
class SoakBenchmarkIT {
    @Test
    void quickSoakSamplesHeapCheckpointsAndLatencyOverTime() {
        List<Map<String, Object>> rows = new SoakBenchmark().run(true);
        assertTrue(rows.size() >= 5, "a row every 2 s over 15 s: " + rows);
        Map<String, Object> last = rows.get(rows.size() - 1);
        assertTrue((long) last.get("releases") >= 4, "windows released: " + last);
        assertTrue((long) last.get("checkpoints") >= 3, "checkpoints completed: " + last);
        assertTrue((double) last.get("checkpoint_kb") > 0, "a checkpoint has a size: " + last);
        assertTrue((double) last.get("heap_after_gc_mb") > 1, last.toString());
        boolean measured = false;
        for (Map<String, Object> r : rows) {
            if ((long) r.get("latency_ms_max") >= 0) {
                // a window is read after it can close (its end + max_lateness), and in seconds
                double mean = (double) r.get("latency_ms_mean");
                assertTrue(mean > 0 && mean < 30_000, "release latency: " + r);
                measured = true;
            }
        }
        assertTrue(measured, "some release latency was measured: " + rows);
    }
}
