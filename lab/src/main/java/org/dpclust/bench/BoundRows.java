package org.dpclust.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpclust.bench.jmh.JmhRunner.Score;

/**
 * Rows of a per-record summary measured beside its plain-loop bound in the same run: {@code
 * ns_per_record}, {@code records_per_second}, {@code bound_ns_per_record}, {@code
 * fraction_of_bound} = bound time / measured time (1 = as fast as the bare arithmetic), {@code
 * alloc_bytes_per_record} (JMH's gc.alloc.rate.norm; absent in quick mode), then {@code cores} and
 * {@code jvm}.
 */
final class BoundRows {
    private BoundRows() {}

    /**
     * A row starting with {@code benchmark} and {@code extra} columns (e.g. r, m, d), in insertion
     * order.
     */
    static Map<String, Object> row(
            String benchmark, Map<String, Object> extra, Score measured, Score bound) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", benchmark);
        row.putAll(extra);
        row.put("ns_per_record", round(measured.nsPerOp()));
        row.put("records_per_second", Math.round(1e9 / measured.nsPerOp()));
        row.put("bound_ns_per_record", round(bound.nsPerOp()));
        row.put("fraction_of_bound", round(bound.nsPerOp() / measured.nsPerOp()));
        if (!Double.isNaN(measured.allocBytesPerOp())) {
            row.put("alloc_bytes_per_record", round(measured.allocBytesPerOp()));
        }
        return BenchEnvironment.withMachine(row);
    }

    static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
