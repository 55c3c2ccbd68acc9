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
 * so the setup and the final assignment pass cancel; the median of 5 paired differences (quick: 3)
 * after 1 warm-up, with more runs per timing until it is at least the physical floor of {@value
 * #FLOOR_NS_PER_TERM} ns per distance term ({@link BenchEnvironment#differenceNanos}). Hand-timed,
 * single-threaded. One row, {@code lloyd-iteration}, with {@code seconds_per_iteration} and {@code
 * ns_per_record} (per point and iteration), or {@code unresolved} saying why there is no time.
 */
public final class LloydBenchmark implements Benchmark {
    static final int D = 10;
    static final int K = 10;
    static final int STEPS = 5;
    static final long SEED = 2027;

    /** Physical floor: ns per distance term (point × centroid × coordinate) of one iteration. */
    static final double FLOOR_NS_PER_TERM = 0.1;

    /** Largest batch (runs per timing) before the row is reported as unresolved. */
    static final int MAX_BATCH = 64;

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
        int reps = quick ? 3 : 5;
        // each iteration computes n·k distances of d terms (≥ 2 arithmetic ops each); 0.1 ns per
        // term is ~5x faster than measured on the reference machine and beyond scalar Java code
        double floorNanos = FLOOR_NS_PER_TERM * n * K * D;
        BenchEnvironment.PerUnit perIteration =
                BenchEnvironment.differenceNanos(
                        warmups,
                        reps,
                        () -> Lloyd.runFrom(points, init, 0).assignment()[0],
                        () -> {
                            LloydResult res = Lloyd.runFrom(points, init, STEPS);
                            iterations[0] = res.iterations();
                            return res.assignment()[0];
                        },
                        () -> iterations[0],
                        floorNanos,
                        MAX_BATCH);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "lloyd-iteration");
        row.put("n", n);
        row.put("d", D);
        row.put("k", K);
        row.put("iterations", iterations[0]);
        row.put("batch", perIteration.batch());
        if (perIteration.resolved()) {
            double ns = perIteration.nanosPerUnit();
            row.put("seconds_per_iteration", ns / 1e9);
            row.put("ns_per_record", BoundRows.round(ns / n));
            row.put("records_per_second", Math.round(n / (ns / 1e9)));
        } else {
            row.put("unresolved", BenchEnvironment.unresolved(perIteration, floorNanos));
        }
        return List.of(BenchEnvironment.withMachine(row));
    }
}
