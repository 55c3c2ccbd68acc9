package org.dpclust.eval.bench;

import java.util.List;
import java.util.Map;

/**
 * One named micro-benchmark, run by {@code dpclust bench NAME}: plain Java, fixed public seeds, fixed
 * test secret for any privacy noise. Returns rows (snake_case keys) that always carry {@code benchmark},
 * {@code cores} (available processors) and {@code jvm} (java.version) and then its timings in seconds.
 * Timings are wall-clock medians over a few runs after one warm-up, on whatever load the machine has.
 */
public interface Benchmark {
    /** Registry name, e.g. {@code kmedian}. */
    String name();

    /** One line for {@code dpclust bench --help}. */
    String description();

    /** Runs the benchmark; {@code quick} = small sizes for smoke runs and tests. */
    List<Map<String, Object>> run(boolean quick);
}
