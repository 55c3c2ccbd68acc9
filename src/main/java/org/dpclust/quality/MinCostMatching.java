package org.dpclust.quality;

import java.util.Arrays;

/**
 * Minimum-cost perfect matching of a square cost matrix (the Hungarian algorithm with potentials,
 * O(K³)), used to pair released centroids with original ones.
 *
 * <p>Contract: {@link #solve} takes a K×K matrix of finite costs (K ≥ 0) and returns {@code match}
 * with {@code match[row] = column}, a permutation minimising {@code Σ cost[row][match[row]]}. Ties
 * are broken deterministically. Exact for any K; intended for the small K of clustering (hundreds
 * at most).
 */
public final class MinCostMatching {

    private MinCostMatching() {}

    /** Returns the optimal row→column permutation; see the class contract. */
    public static int[] solve(double[][] cost) {
        int n = cost.length;
        for (int i = 0; i < n; i++) {
            if (cost[i].length != n) {
                throw new IllegalArgumentException(
                        "cost matrix must be square, row "
                                + i
                                + " has "
                                + cost[i].length
                                + " entries, expected "
                                + n);
            }
            for (int j = 0; j < n; j++) {
                if (!Double.isFinite(cost[i][j])) {
                    throw new IllegalArgumentException(
                            "cost[" + i + "][" + j + "] is not finite: " + cost[i][j]);
                }
            }
        }
        // 1-based potentials formulation (rows u, columns v, p[col] = row matched to col).
        double[] u = new double[n + 1];
        double[] v = new double[n + 1];
        int[] p = new int[n + 1];
        int[] way = new int[n + 1];
        double[] minv = new double[n + 1];
        boolean[] used = new boolean[n + 1];
        for (int i = 1; i <= n; i++) {
            p[0] = i;
            int j0 = 0;
            Arrays.fill(minv, Double.POSITIVE_INFINITY);
            Arrays.fill(used, false);
            do {
                used[j0] = true;
                int i0 = p[j0];
                double delta = Double.POSITIVE_INFINITY;
                int j1 = -1;
                for (int j = 1; j <= n; j++) {
                    if (!used[j]) {
                        double cur = cost[i0 - 1][j - 1] - u[i0] - v[j];
                        if (cur < minv[j]) {
                            minv[j] = cur;
                            way[j] = j0;
                        }
                        if (minv[j] < delta) {
                            delta = minv[j];
                            j1 = j;
                        }
                    }
                }
                for (int j = 0; j <= n; j++) {
                    if (used[j]) {
                        u[p[j]] += delta;
                        v[j] -= delta;
                    } else {
                        minv[j] -= delta;
                    }
                }
                j0 = j1;
            } while (p[j0] != 0);
            do {
                int j1 = way[j0];
                p[j0] = p[j1];
                j0 = j1;
            } while (j0 != 0);
        }
        int[] match = new int[n];
        for (int j = 1; j <= n; j++) {
            match[p[j] - 1] = j - 1;
        }
        return match;
    }
}
