package org.dpclust.kmeans;

import java.util.SplittableRandom;

/**
 * k-means++ seeding (Arthur &amp; Vassilvitskii 2007) with optional point weights: the first centre
 * is drawn with probability proportional to the weight, each further centre with probability
 * proportional to {@code weight · D²}, D being the distance to the nearest centre chosen so far.
 *
 * <p>Contract: {@code points} is non-empty and rectangular; {@code weights} is {@code null} (all 1)
 * or one finite weight ≥ 0 per point; {@code k ≥ 1}. When no mass is left (all weighted D² are 0,
 * e.g. fewer distinct positive-weight points than k) the next centre is drawn proportionally to
 * weight alone (uniformly if all weights are 0), so centres may repeat. The returned k×d array is
 * fresh. The randomness is public (seeding), never privacy noise.
 */
public final class KMeansPlusPlus {

    private KMeansPlusPlus() {}

    /** Draws k initial centres; see the class contract. */
    public static double[][] seed(
            double[][] points, double[] weights, int k, SplittableRandom rng) {
        if (points.length == 0) {
            throw new IllegalArgumentException("no points to seed from");
        }
        int d = points[0].length;
        double[] flat = seedFlat(Lloyd.flatten(points, d), d, weights, k, rng);
        double[][] centres = new double[k][d];
        for (int c = 0; c < k; c++) {
            System.arraycopy(flat, c * d, centres[c], 0, d);
        }
        return centres;
    }

    /**
     * {@link #seed} over n points stored row-major in {@code points[n·d]}: the k centres row-major
     * in a fresh {@code double[k·d]}, the same draws as {@link #seed} on the same points.
     */
    static double[] seedFlat(
            double[] points, int d, double[] weights, int k, SplittableRandom rng) {
        return seedFlat(points, d, weights, k, rng, 1);
    }

    /**
     * Greedy k-means++ (scikit-learn's default seeding, after Arthur &amp; Vassilvitskii §6): the
     * first centre as in {@link #seed}; each further centre is the best of {@code 2 + ⌊ln k⌋}
     * candidates drawn ∝ weight·D², the one leaving the lowest total weight·D² (the first such
     * candidate on ties). Same contract and fallbacks as {@link #seed}; points row-major in {@code
     * points[n·d]}, centres returned row-major in a fresh {@code double[k·d]}. Public randomness.
     */
    public static double[] seedGreedy(
            double[] points, int d, double[] weights, int k, SplittableRandom rng) {
        return seedFlat(points, d, weights, k, rng, 2 + (int) Math.log(k));
    }

    /**
     * Each centre after the first is the best of {@code trials} D² draws (with one trial: plain
     * k-means++, the same draws and distances as {@link #seed}).
     */
    private static double[] seedFlat(
            double[] points, int d, double[] weights, int k, SplittableRandom rng, int trials) {
        int n = points.length / d;
        if (n == 0) {
            throw new IllegalArgumentException("no points to seed from");
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        checkWeights(weights, n);
        double[] centres = new double[k * d];
        double[] dist = new double[n];
        double[] candidate = new double[n];
        double[] bestDist = new double[n];
        int first = draw(null, weights, n, rng);
        System.arraycopy(points, first * d, centres, 0, d);
        for (int i = 0; i < n; i++) {
            dist[i] = squared(points, i * d, centres, 0, d);
        }
        for (int c = 1; c < k; c++) {
            int chosen = -1;
            double chosenPotential = Double.POSITIVE_INFINITY;
            for (int t = 0; t < trials; t++) {
                int next = draw(dist, weights, n, rng);
                int off = next * d;
                double potential = 0;
                for (int i = 0; i < n; i++) {
                    double s = Math.min(dist[i], squared(points, i * d, points, off, d));
                    candidate[i] = s;
                    potential += weights == null ? s : weights[i] * s;
                }
                if (chosen < 0 || potential < chosenPotential) {
                    chosen = next;
                    chosenPotential = potential;
                    double[] swap = bestDist;
                    bestDist = candidate;
                    candidate = swap;
                }
            }
            System.arraycopy(points, chosen * d, centres, c * d, d);
            double[] swap = dist;
            dist = bestDist;
            bestDist = swap;
        }
        return centres;
    }

    static void checkWeights(double[] weights, int n) {
        if (weights == null) {
            return;
        }
        if (weights.length != n) {
            throw new IllegalArgumentException(weights.length + " weights for " + n + " points");
        }
        for (int i = 0; i < n; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException(
                        "weight " + i + " must be finite and >= 0, got " + weights[i]);
            }
        }
    }

    /** Index drawn with probability ∝ w_i·dist_i (dist null = 1), falling back as documented. */
    static int draw(double[] dist, double[] weights, int n, SplittableRandom rng) {
        double total = 0.0;
        for (int i = 0; i < n; i++) {
            total += mass(dist, weights, i);
        }
        if (total > 0) {
            double r = rng.nextDouble() * total; // public randomness (not privacy noise)
            double acc = 0.0;
            int last = -1;
            for (int i = 0; i < n; i++) {
                double m = mass(dist, weights, i);
                if (m > 0) {
                    acc += m;
                    last = i;
                    if (r < acc) {
                        return i;
                    }
                }
            }
            return last;
        }
        if (dist != null) {
            return draw(null, weights, n, rng);
        }
        return rng.nextInt(n); // public randomness (not privacy noise)
    }

    private static double mass(double[] dist, double[] weights, int i) {
        double w = weights == null ? 1.0 : weights[i];
        return dist == null ? w : w * dist[i];
    }

    /** Σ_j (a[ao + j] − b[bo + j])², in index order. */
    static double squared(double[] a, int ao, double[] b, int bo, int d) {
        double s = 0.0;
        for (int j = 0; j < d; j++) {
            double diff = a[ao + j] - b[bo + j];
            s += diff * diff;
        }
        return s;
    }
}
