package org.dpclust.quality;

import java.util.HashMap;
import java.util.Map;

/**
 * Clustering quality measures (docs/algorithms.md#metrics). All methods are pure functions of their
 * arguments and never modify them.
 *
 * <p>Contract: point and centroid arrays are rectangular with equal dimension; centroid arrays are
 * non-empty; partitions ({@code int[]} labels, arbitrary integer values) compared with each other
 * have equal length. Nearest-centroid ties go to the lowest index. Partition measures follow
 * Manning, Raghavan, Schütze, <i>Introduction to Information Retrieval</i> (2008), §16.3 (purity,
 * NMI with arithmetic-mean normalisation, Rand index) and Hubert &amp; Arabie (1985) (adjusted Rand
 * index). Degenerate cases are documented per method.
 */
public final class ClusteringMetrics {

    private ClusteringMetrics() {}

    /** Sum over points of the squared Euclidean distance to the nearest centroid. */
    public static double sse(double[][] points, double[][] centroids) {
        checkCentroids(points, centroids);
        double total = 0.0;
        for (double[] p : points) {
            total += nearestSquared(p, centroids);
        }
        return total;
    }

    /**
     * {@code sse / referenceSse}, normally against {@code Lloyd.best}. A reference of 0 gives 1
     * when {@code sse} is 0 too and +∞ otherwise.
     *
     * @throws IllegalArgumentException if either argument is negative or NaN
     */
    public static double relativeSse(double sse, double referenceSse) {
        if (!(sse >= 0) || !(referenceSse >= 0)) {
            throw new IllegalArgumentException(
                    "SSE values must be >= 0, got " + sse + " / " + referenceSse);
        }
        if (referenceSse == 0.0) {
            return sse == 0.0 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        return sse / referenceSse;
    }

    /** Sum over points of the (unsquared) Euclidean distance to the nearest centroid. */
    public static double kMedianCost(double[][] points, double[][] centroids) {
        checkCentroids(points, centroids);
        double total = 0.0;
        for (double[] p : points) {
            total += Math.sqrt(nearestSquared(p, centroids));
        }
        return total;
    }

    /** Index of the nearest centroid (squared Euclidean, ties to the lowest index) per point. */
    public static int[] assign(double[][] points, double[][] centroids) {
        checkCentroids(points, centroids);
        int[] out = new int[points.length];
        for (int i = 0; i < points.length; i++) {
            double best = Double.POSITIVE_INFINITY;
            for (int c = 0; c < centroids.length; c++) {
                double dist = squared(points[i], centroids[c]);
                if (dist < best) {
                    best = dist;
                    out[i] = c;
                }
            }
        }
        return out;
    }

    /**
     * Normalised mutual information {@code I(A;B) / ((H(A) + H(B)) / 2)} (MRS eq. 16.2), in [0, 1].
     * When both partitions are a single block (both entropies 0) the partitions are identical and
     * the result is 1.
     */
    public static double nmi(int[] a, int[] b) {
        Contingency t = new Contingency(a, b);
        double n = t.n;
        if (n == 0) {
            throw new IllegalArgumentException("partitions are empty");
        }
        double hA = entropy(t.rowSums, n);
        double hB = entropy(t.colSums, n);
        double mi = 0.0;
        for (int i = 0; i < t.rows; i++) {
            for (int j = 0; j < t.cols; j++) {
                long nij = t.counts[i][j];
                if (nij > 0) {
                    mi += (nij / n) * Math.log(n * nij / ((double) t.rowSums[i] * t.colSums[j]));
                }
            }
        }
        if (hA + hB == 0.0) {
            return 1.0;
        }
        return Math.max(0.0, Math.min(1.0, mi / ((hA + hB) / 2.0)));
    }

    /**
     * Rand index {@code (TP + TN) / C(n, 2)} over all point pairs (MRS §16.3). For fewer than two
     * points there are no pairs and the result is 1.
     */
    public static double randIndex(int[] a, int[] b) {
        Contingency t = new Contingency(a, b);
        double pairs = choose2(t.n);
        if (pairs == 0) {
            return 1.0;
        }
        double sameBoth = t.sumChoose2Cells();
        double sameA = Contingency.sumChoose2(t.rowSums);
        double sameB = Contingency.sumChoose2(t.colSums);
        double tn = pairs - sameA - sameB + sameBoth;
        return (sameBoth + tn) / pairs;
    }

    /**
     * Adjusted Rand index of Hubert &amp; Arabie (1985): {@code (Σ C(n_ij,2) − E) / (½(Σ C(a_i,2) +
     * Σ C(b_j,2)) − E)} with {@code E = Σ C(a_i,2) Σ C(b_j,2) / C(n,2)}. 1 for identical
     * partitions, about 0 for independent ones, may be negative. When the denominator is 0 (both
     * partitions trivial in the same way, e.g. both a single block or both all singletons) the
     * result is 1.
     */
    public static double adjustedRandIndex(int[] a, int[] b) {
        Contingency t = new Contingency(a, b);
        double pairs = choose2(t.n);
        double index = t.sumChoose2Cells();
        double sumA = Contingency.sumChoose2(t.rowSums);
        double sumB = Contingency.sumChoose2(t.colSums);
        double expected = pairs == 0 ? 0.0 : sumA * sumB / pairs;
        double max = 0.5 * (sumA + sumB);
        if (max - expected == 0.0) {
            return 1.0;
        }
        return (index - expected) / (max - expected);
    }

    /**
     * Purity {@code (1/N) Σ_k max_j |ω_k ∩ c_j|} (MRS eq. 16.1) of {@code clusters} with respect to
     * the ground-truth {@code classes}, in (0, 1].
     */
    public static double purity(int[] clusters, int[] classes) {
        Contingency t = new Contingency(clusters, classes);
        if (t.n == 0) {
            throw new IllegalArgumentException("partitions are empty");
        }
        long sum = 0;
        for (int i = 0; i < t.rows; i++) {
            long best = 0;
            for (int j = 0; j < t.cols; j++) {
                best = Math.max(best, t.counts[i][j]);
            }
            sum += best;
        }
        return (double) sum / t.n;
    }

    /**
     * Average perturbation (Nguyen et al., docs/algorithms.md#metrics): {@code (1/K) Σ_k ‖m_k −
     * m̃_π(k)‖₁ / ‖m_k‖₁}, where π is the one-to-one matching of released to original centroids
     * that minimises this sum (exact, via {@link MinCostMatching}).
     *
     * @throws IllegalArgumentException if the counts or dimensions differ, or an original centroid
     *     has ‖m_k‖₁ = 0 (the ratio is undefined)
     */
    public static double averagePerturbation(double[][] original, double[][] released) {
        int k = original.length;
        if (k == 0 || released.length != k) {
            throw new IllegalArgumentException(
                    "need the same positive number of original and released centroids, got "
                            + k
                            + " and "
                            + released.length);
        }
        double[][] cost = new double[k][k];
        for (int i = 0; i < k; i++) {
            double norm = 0.0;
            for (double x : original[i]) {
                norm += Math.abs(x);
            }
            if (norm == 0.0) {
                throw new IllegalArgumentException(
                        "original centroid " + i + " has L1 norm 0; perturbation ratio undefined");
            }
            for (int j = 0; j < k; j++) {
                checkDimension(original[i], released[j]);
                double diff = 0.0;
                for (int c = 0; c < original[i].length; c++) {
                    diff += Math.abs(original[i][c] - released[j][c]);
                }
                cost[i][j] = diff / norm;
            }
        }
        int[] match = MinCostMatching.solve(cost);
        double sum = 0.0;
        for (int i = 0; i < k; i++) {
            sum += cost[i][match[i]];
        }
        return sum / k;
    }

    /**
     * Mean over {@code trueCenters} of the Euclidean distance to the nearest of {@code centroids}
     * (several true centers may share a centroid).
     */
    public static double meanMatchedDistance(double[][] trueCenters, double[][] centroids) {
        if (trueCenters.length == 0) {
            throw new IllegalArgumentException("no true centers");
        }
        checkCentroids(trueCenters, centroids);
        double sum = 0.0;
        for (double[] t : trueCenters) {
            sum += Math.sqrt(nearestSquared(t, centroids));
        }
        return sum / trueCenters.length;
    }

    private static double nearestSquared(double[] p, double[][] centroids) {
        double best = Double.POSITIVE_INFINITY;
        for (double[] c : centroids) {
            best = Math.min(best, squared(p, c));
        }
        return best;
    }

    /** The squared l2 distance of a and b, summed over coordinates in index order. */
    public static double squared(double[] a, double[] b) {
        double s = 0.0;
        for (int j = 0; j < a.length; j++) {
            double diff = a[j] - b[j];
            s += diff * diff;
        }
        return s;
    }

    private static void checkCentroids(double[][] points, double[][] centroids) {
        if (centroids.length == 0) {
            throw new IllegalArgumentException("no centroids");
        }
        int d = centroids[0].length;
        for (double[] c : centroids) {
            if (c.length != d) {
                throw new IllegalArgumentException(
                        "centroids have mixed dimensions " + d + " and " + c.length);
            }
        }
        if (points.length > 0 && points[0].length != d) {
            throw new IllegalArgumentException(
                    "points have dimension " + points[0].length + ", centroids " + d);
        }
    }

    private static void checkDimension(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(
                    "dimension mismatch: " + a.length + " vs " + b.length);
        }
    }

