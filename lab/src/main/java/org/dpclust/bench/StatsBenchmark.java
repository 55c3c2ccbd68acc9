package org.dpclust.bench;

import java.util.List;
import java.util.Map;
import org.dpclust.bench.jmh.JmhRunner;
import org.dpclust.bench.jmh.StatsUpdateJmh;

/**
 * {@code bench stats}: per-record cost of the statistics summary (clamp, nearest of 160 public
 * cells, fixed-point encode, {@link org.dpclust.kmeans.ClusterStatistics#add}; d = 10) beside its
 * plain-loop bound, measured by JMH in the same run ({@link StatsUpdateJmh}, {@link BoundRows}).
 * One row, {@code stats-update}.
 */
public final class StatsBenchmark implements Benchmark {
    @Override
    public String name() {
        return "stats";
    }

    @Override
    public String description() {
        return "statistics summary per record (nearest of 160 cells + fixed-point sums, d = 10) vs its bound";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        System.err.println("bench stats: JMH stats-update and its bound");
        List<JmhRunner.Score> scores = JmhRunner.run(StatsUpdateJmh.class, quick);
        return List.of(
                BoundRows.row(
                        "stats-update",
                        Map.of("cells", 160, "d", 10),
                        JmhRunner.find(scores, "add", null, null),
                        JmhRunner.find(scores, "bound", null, null)));
    }
}
