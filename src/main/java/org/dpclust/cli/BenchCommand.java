package org.dpclust.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.dpclust.bench.Benchmark;
import org.dpclust.bench.Benchmarks;
import org.dpclust.eval.JsonRows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpclust bench BENCHMARK}: runs a registered {@link Benchmark} and prints its rows on standard output
 * as a Markdown table, or with {@code --json} one JSON object per row (snake_case keys). Progress goes to
 * standard error.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Run a micro-benchmark (e.g. sketch) and print a Markdown table or JSON rows.")
public final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BENCHMARK", description = "Benchmark name (e.g. sketch).")
    String benchmark;

    @Option(names = "--json", description = "Print one JSON object per row instead of a Markdown table.")
    boolean json;

    @Option(names = "--quick", description = "A tiny configuration (smoke runs and tests; numbers not meaningful).")
    boolean quick;

    @Override
    public Integer call() {
        Benchmark b = Benchmarks.get(benchmark);
        List<Map<String, Object>> rows = b.run(quick);
        if (json) {
            JsonRows out = new JsonRows(System.out);
            rows.forEach(out::print);
        } else {
            System.out.print(markdown(rows));
        }
        System.out.flush();
        return 0;
    }

    /** A Markdown table over the union of the rows' keys (first-seen order); missing cells are empty. */
    static String markdown(List<Map<String, Object>> rows) {
        Set<String> columns = new LinkedHashSet<>();
        rows.forEach(r -> columns.addAll(r.keySet()));
        List<String> cols = new ArrayList<>(columns);
        StringBuilder sb = new StringBuilder("| ").append(String.join(" | ", cols)).append(" |\n|");
        cols.forEach(c -> sb.append("---|"));
        sb.append('\n');
        for (Map<String, Object> r : rows) {
            sb.append('|');
            for (String c : cols) {
                Object v = r.get(c);
                sb.append(' ').append(v == null ? "" : v).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
