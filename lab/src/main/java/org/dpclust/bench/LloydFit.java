package org.dpclust.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.kmeans.LloydResult;

/**
 * The JVM side of {@code scripts/lloyd-vs-sklearn.py}: times {@link Lloyd#run} (k-means++ seeding,
 * {@code nInit} restarts, at most {@code maxIterations} iterations) on one CSV data set ({@link
 * DatasetLoader#loadCsv} format) so scikit-learn can be timed on the very same points.
 *
 * <p>Usage: {@code java -cp dpclust.jar org.dpclust.bench.LloydFit FILE K N_INIT MAX_ITER REPS};
 * one warm-up fit, then {@code REPS} timed fits. Prints one JSON object: the fastest and median fit
 * in seconds, the SSE of the last fit and the iterations of its best restart. Public computation
 * only; no privacy noise.
 */
public final class LloydFit {
    private LloydFit() {}

    /** Runs the timing; see the class contract for the arguments. */
    public static void main(String[] args) {
        if (args.length != 5) {
            System.err.println("usage: LloydFit FILE K N_INIT MAX_ITER REPS");
            System.exit(2);
        }
        Dataset data = DatasetLoader.loadCsv(Path.of(args[0]));
        int k = Integer.parseInt(args[1]);
        int nInit = Integer.parseInt(args[2]);
        int maxIterations = Integer.parseInt(args[3]);
        int reps = Integer.parseInt(args[4]);
        double[][] points = data.points();
        Lloyd.run(points, k, nInit, maxIterations, 0); // warm-up: compile the loops
        double[] seconds = new double[reps];
        LloydResult last = null;
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            last = Lloyd.run(points, k, nInit, maxIterations, 1 + r);
            seconds[r] = (System.nanoTime() - t0) / 1e9;
        }
        Arrays.sort(seconds);
        System.out.printf(
                Locale.ROOT,
                "{\"n\": %d, \"d\": %d, \"k\": %d, \"n_init\": %d, \"fastest_s\": %.4f,"
                        + " \"median_s\": %.4f, \"sse\": %.6f, \"iterations\": %d, \"cores\": %d}%n",
                points.length,
                points[0].length,
                k,
                nInit,
                seconds[0],
                seconds[reps / 2],
                last.sse(),
                last.iterations(),
                Runtime.getRuntime().availableProcessors());
    }
}
