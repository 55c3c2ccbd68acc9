package org.dpclust.cli;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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
 * {@code dpclust bench BENCHMARK}: runs a registered {@link Benchmark}, or with {@code all} every
 * registered benchmark in registration order, and prints the rows on standard output as one
 * Markdown table, or with {@code --json} one JSON object per row (snake_case keys). Progress goes
 * to standard error.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run a benchmark (or all) and print a Markdown table or JSON rows.")
public final class BenchCommand implements Callable<Integer> {
    /** The name that runs every registered benchmark. */
    static final String ALL = "all";

    @Parameters(
            index = "0",
            paramLabel = "BENCHMARK",
            description = "Benchmark name (${COMPLETION-CANDIDATES}) or 'all'.",
            completionCandidates = Names.class)
    String benchmark;

    @Option(
            names = "--json",
            description = "Print one JSON object per row instead of a Markdown table.")
    boolean json;

    @Option(
            names = "--quick",
            description = "A tiny configuration (smoke runs and tests; numbers not meaningful).")
    boolean quick;

    @Option(
            names = "--minutes",
            paramLabel = "N",
            description = "How long the soak benchmark runs (default 10; ignored by the others).")
    Double minutes;

    @Override
    public Integer call() {
        if (minutes != null) {
            if (!(minutes > 0)) {
                throw new IllegalArgumentException("--minutes: must be > 0, was " + minutes);
            }
            System.setProperty(
                    org.dpclust.bench.SoakBenchmark.MINUTES_PROPERTY, String.valueOf(minutes));
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        if (ALL.equals(benchmark)) {
            List<String> names = Benchmarks.names();
            long t0 = System.nanoTime();
            for (int i = 0; i < names.size(); i++) {
                System.err.printf(
                        Locale.ROOT,
                        "bench all: [%d/%d] %s (%.0f s elapsed)%n",
                        i + 1,
                        names.size(),
                        names.get(i),
                        (System.nanoTime() - t0) / 1e9);
                rows.addAll(Benchmarks.get(names.get(i)).run(quick));
            }
            System.err.printf(
                    Locale.ROOT, "bench all: done in %.0f s%n", (System.nanoTime() - t0) / 1e9);
        } else {
            Benchmark b = Benchmarks.get(benchmark);
            rows.addAll(b.run(quick));
        }
        if (json) {
            JsonRows out = new JsonRows(System.out);
            rows.forEach(out::print);
        } else {
            System.out.print(markdown(rows));
        }
        System.out.flush();
        return 0;
    }

    /** Registered benchmark names, for the help text. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Benchmarks.names().iterator();
        }
    }

    /**
     * A Markdown table over the union of the rows' keys (first-seen order); missing cells are
     * empty.
     */
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
