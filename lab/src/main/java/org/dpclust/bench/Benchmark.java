package org.dpclust.bench;

import java.util.List;
import java.util.Map;

/**
 * One named micro-benchmark, run by {@code dpclust bench NAME}. A benchmark is plain Java (no
 * Flink, no Kafka), uses fixed public seeds and a fixed test secret, reports progress on standard
 * error only, and returns its result rows: each row a map from snake_case keys to numbers or
 * strings, in column order, starting with {@code benchmark} and ending with {@code cores} and
 * {@code jvm} ({@link BenchEnvironment}). Rows of one benchmark may have different keys (e.g. a
 * throughput row and a latency row).
 */
public interface Benchmark {
    /** Registry name, e.g. {@code sketch}. */
    String name();

    /** One line for {@code dpclust bench --help}. */
    String description();

    /**
     * Runs the benchmark.
     *
     * @param quick a tiny configuration (tests, smoke runs): the numbers are not meaningful
     */
    List<Map<String, Object>> run(boolean quick);
}
