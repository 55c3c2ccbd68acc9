package org.dpclust.bench.jmh;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the JMH benchmarks of one class programmatically and returns their scores.
 *
 * <p>Full mode: one forked JVM per (method, parameters) with the parent's class path (so it works
 * from the shaded {@code target/dpclust.jar}), {@value #WARMUPS} × 0.25 s warm-up and {@value
 * #MEASUREMENTS} × 0.25 s measured iterations in average-time mode, and JMH's GC profiler for the
 * allocation per operation. The score is the <em>fastest</em> measured iteration's ns per
 * operation, not the mean: on a shared machine other processes only ever add time, so the minimum
 * is the estimate least disturbed by them (applied alike to a measurement and its bound). Quick
 * mode (tests, smoke runs): in-process (no fork), two 100 ms warm-up and six 50 ms measured
 * iterations, no profiler; the numbers are not meaningful (JMH runs methods in name order, so the
 * measured {@code add} runs before, and colder than, its {@code bound}). JMH's own report goes to
 * standard error, so standard output carries only the table or JSON rows.
 */
public final class JmhRunner {
    static final int WARMUPS = 6;
    static final int MEASUREMENTS = 16;

    /**
     * One score.
     *
     * @param method benchmark method name (e.g. {@code add}, {@code bound})
     * @param params the JMH parameters of the run, by name
     * @param nsPerOp ns per operation of the fastest measured iteration (per record, for the
     *     per-record benchmarks)
     * @param allocBytesPerOp bytes allocated per operation (JMH gc.alloc.rate.norm), NaN when not
     *     profiled
     */
    public record Score(
            String method, Map<String, String> params, double nsPerOp, double allocBytesPerOp) {}

    private JmhRunner() {}

    /** Runs every {@code @Benchmark} method of {@code benchmarkClass}. */
    public static List<Score> run(Class<?> benchmarkClass, boolean quick) {
        ChainedOptionsBuilder options =
                new OptionsBuilder()
                        .include("^" + benchmarkClass.getName().replace(".", "\\.") + "\\.")
                        .mode(Mode.AverageTime)
                        .timeUnit(TimeUnit.NANOSECONDS)
                        .threads(1)
                        .shouldFailOnError(true);
        if (quick) {
            options.forks(0)
                    .warmupIterations(2)
                    .warmupTime(TimeValue.milliseconds(100))
                    .measurementIterations(6)
                    .measurementTime(TimeValue.milliseconds(50));
        } else {
            options.forks(1)
                    .warmupIterations(WARMUPS)
                    .warmupTime(TimeValue.milliseconds(250))
                    .measurementIterations(MEASUREMENTS)
                    .measurementTime(TimeValue.milliseconds(250))
                    .addProfiler(GCProfiler.class);
        }
        Collection<RunResult> results;
        try {
            VerboseMode verbosity = quick ? VerboseMode.SILENT : VerboseMode.NORMAL;
            results =
                    new Runner(
                                    options.build(),
                                    OutputFormatFactory.createFormatInstance(System.err, verbosity))
                            .run();
        } catch (RunnerException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            // e.g. another JMH run holds its lock file: say so (-Djmh.ignoreLock=true overrides)
            throw new IllegalStateException(
                    "JMH run of "
                            + benchmarkClass.getSimpleName()
                            + " failed: "
                            + String.valueOf(root.getMessage()).strip().replaceAll("\\s+", " "),
                    e);
        }
        List<Score> scores = new ArrayList<>();
        for (RunResult r : results) {
            String label = r.getParams().getBenchmark();
            String method = label.substring(label.lastIndexOf('.') + 1);
            Map<String, String> params = new TreeMap<>();
            for (String key : r.getParams().getParamsKeys()) {
                params.put(key, r.getParams().getParam(key));
            }
            Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
            double fastest =
                    r.getBenchmarkResults().stream()
                            .flatMap(b -> b.getIterationResults().stream())
                            .mapToDouble(i -> i.getPrimaryResult().getScore())
                            .min()
                            .orElseThrow();
            scores.add(
                    new Score(
                            method,
                            params,
                            fastest,
                            alloc == null ? Double.NaN : alloc.getScore()));
        }
        return scores;
    }

    /**
     * The score of {@code method} with the given parameter value (or any, when {@code paramValue}
     * is null).
     */
    public static Score find(List<Score> scores, String method, String param, String paramValue) {
        for (Score s : scores) {
            if (s.method().equals(method)
                    && (param == null || paramValue.equals(s.params().get(param)))) {
                return s;
            }
        }
        throw new IllegalStateException(
                "no JMH score for " + method + " " + param + "=" + paramValue);
    }
}
