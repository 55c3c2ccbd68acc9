package org.dpclust.kmeans;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

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
 * <p><b>Implementation.</b> The points are copied once into one row-major {@code double[n·d]}
 * shared by all restarts (no per-point objects in the loops). The assignment step skips points
 * whose nearest centroid cannot have changed (Hamerly 2010): each point keeps an upper bound on the
 * distance to its centroid and a lower bound on the distance to every other one, moved by how far
 * the centroids moved; a point is searched only when the bounds do not separate by a relative
 * margin of {@value #MARGIN} (far above the rounding of the bounds, which are rounded outwards). A
 * skipped point's nearest centroid is therefore the unique strict minimum the plain search would
 * find, so the assignments, centroids, SSE and iteration counts are bit-for-bit those of the plain
 * O(n·k·d) loop (the SSE is summed in point order from the exact squared distances). Restarts of
 * {@link #run} run in parallel on the common fork-join pool; each restart's seeding randomness is
 * split from the seed in restart order and the lowest SSE wins (first restart on ties), so the
 * result does not depend on the number of cores.
 */
public final class Lloyd {

    /** Iteration cap used by {@link #best}. */
    public static final int DEFAULT_MAX_ITERATIONS = 300;

    /** Number of restarts used by {@link #best}. */
    public static final int BEST_OF = 10;

    /** Relative margin by which the bounds must separate before a point's search is skipped. */
    static final double MARGIN = 1e-8;

    /** Relative inflation of computed distances, covering their rounding error for any d ≤ 10^5. */
    private static final double ROUNDING = 1e-10;

    private Lloyd() {}

    /**
     * {@code nInit} runs from independent greedy k-means++ seedings ({@link
     * KMeansPlusPlus#seedGreedy}, scikit-learn's default), keeping the lowest SSE (the first on
     * ties). The seed drives only the public seeding randomness.
     */
    public static LloydResult run(
            double[][] points, int k, int nInit, int maxIterations, long seed) {
        if (nInit < 1) {
            throw new IllegalArgumentException("nInit must be >= 1, got " + nInit);
        }
        checkK(points, k);
        checkIterations(maxIterations);
        int d = points[0].length;
        double[] flat = flatten(points, d);
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        SplittableRandom[] seeds = new SplittableRandom[nInit]; // public: one per restart
        for (int r = 0; r < nInit; r++) {
            seeds[r] = rng.split();
        }
        LloydResult[] results = new LloydResult[nInit];
        IntStream restarts = IntStream.range(0, nInit);
        if (nInit > 1 && Runtime.getRuntime().availableProcessors() > 1) {
            restarts = restarts.parallel();
        }
        restarts.forEach(
                r ->
                        results[r] =
                                iterate(
                                        flat,
                                        d,
                                        null,
                                        KMeansPlusPlus.seedGreedy(flat, d, null, k, seeds[r]),
                                        maxIterations));
        LloydResult best = results[0];
        for (int r = 1; r < nInit; r++) {
            if (results[r].sse() < best.sse()) {
                best = results[r];
            }
        }
        return best;
    }

    /**
     * The reference solution: best of {@value #BEST_OF} greedy k-means++ runs, {@value
     * #DEFAULT_MAX_ITERATIONS} iterations max.
     */
    public static LloydResult best(double[][] points, int k, long seed) {
        return run(points, k, BEST_OF, DEFAULT_MAX_ITERATIONS, seed);
    }

    /** One run from the given initial centroids (k×d, copied, not modified). */
    public static LloydResult runFrom(
            double[][] points, double[][] initialCentroids, int maxIterations) {
        checkK(points, initialCentroids.length);
        checkIterations(maxIterations);
        int d = points[0].length;
        return iterate(
                flatten(points, d), d, null, flattenInit(initialCentroids, d), maxIterations);
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
        checkIterations(maxIterations);
        int d = points[0].length;
        return iterate(flatten(points, d), d, weights, flattenInit(init, d), maxIterations);
    }

    private static void checkK(double[][] points, int k) {
        if (points.length == 0) {
            throw new IllegalArgumentException("no points");
        }
        if (k < 1 || k > points.length) {
            throw new IllegalArgumentException("k must be in 1.." + points.length + ", got " + k);
        }
    }

    private static void checkIterations(int maxIterations) {
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must be >= 0, got " + maxIterations);
        }
    }

    /** The points row-major in one fresh array (rows must all have length d). */
    static double[] flatten(double[][] points, int d) {
        double[] flat = new double[points.length * d];
        for (int i = 0; i < points.length; i++) {
            if (points[i].length != d) {
                throw new IllegalArgumentException(
                        "point " + i + " has dimension " + points[i].length + ", expected " + d);
            }
            System.arraycopy(points[i], 0, flat, i * d, d);
        }
        return flat;
    }

    private static double[] flattenInit(double[][] init, int d) {
        double[] c = new double[init.length * d];
        for (int j = 0; j < init.length; j++) {
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
        return c;
    }

    /** Σ_t (p_t − c_t)² of point i and centroid j, in index order (the plain loop's value). */
    private static double sq(double[] pts, int i, double[] c, int j, int d) {
        int po = i * d;
        int co = j * d;
        double s = 0;
        for (int t = 0; t < d; t++) {
            double e = pts[po + t] - c[co + t];
            s += e * e;
        }
        return s;
    }

    /** Upper bound on the exact distance whose rounded square is {@code squared}. */
    private static double up(double squared) {
        return Math.sqrt(squared) * (1 + ROUNDING);
    }

    /** Lower bound on the exact distance whose rounded square is {@code squared}. */
    private static double down(double squared) {
        return Math.sqrt(squared) * (1 - ROUNDING);
    }

    private static LloydResult iterate(
            double[] pts, int d, double[] weights, double[] c, int maxIterations) {
        int n = pts.length / d;
        int k = c.length / d;
        int[] assignment = new int[n];
        Arrays.fill(assignment, -1);
        double[] upper = new double[n];
        double[] lower = new double[n];
        double[] half = new double[k];
        double[] old = new double[k * d];
        double[] sums = new double[k * d];
        double[] mass = new double[k];
        double[] moved = new double[k];
        int iterations = 0;
        boolean bounded = false;
        while (true) {
            int changed = 0;
            if (bounded) {
                halfSeparations(c, k, d, half);
            }
            for (int i = 0; i < n; i++) {
                int a = assignment[i];
                if (bounded) {
                    double m = Math.max(half[a], lower[i]);
                    if (upper[i] * (1 + MARGIN) < m) {
                        continue;
                    }
                    upper[i] = up(sq(pts, i, c, a, d));
                    if (upper[i] * (1 + MARGIN) < m) {
                        continue;
                    }
                }
                int best = 0;
                double bestD = Double.POSITIVE_INFINITY;
                double second = Double.POSITIVE_INFINITY;
                for (int j = 0; j < k; j++) {
                    double s = sq(pts, i, c, j, d);
                    if (s < bestD) {
                        second = bestD;
                        bestD = s;
                        best = j;
                    } else if (s < second) {
                        second = s;
                    }
                }
                if (a != best) {
                    assignment[i] = best;
                    changed++;
                }
                upper[i] = up(bestD);
                lower[i] = down(second);
            }
            if ((iterations > 0 && changed == 0) || iterations >= maxIterations) {
                break;
            }
            System.arraycopy(c, 0, old, 0, c.length);
            update(pts, d, weights, assignment, c, sums, mass, upper, lower);
            moveBounds(old, c, k, d, moved, assignment, upper, lower);
            bounded = true;
            iterations++;
        }
        double sse = 0.0;
        for (int i = 0; i < n; i++) {
            double s = sq(pts, i, c, assignment[i], d);
            sse += weights == null ? s : weights[i] * s;
        }
        double[][] centroids = new double[k][d];
        for (int j = 0; j < k; j++) {
            System.arraycopy(c, j * d, centroids[j], 0, d);
        }
        return new LloydResult(centroids, assignment, sse, iterations);
    }

    /** half[j] ≤ half the exact distance from centroid j to its nearest other centroid. */
    private static void halfSeparations(double[] c, int k, int d, double[] half) {
        Arrays.fill(half, Double.POSITIVE_INFINITY);
        for (int j = 0; j < k; j++) {
            for (int l = j + 1; l < k; l++) {
                double h = 0.5 * down(sq(c, j, c, l, d));
                half[j] = Math.min(half[j], h);
                half[l] = Math.min(half[l], h);
            }
        }
    }

    /**
     * Widens the bounds by how far each centroid moved: a point's upper bound grows by its own
     * centroid's move, its lower bound shrinks by the largest move of any other centroid (rounded
     * outwards).
     */
    private static void moveBounds(
            double[] old,
            double[] c,
            int k,
            int d,
            double[] moved,
            int[] assignment,
            double[] upper,
            double[] lower) {
        int top = 0;
        double first = 0;
        double secondMove = 0;
        for (int j = 0; j < k; j++) {
            moved[j] = up(sq(c, j, old, j, d));
            if (moved[j] > first) {
                secondMove = first;
                first = moved[j];
                top = j;
            } else if (moved[j] > secondMove) {
                secondMove = moved[j];
            }
        }
        for (int i = 0; i < upper.length; i++) {
            int a = assignment[i];
            upper[i] = Math.nextUp(upper[i] + moved[a]);
            double other = a == top ? secondMove : first;
            lower[i] = Math.max(0.0, Math.nextDown(lower[i] - other));
        }
    }

    /**
     * Centroid step with the empty-cluster rule: sums the (weighted) points of each cluster in
     * point order and moves each non-empty centroid to its mean. A point moved by the rule gets
     * bounds that force its search in the next assignment step.
     */
    private static void update(
            double[] pts,
            int d,
            double[] weights,
            int[] assignment,
            double[] c,
            double[] sums,
            double[] mass,
            double[] upper,
            double[] lower) {
        int k = mass.length;
        int n = assignment.length;
        Arrays.fill(sums, 0.0);
        Arrays.fill(mass, 0.0);
        for (int i = 0; i < n; i++) {
            double w = weights == null ? 1.0 : weights[i];
            if (w == 0.0) {
                continue;
            }
            int a = assignment[i];
            int off = a * d;
            int po = i * d;
            for (int t = 0; t < d; t++) {
                sums[off + t] += w * pts[po + t];
            }
            mass[a] += w;
        }
        double[] dist = null;
        for (int j = 0; j < k; j++) {
            if (mass[j] > 0) {
                continue;
            }
            if (dist == null) {
                dist = new double[n];
                for (int i = 0; i < n; i++) {
                    dist[i] = sq(pts, i, c, assignment[i], d);
                }
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
            int po = far * d;
            for (int t = 0; t < d; t++) {
                sums[from * d + t] -= w * pts[po + t];
                sums[j * d + t] = w * pts[po + t];
            }
            mass[from] -= w;
            mass[j] = w;
            assignment[far] = j;
            dist[far] = -1.0;
            upper[far] = Double.POSITIVE_INFINITY;
            lower[far] = 0.0;
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
