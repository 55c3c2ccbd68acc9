package org.dpclust.dashboard;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.dpclust.quality.MinCostMatching;

/**
 * Colours that follow a cluster from one release to the next, so the dashboard shows movement.
 *
 * <p>Contract: {@link #first} gives a stream's first release colours {@code 0..k-1} in centroid
 * order. {@link #next} matches a release's centroids to the previous release's by a minimum-cost
 * assignment (the Hungarian method, optimal, not greedy) on squared Euclidean distance with each
 * coordinate scaled by the declared domain's width; a matched centroid takes its partner's colour.
 * Centroids left over when k grows take the smallest colours used by neither release, so a new
 * cluster never borrows a colour that was on screen a window ago. Colours are palette slots: the
 * page draws colour {@code c} with {@code palette[c % palette.length]}. Same inputs, same colours.
 *
 * <p>Only released (public) centroids and the declared domain are read: this is post-processing of
 * the DP output and spends no privacy budget. Zero-weight centroids are matched like any other.
 */
public final class CentroidColours {
    private CentroidColours() {}

    /** Colours {@code 0..k-1} for a stream's first release. */
    public static int[] first(int k) {
        int[] c = new int[k];
        Arrays.setAll(c, i -> i);
        return c;
    }

    /**
     * The colours of {@code current}'s centroids given the previous release's centroids and
     * colours.
     *
     * @param previous the previous release's centroids
     * @param previousColours their colours (same length as {@code previous})
     * @param current this release's centroids
     * @param lower the declared domain's lower bounds (scales the distance; may be shorter than a
     *     centroid, then unscaled)
     * @param upper the declared domain's upper bounds
     */
    public static int[] next(
            List<List<Double>> previous,
            int[] previousColours,
            List<List<Double>> current,
            List<Double> lower,
            List<Double> upper) {
        if (previous.size() != previousColours.length) {
            throw new IllegalArgumentException(
                    previous.size() + " centroids but " + previousColours.length + " colours");
        }
        int n = previous.size(), m = current.size();
        int[] out = new int[m];
        Arrays.fill(out, -1);
        if (n > 0 && m > 0) {
            double[][] cost = new double[n][m];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < m; j++) {
                    cost[i][j] = distance(previous.get(i), current.get(j), lower, upper);
                }
            }
            int[] match; // match[j] = the previous centroid matched to current j, or -1
            if (n <= m) {
                match = assign(cost, n, m);
            } else {
                double[][] t = new double[m][n];
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < m; j++) {
                        t[j][i] = cost[i][j];
                    }
                }
                int[] rows = assign(t, m, n); // rows[i] = the current centroid matched to i
                match = new int[m];
                Arrays.fill(match, -1);
                for (int i = 0; i < n; i++) {
                    if (rows[i] >= 0) {
                        match[rows[i]] = i;
                    }
                }
            }
            for (int j = 0; j < m; j++) {
                if (match[j] >= 0) {
                    out[j] = previousColours[match[j]];
                }
            }
        }
        BitSet taken = new BitSet();
        for (int c : previousColours) {
            taken.set(c);
        }
        for (int j = 0; j < m; j++) {
            if (out[j] < 0) {
                int c = taken.nextClearBit(0);
                out[j] = c;
                taken.set(c);
            }
        }
        return out;
    }

    private static double distance(
            List<Double> a, List<Double> b, List<Double> lower, List<Double> upper) {
        double s = 0;
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            double w =
                    i < lower.size() && i < upper.size() ? upper.get(i) - lower.get(i) : Double.NaN;
            double d = a.get(i) - b.get(i);
            if (w > 0 && Double.isFinite(w)) {
                d /= w;
            }
            s += d * d;
        }
        return Double.isFinite(s) ? s : 1e30; // a non-finite coordinate: matched last
    }

    /**
     * The minimum-cost assignment of each of {@code n} rows to a distinct one of {@code m >= n}
     * columns: {@link MinCostMatching} on the matrix padded with m − n zero-cost rows; returns, per
     * column, its row or -1.
     */
    static int[] assign(double[][] cost, int n, int m) {
        double[][] square = new double[m][m];
        for (int i = 0; i < n; i++) {
            System.arraycopy(cost[i], 0, square[i], 0, m);
        }
        int[] match = MinCostMatching.solve(square);
        int[] rowOf = new int[m];
        for (int i = 0; i < m; i++) {
            rowOf[match[i]] = i < n ? i : -1;
        }
        return rowOf;
    }
}
