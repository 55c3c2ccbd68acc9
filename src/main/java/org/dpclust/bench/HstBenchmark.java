package org.dpclust.bench;

import java.util.List;
import java.util.Map;
import org.dpclust.bench.jmh.HstCountJmh;
import org.dpclust.bench.jmh.JmhRunner;

/**
 * {@code bench hst}: per-record cost of the HST summary (snap to the nearest of |U| = 4096 public points and
 * count; d = 10) beside the brute-force plain-loop bound, measured by JMH in the same run ({@link HstCountJmh},
 * {@link BoundRows}). One row, {@code hst-count}.
 */
public final class HstBenchmark implements Benchmark {
    @Override
    public String name() {
        return "hst";
    }

    @Override
    public String description() {
        return "HST summary per record (snap to nearest of |U| = 4096 points + count, d = 10) vs its plain-loop bound";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        System.err.println("bench hst: JMH hst-count and its bound");
        List<JmhRunner.Score> scores = JmhRunner.run(HstCountJmh.class, quick);
        return List.of(BoundRows.row("hst-count", Map.of("universe", 4096, "d", 10),
                JmhRunner.find(scores, "add", null, null), JmhRunner.find(scores, "bound", null, null)));
    }
}
