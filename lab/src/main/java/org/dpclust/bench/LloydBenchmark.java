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
 * #FLOOR_NS_PER_TERM} ns per point coordinate ({@link BenchEnvironment#differenceNanos}).
 * Hand-timed, single-threaded. Row {@code lloyd-iteration}, with {@code seconds_per_iteration} and
 * {@code ns_per_record} (per point and iteration), or {@code unresolved} saying why there is no
 * time, and beside it {@code plain_loop_seconds_per_iteration}: the plain O(n·k·d) iteration over
 * the same contiguous array ({@link #plainIteration}), and {@code fraction_of_bound} = plain /
 * measured (above 1 once the bounded assignment skips points). Row {@code lloyd-fit}: a whole
 * {@link Lloyd#run} fit, see {@link #fitRow}.
 */
public final class LloydBenchmark implements Benchmark {
    static final int D = 10;
    static final int K = 10;
    static final int STEPS = 5;
    static final long SEED = 2027;
    static final int FIT_N = 100_000;
    static final int FIT_RESTARTS = 10;

    /** Physical floor: ns per coordinate (point × coordinate) of one iteration. */
    static final double FLOOR_NS_PER_TERM = 0.1;

    /** Largest batch (runs per timing) before the row is reported as unresolved. */
    static final int MAX_BATCH = 64;

    @Override
    public String name() {
        return "lloyd";
    }

    @Override
    public String description() {
        return "batch Lloyd time per iteration at n = 1e6, d = 10, k = 10, and a 10-restart fit at n = 1e5";
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
        // each iteration reads every point's d coordinates at least once (the centroid step; the
        // bounded assignment step may skip the n·k distances); 0.1 ns per coordinate is beyond
        // scalar Java code
        double floorNanos = FLOOR_NS_PER_TERM * n * D;
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
        double[] flat = new double[n * D];
        for (int i = 0; i < n; i++) {
            System.arraycopy(points[i], 0, flat, i * D, D);
        }
        double[] c = new double[K * D];
        for (int j = 0; j < K; j++) {
            System.arraycopy(init[j], 0, c, j * D, D);
        }
        int[] assignment = new int[n];
        long plain =
                BenchEnvironment.medianNanos(
                        warmups, reps, () -> plainIteration(flat, c, assignment));
        row.put("plain_loop_seconds_per_iteration", plain / 1e9);
        if (perIteration.resolved()) {
            row.put("fraction_of_bound", BoundRows.round(plain / perIteration.nanosPerUnit()));
        }
        return List.of(BenchEnvironment.withMachine(row), fitRow(points, quick));
    }

    /**
     * One Lloyd iteration as the plain loop does it over a contiguous array: every point against
     * every centroid, then the per-cluster sums (the bound {@code fraction_of_bound} compares
     * against; the centroids are not moved, so every repetition does the same work).
     */
    static long plainIteration(double[] flat, double[] c, int[] assignment) {
        int n = assignment.length;
        for (int i = 0; i < n; i++) {
            int best = 0;
            double bestD = Double.POSITIVE_INFINITY;
            for (int j = 0; j < K; j++) {
                double s = 0;
                for (int t = 0; t < D; t++) {
                    double e = flat[i * D + t] - c[j * D + t];
                    s += e * e;
                }
                if (s < bestD) {
                    bestD = s;
                    best = j;
                }
            }
            assignment[i] = best;
        }
        double[] sums = new double[K * D];
        for (int i = 0; i < n; i++) {
            int off = assignment[i] * D;
            for (int t = 0; t < D; t++) {
                sums[off + t] += flat[i * D + t];
            }
        }
        return assignment[n / 2] + Double.doubleToLongBits(sums[0]);
    }

    /**
     * {@code lloyd-fit}: {@link Lloyd#run} with {@value #FIT_RESTARTS} greedy k-means++ restarts
     * (in parallel where cores allow) on the first {@value #FIT_N} points (quick: 10^4), the
     * fastest of 3 fits after 1 warm-up — the configuration {@code scripts/lloyd-vs-sklearn.py}
     * times beside scikit-learn.
     */
    private static Map<String, Object> fitRow(double[][] points, boolean quick) {
        double[][] data = java.util.Arrays.copyOf(points, quick ? 10_000 : FIT_N);
        long[] iterations = new long[1];
        long fastest = Long.MAX_VALUE;
        for (int r = 0; r < 4; r++) {
            long t0 = System.nanoTime();
            LloydResult res =
                    Lloyd.run(data, K, FIT_RESTARTS, Lloyd.DEFAULT_MAX_ITERATIONS, SEED + r);
            long t = System.nanoTime() - t0;
            iterations[0] = res.iterations();
            if (r > 0) {
                fastest = Math.min(fastest, t);
            }
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "lloyd-fit");
        row.put("n", data.length);
        row.put("d", D);
        row.put("k", K);
        row.put("restarts", FIT_RESTARTS);
        row.put("seconds", fastest / 1e9);
        row.put("iterations_best_restart", iterations[0]);
        return BenchEnvironment.withMachine(row);
    }
}
