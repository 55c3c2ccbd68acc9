package org.dpclust.eval.bench;

import java.util.List;
import org.dpclust.config.NamedRegistry;

/** The registry of benchmarks by name; unknown names are an error listing the known ones. */
public final class Benchmarks {
    private static final NamedRegistry<Benchmark> REGISTRY =
            new NamedRegistry<>("benchmark", "BENCHMARK", Benchmark::name);

    static {
        register(new KMedianBenchmark());
    }

    private Benchmarks() {}

    public static void register(Benchmark b) {
        REGISTRY.register(b);
    }

    public static Benchmark get(String name) {
        return REGISTRY.get(name);
    }

    public static List<String> names() {
        return REGISTRY.names();
    }
}
