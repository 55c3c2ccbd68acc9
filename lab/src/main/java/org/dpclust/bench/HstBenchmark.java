package org.dpclust.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.bench.jmh.HstCountJmh;
import org.dpclust.bench.jmh.JmhRunner;

/**
 * {@code bench hst}: per-record cost of the HST summary (snap the record to one of |U| = 4096
 * public points by the default {@code hst.snap: pivot}, and count; d = 10) beside its bound, the
 * same pivot lists in a plain loop, measured by JMH in the same run ({@link HstCountJmh}, {@link
 * BoundRows}). Two {@code hst-count} rows, {@code queries} uniform and clustered, each with {@code
 * snap} (the rule measured) and, on the same records, {@code nearest_index_ns_per_record} (the
 * exact k-d tree search of {@code hst.snap: nearest}) and {@code brute_force_ns_per_record} (the
 * nearest point's brute-force search).
 */
public final class HstBenchmark implements Benchmark {
    @Override
    public String name() {
        return "hst";
    }

    @Override
    public String description() {
        return "HST summary per record (pivot snap to |U| = 4096 points + count, d = 10),"
                + " uniform/clustered, beside the exact nearest-point search";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        System.err.println("bench hst: JMH hst-count and its bound");
        List<JmhRunner.Score> scores = JmhRunner.run(HstCountJmh.class, quick);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String queries : List.of("uniform", "clustered")) {
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("universe", 4096);
            extra.put("d", 10);
            extra.put("queries", queries);
            extra.put("snap", "pivot");
            extra.put(
                    "nearest_index_ns_per_record",
                    BoundRows.round(
                            JmhRunner.find(scores, "nearest", "queries", queries).nsPerOp()));
            extra.put(
                    "brute_force_ns_per_record",
                    BoundRows.round(
                            JmhRunner.find(scores, "bruteForce", "queries", queries).nsPerOp()));
            rows.add(
                    BoundRows.row(
                            "hst-count",
                            extra,
                            JmhRunner.find(scores, "add", "queries", queries),
                            JmhRunner.find(scores, "bound", "queries", queries)));
        }
        return rows;
    }
}
