package org.dpclust.bench;

import java.util.List;
import org.dpclust.config.NamedRegistry;

/**
 * The registry of benchmarks by name. A benchmark is added with one {@code register} line in the
 * static block. Names are unique; an unknown name is an error listing the known ones.
 */
public final class Benchmarks {
    private static final NamedRegistry<Benchmark> REGISTRY =
            new NamedRegistry<>("benchmark", "BENCHMARK", Benchmark::name);

    static {
        register(new SketchBenchmark());
        register(new StatsBenchmark());
        register(new HstBenchmark());
        register(new FoldBenchmark());
        register(new LloydBenchmark());
        register(new CsvBenchmark());
        register(new KMedianBenchmark());
        register(new PipelineBenchmark());
        register(new StateSizeBenchmark());
        register(new SoakBenchmark());
        register(new LedgerYearBenchmark());
        register(new LedgerRestartBenchmark());
        register(new LedgerWritersBenchmark());
        register(new FleetBenchmark());
    }

    private Benchmarks() {}

    public static void register(Benchmark b) {
        REGISTRY.register(b);
    }

    public static Benchmark get(String name) {
        return REGISTRY.get(name);
    }

    /** Registered names, in registration order. */
    public static List<String> names() {
        return REGISTRY.names();
    }
}
