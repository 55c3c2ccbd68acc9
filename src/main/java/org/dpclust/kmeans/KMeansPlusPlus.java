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
        int n = points.length;
        if (n == 0) {
            throw new IllegalArgumentException("no points to seed from");
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        checkWeights(weights, n);
        int d = points[0].length;
        double[][] centres = new double[k][];
        double[] dist = new double[n];
        int first = draw(null, weights, n, rng);
        centres[0] = points[first].clone();
        for (int i = 0; i < n; i++) {
            dist[i] = squared(points[i], centres[0], d);
        }
        for (int c = 1; c < k; c++) {
            int next = draw(dist, weights, n, rng);
            centres[c] = points[next].clone();
            double[] centre = centres[c];
            for (int i = 0; i < n; i++) {
                double s = squared(points[i], centre, d);
                if (s < dist[i]) {
                    dist[i] = s;
                }
            }
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
    private static int draw(double[] dist, double[] weights, int n, SplittableRandom rng) {
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

    static double squared(double[] a, double[] b, int d) {
        double s = 0.0;
        for (int j = 0; j < d; j++) {
            double diff = a[j] - b[j];
            s += diff * diff;
        }
        return s;
    }
}
