package org.dpclust.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

/**
 * What the soak benchmark in quick mode must show (30 s of the live job on a MiniCluster against
 * the broker in a JVM of its own): it samples over time, windows get released with a measured
 * latency, checkpoints complete and their size and duration come from Flink's REST API, both JVMs'
 * heaps after GC are reported, and the flatness check is computed for every series. Its numbers are
 * not asserted (speed and flatness are measured by {@code bench soak}, never asserted); their
 * presence and sanity are. Checked by {@code BenchAllIT} on the rows {@code bench all --quick
 * --json} printed, so CI runs the benchmark once.
 */
public final class SoakQuickRows {
    private SoakQuickRows() {}

    /** Checks the rows of {@link SoakBenchmark#run} in quick mode, in their order. */
    public static void check(List<Map<String, Object>> rows) {
        assertTrue(rows.size() >= 10, "a row every 2 s over 30 s: " + rows);
        Map<String, Object> last = rows.get(rows.size() - 1);
        assertTrue((long) last.get("releases") >= 4, "windows released: " + last);
        assertTrue((long) last.get("checkpoints") >= 3, "checkpoints completed: " + last);
        assertTrue((double) last.get("checkpoint_kb") > 0, "a checkpoint has a size: " + last);
        assertTrue((double) last.get("checkpoint_ms") > 0, "a checkpoint has a duration: " + last);
        assertTrue((double) last.get("heap_after_gc_mb") > 1, last.toString());
        assertTrue((double) last.get("broker_heap_after_gc_mb") > 1, last.toString());
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
        List<Map<String, Object>> flatness = SoakBenchmark.flatness(rows);
        assertEquals(SoakBenchmark.SERIES.size(), flatness.size(), flatness.toString());
        for (Map<String, Object> f : flatness) {
            // computed, not judged: a 30 s run on a shared machine says nothing about drift
            double slope = (double) f.get("slope_per_minute_second_half");
            assertTrue(Double.isFinite(slope), "a slope over the second half: " + f);
            assertTrue(List.of("flat", "drifts").contains((String) f.get("verdict")), f.toString());
        }
    }
}
