package org.dpclust.kmeans;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.NearestPoint;

/**
 * Non-private Lloyd k-means: the reference every relative SSE is measured against.
 *
 * <p>Contract: points are non-empty, rectangular and finite; {@code 1 ≤ k ≤ n}. One run alternates
 * (1) assigning each point to its nearest centroid (squared Euclidean, ties to the lowest index)
 * and (2) moving each centroid to the (weighted) mean of its points, until an assignment step
 * changes nothing or {@code maxIterations} update steps were made. The returned assignment and SSE
 * always belong to the returned centroids.
 *
 * <p><b>Empty-cluster rule.</b> If a cluster receives no (positive-weight) point, its centroid is
 * re-seeded at the point farthest from its own centroid among points whose cluster keeps other
 * mass, and that point is moved to the empty cluster (each point is used at most once per step). If
 * no such point exists the centroid stays where it was.
 *
 * <p>The inner loops run over primitive arrays without allocation (one set of work arrays per run),
 * so a run costs O(n·k·d) time per iteration and O(n + k·d) extra memory.
 */
public final class Lloyd {

    /** Iteration cap used by {@link #best}. */
    public static final int DEFAULT_MAX_ITERATIONS = 300;

    /** Number of restarts used by {@link #best}. */
    public static final int BEST_OF = 10;

    private Lloyd() {}

    /**
     * {@code nInit} runs from independent k-means++ seedings, keeping the lowest SSE (the first on
     * ties). The seed drives only the public seeding randomness.
     */
    public static LloydResult run(
            double[][] points, int k, int nInit, int maxIterations, long seed) {
        if (nInit < 1) {
            throw new IllegalArgumentException("nInit must be >= 1, got " + nInit);
        }
        checkK(points, k);
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        LloydResult best = null;
        for (int r = 0; r < nInit; r++) {
            double[][] init = KMeansPlusPlus.seed(points, null, k, rng.split());
            LloydResult result = iterate(points, null, init, maxIterations);
            if (best == null || result.sse() < best.sse()) {
                best = result;
            }
        }
        return best;
    }

    /**
     * The reference solution: best of {@value #BEST_OF} k-means++ runs, {@value
     * #DEFAULT_MAX_ITERATIONS} iterations max.
     */
    public static LloydResult best(double[][] points, int k, long seed) {
        return run(points, k, BEST_OF, DEFAULT_MAX_ITERATIONS, seed);
    }

    /** One run from the given initial centroids (k×d, copied, not modified). */
    public static LloydResult runFrom(
            double[][] points, double[][] initialCentroids, int maxIterations) {
        checkK(points, initialCentroids.length);
        return iterate(points, null, initialCentroids, maxIterations);
    }

    /**
     * Weighted Lloyd: point i counts {@code weights[i] ≥ 0} times (weights need not be integers,
     * e.g. noisy counts clipped at 0). Centroids move to weighted means; the SSE is weighted. With
     * integer weights the result equals plain Lloyd on the replicated points.
     */
    public static LloydResult runWeighted(
            double[][] points, double[] weights, double[][] init, int maxIterations) {
        if (weights == null) {
            throw new IllegalArgumentException("weights must not be null (use runFrom)");
        }
        if (points.length == 0) {
            throw new IllegalArgumentException("no points");
        }
        if (init.length < 1) {
            throw new IllegalArgumentException("need at least one initial centroid");
        }
        KMeansPlusPlus.checkWeights(weights, points.length);
        return iterate(points, weights, init, maxIterations);
    }

    private static void checkK(double[][] points, int k) {
        if (points.length == 0) {
            throw new IllegalArgumentException("no points");
        }
        if (k < 1 || k > points.length) {
            throw new IllegalArgumentException("k must be in 1.." + points.length + ", got " + k);
        }
    }

