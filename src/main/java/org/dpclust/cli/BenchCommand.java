package org.dpclust.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.dpclust.eval.JsonRows;
import org.dpclust.eval.bench.Benchmark;
import org.dpclust.eval.bench.Benchmarks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dpclust bench BENCHMARK}: runs a registered micro-benchmark and prints its timing rows. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Run a micro-benchmark (e.g. kmedian) and print its timings.")
public final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BENCHMARK", description = "Benchmark name (e.g. kmedian).")
    String benchmark;

    @Option(names = "--json", description = "Print one JSON object per row on stdout (default: key=value lines).")
    boolean json;

    @Option(names = "--quick", description = "Small sizes (smoke runs and tests).")
    boolean quick;

    @Override
    public Integer call() {
        Benchmark b = Benchmarks.get(benchmark);
        JsonRows rows = new JsonRows(System.out);
        for (Map<String, Object> row : b.run(quick)) {
            if (json) {
                rows.print(row);
            } else {
                StringBuilder sb = new StringBuilder();
                row.forEach((k, v) -> sb.append(sb.length() > 0 ? " " : "").append(k).append('=').append(v));
                System.out.println(sb);
            }
        }
        return 0;
    }
}
