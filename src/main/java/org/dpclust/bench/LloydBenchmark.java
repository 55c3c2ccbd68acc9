package org.dpclust.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.kmeans.LloydResult;

/**
 * {@code bench lloyd}: batch Lloyd time per iteration at n = 10^6, d = 10, k = 10 (quick: n = 10^4)
 * on a 10-component Gaussian mixture in the unit box, from fixed initial centroids. Per iteration =
 * (time(runFrom, {@value #STEPS} iterations) − time(runFrom, 0 iterations)) / iterations performed,
 * so the setup and the final assignment pass cancel; each time is the median of 3 runs after 1
 * warm-up ({@link BenchEnvironment#medianNanos}; quick: 1 run). Hand-timed, single-threaded. One
 * row, {@code lloyd-iteration}, with {@code seconds_per_iteration} and {@code ns_per_record} (per
 * point and iteration).
 */
public final class LloydBenchmark implements Benchmark {
    static final int D = 10;
    static final int K = 10;
    static final int STEPS = 5;
    static final long SEED = 2027;

    @Override
    public String name() {
        return "lloyd";
    }

    @Override
    public String description() {
        return "batch Lloyd time per iteration at n = 1e6, d = 10, k = 10";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        int n = quick ? 10_000 : 1_000_000;
        System.err.printf(
                Locale.ROOT, "bench lloyd: n=%d d=%d k=%d, %d iterations%n", n, D, K, STEPS);
        SplittableRandom rng = new SplittableRandom(SEED); // public randomness (not privacy noise)
        double[][] means = new double[K][D];
        for (double[] mu : means) {
            for (int t = 0; t < D; t++) {
                mu[t] = 0.2 + 0.6 * rng.nextDouble();
            }
        }
        double[][] points = new double[n][D];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < D; t++) {
                points[i][t] = means[i % K][t] + 0.05 * rng.nextGaussian();
            }
        }
        double[][] init = new double[K][];
        for (int j = 0; j < K; j++) {
            init[j] = points[(int) ((long) j * n / K) + 1].clone();
        }
        int[] iterations = new int[1];
        int warmups = 1;
        int reps = quick ? 1 : 3;
        long zero =
                BenchEnvironment.medianNanos(
                        warmups, reps, () -> Lloyd.runFrom(points, init, 0).assignment()[0]);
        long full =
                BenchEnvironment.medianNanos(
                        warmups,
                        reps,
                        () -> {
                            LloydResult res = Lloyd.runFrom(points, init, STEPS);
                            iterations[0] = res.iterations();
                            return res.assignment()[0];
                        });
        double perIteration = Math.max(1, full - zero) / (double) Math.max(1, iterations[0]);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "lloyd-iteration");
        row.put("n", n);
        row.put("d", D);
        row.put("k", K);
        row.put("iterations", iterations[0]);
        row.put("seconds_per_iteration", perIteration / 1e9);
        row.put("ns_per_record", BoundRows.round(perIteration / n));
        row.put("records_per_second", Math.round(n / (perIteration / 1e9)));
        return List.of(BenchEnvironment.withMachine(row));
    }
}