    private static LloydResult iterate(
            double[][] points, double[] weights, double[][] init, int maxIterations) {
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must be >= 0, got " + maxIterations);
        }
        int n = points.length;
        int k = init.length;
        int d = points[0].length;
        double[] c = new double[k * d];
        for (int j = 0; j < k; j++) {
            if (init[j].length != d) {
                throw new IllegalArgumentException(
                        "initial centroid "
                                + j
                                + " has dimension "
                                + init[j].length
                                + ", points "
                                + d);
            }
            System.arraycopy(init[j], 0, c, j * d, d);
        }
        int[] assignment = new int[n];
        Arrays.fill(assignment, -1);
        double[] dist = new double[n];
        Step step =
                new Step(
                        points,
                        weights,
                        assignment,
                        dist,
                        c,
                        new double[k * d],
                        new double[k],
                        k,
                        d);
        int iterations = 0;
        double sse;
        while (true) {
            int changed = 0;
            sse = 0.0;
            for (int i = 0; i < n; i++) {
                double[] p = points[i];
                int bestJ = NearestPoint.of(c, d, p);
                double best = NearestPoint.squaredDistance(c, d, bestJ, p);
                if (assignment[i] != bestJ) {
                    assignment[i] = bestJ;
                    changed++;
                }
                dist[i] = best;
                sse += weights == null ? best : weights[i] * best;
            }
            if ((iterations > 0 && changed == 0) || iterations >= maxIterations) {
                break;
            }
            update(step);
            iterations++;
        }
        double[][] centroids = new double[k][d];
        for (int j = 0; j < k; j++) {
            System.arraycopy(c, j * d, centroids[j], 0, d);
        }
        return new LloydResult(centroids, assignment, sse, iterations);
    }

    /**
     * The arrays one centroid step reads and writes (flat k·d layouts), checked for consistent
     * shapes once per run.
     *
     * @param points the points (n × d)
     * @param weights one weight per point, or null for unit weights
     * @param assignment each point's cluster (read; rewritten by the empty-cluster rule)
     * @param dist each point's squared distance to its centroid (consumed: marked -1 when used)
     * @param centroids the flat centroids (k·d), updated in place
     * @param sums scratch: per-cluster weighted sums (k·d)
     * @param mass scratch: per-cluster weights (k)
     * @param k number of clusters
     * @param d dimension
     */
    private record Step(
            double[][] points,
            double[] weights,
            int[] assignment,
            double[] dist,
            double[] centroids,
            double[] sums,
            double[] mass,
            int k,
            int d) {
        Step {
            int n = points.length;
            if ((weights != null && weights.length != n)
                    || assignment.length != n
                    || dist.length != n
                    || centroids.length != k * d
                    || sums.length != k * d
                    || mass.length != k) {
                throw new IllegalArgumentException("inconsistent Lloyd step shapes");
            }
        }
    }

    /**
     * Centroid step with the empty-cluster rule (see {@link Step} for what it reads and writes).
     */
    private static void update(Step step) {
        double[][] points = step.points();
        double[] weights = step.weights();
        int[] assignment = step.assignment();
        double[] dist = step.dist();
        double[] c = step.centroids();
        double[] sums = step.sums();
        double[] mass = step.mass();
        int k = step.k();
        int d = step.d();
        int n = points.length;
        Arrays.fill(sums, 0.0);
        Arrays.fill(mass, 0.0);
        for (int i = 0; i < n; i++) {
            double w = weights == null ? 1.0 : weights[i];
            if (w == 0.0) {
                continue;
            }
            int off = assignment[i] * d;
            double[] p = points[i];
            for (int t = 0; t < d; t++) {
                sums[off + t] += w * p[t];
            }
            mass[assignment[i]] += w;
        }
        for (int j = 0; j < k; j++) {
            if (mass[j] > 0) {
                continue;
            }
            int far = -1;
            for (int i = 0; i < n; i++) {
                double w = weights == null ? 1.0 : weights[i];
                if (w > 0
                        && dist[i] >= 0
                        && mass[assignment[i]] > w
                        && (far < 0 || dist[i] > dist[far])) {
                    far = i;
                }
            }
            if (far < 0) {
                continue;
            }
            double w = weights == null ? 1.0 : weights[far];
            int from = assignment[far];
            double[] p = points[far];
            for (int t = 0; t < d; t++) {
                sums[from * d + t] -= w * p[t];
                sums[j * d + t] = w * p[t];
            }
            mass[from] -= w;
            mass[j] = w;
            assignment[far] = j;
            dist[far] = -1.0;
        }
        for (int j = 0; j < k; j++) {
            if (mass[j] > 0) {
                double inv = 1.0 / mass[j];
                for (int t = 0; t < d; t++) {
                    c[j * d + t] = sums[j * d + t] * inv;
                }
            }
        }
    }
}
