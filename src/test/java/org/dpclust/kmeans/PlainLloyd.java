package org.dpclust.kmeans;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.NearestPoint;

/**
 * The plain O(n·k·d) Lloyd loop and k-means++ seeding over per-point arrays as they were before the
 * flat, bounded implementation: the reference {@link LloydTest} compares {@link Lloyd} and {@link
 * KMeansPlusPlus} against bit for bit.
 */
final class PlainLloyd {
    private PlainLloyd() {}

    static LloydResult run(double[][] points, int k, int nInit, int maxIterations, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int d = points[0].length;
        LloydResult best = null;
        for (int r = 0; r < nInit; r++) {
            double[] flat =
                    KMeansPlusPlus.seedGreedy(Lloyd.flatten(points, d), d, null, k, rng.split());
            double[][] init = new double[k][];
            for (int j = 0; j < k; j++) {
                init[j] = Arrays.copyOfRange(flat, j * d, (j + 1) * d);
            }
            LloydResult result = iterate(points, null, init, maxIterations);
            if (best == null || result.sse() < best.sse()) {
                best = result;
            }
        }
        return best;
    }

    /** Draws k initial centres; see the class contract. */
    static double[][] seed(double[][] points, double[] weights, int k, SplittableRandom rng) {
        int n = points.length;
        if (n == 0) {
            throw new IllegalArgumentException("no points to seed from");
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        int d = points[0].length;
        double[][] centres = new double[k][];
        double[] dist = new double[n];
        int first = KMeansPlusPlus.draw(null, weights, n, rng);
        centres[0] = points[first].clone();
        for (int i = 0; i < n; i++) {
            dist[i] = KMeansPlusPlus.squared(points[i], 0, centres[0], 0, d);
        }
        for (int c = 1; c < k; c++) {
            int next = KMeansPlusPlus.draw(dist, weights, n, rng);
            centres[c] = points[next].clone();
            double[] centre = centres[c];
            for (int i = 0; i < n; i++) {
                double s = KMeansPlusPlus.squared(points[i], 0, centre, 0, d);
                if (s < dist[i]) {
                    dist[i] = s;
                }
            }
        }
        return centres;
    }

    static LloydResult iterate(
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