    private static double entropy(long[] sums, double n) {
        double h = 0.0;
        for (long s : sums) {
            if (s > 0) {
                double p = s / n;
                h -= p * Math.log(p);
            }
        }
        return h;
    }

    private static double choose2(long m) {
        return m * (m - 1) / 2.0;
    }

    /** Contingency table of two partitions with arbitrary integer label values. */
    private static final class Contingency {
        final long n;
        final int rows;
        final int cols;
        final long[][] counts;
        final long[] rowSums;
        final long[] colSums;

        Contingency(int[] a, int[] b) {
            if (a.length != b.length) {
                throw new IllegalArgumentException(
                        "partitions have different lengths " + a.length + " and " + b.length);
            }
            int[] ia = compact(a);
            int[] ib = compact(b);
            rows = max(ia) + 1;
            cols = max(ib) + 1;
            counts = new long[rows][cols];
            rowSums = new long[rows];
            colSums = new long[cols];
            for (int i = 0; i < a.length; i++) {
                counts[ia[i]][ib[i]]++;
                rowSums[ia[i]]++;
                colSums[ib[i]]++;
            }
            n = a.length;
        }

        double sumChoose2Cells() {
            double s = 0.0;
            for (long[] row : counts) {
                s += sumChoose2(row);
            }
            return s;
        }

        static double sumChoose2(long[] values) {
            double s = 0.0;
            for (long v : values) {
                s += choose2(v);
            }
            return s;
        }

        private static int[] compact(int[] labels) {
            Map<Integer, Integer> ids = new HashMap<>();
            int[] out = new int[labels.length];
            for (int i = 0; i < labels.length; i++) {
                out[i] = ids.computeIfAbsent(labels[i], key -> ids.size());
            }
            return out;
        }

        private static int max(int[] v) {
            int m = -1;
            for (int x : v) {
                m = Math.max(m, x);
            }
            return m;
        }
    }
}
