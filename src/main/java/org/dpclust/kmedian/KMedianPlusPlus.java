package org.dpclust.kmedian;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.Metric;

/**
 * k-median++ (docs/algorithms.md#k-median-seeding): the first centre uniform among candidates, each
 * further one with probability ∝ D(u, F)^power, D(u, F) = min_{f ∈ F} ρ(u, f); power 1 is
 * k-median++ (D sampling), power 2 is k-means++ (D² sampling). O(|candidates| k) distance
 * evaluations. If every remaining weight is 0 (fewer distinct points than k), the next centre is
 * uniform among the candidates not yet chosen.
 *
 * <p>Not private when the candidates are the demand points (NDP-kmedian++). Run on the public
 * universe (all of U, the DP-kmedian++ baseline) it reads no private data, and its randomness is
 * public ({@code SplittableRandom}, not privacy noise).
 */
public final class KMedianPlusPlus {
    private KMedianPlusPlus() {}

    /**
     * @param candidates universe indices to sample from (repeats allowed; a repeated point has
     *     proportionally more weight)
     * @return k distinct universe indices
     * @throws IllegalArgumentException if the candidates hold fewer than k distinct points
     */
    public static int[] select(
            Metric metric, int[] candidates, int k, int power, SplittableRandom rng) {
        if (power != 1 && power != 2) {
            throw new IllegalArgumentException("power must be 1 or 2, got " + power);
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        int m = candidates.length;
        double[] w = new double[m];
        boolean[] chosen = new boolean[metric.size()];
        int[] out = new int[k];
        Arrays.fill(w, Double.POSITIVE_INFINITY);
        for (int c = 0; c < k; c++) {
            double total = 0;
            for (int a = 0; a < m; a++) {
                total += chosen[candidates[a]] ? 0 : (c == 0 ? 1 : w[a]);
            }
            int pick = -1;
            if (total > 0) {
                double target = rng.nextDouble() * total; // public randomness (not privacy noise)
                for (int a = 0; a < m && pick < 0; a++) {
                    double wa = chosen[candidates[a]] ? 0 : (c == 0 ? 1 : w[a]);
                    target -= wa;
                    if (target < 0 && wa > 0) {
                        pick = a;
                    }
                }
                for (int a = m - 1; pick < 0 && a >= 0; a--) { // rounding at the end
                    if (!chosen[candidates[a]] && (c == 0 || w[a] > 0)) {
                        pick = a;
                    }
                }
            } else {
                pick = uniformUnchosen(candidates, chosen, rng);
            }
            int f = candidates[pick];
            out[c] = f;
            chosen[f] = true;
            for (int a = 0; a < m; a++) {
                double d = metric.distance(candidates[a], f);
                w[a] = Math.min(w[a], power == 2 ? d * d : d);
            }
        }
        return out;
    }

    private static int uniformUnchosen(int[] candidates, boolean[] chosen, SplittableRandom rng) {
        int free = 0;
        for (int x : candidates) {
            free += chosen[x] ? 0 : 1;
        }
        if (free == 0) {
            throw new IllegalArgumentException("fewer distinct candidates than k");
        }
        int r = rng.nextInt(free); // public randomness (not privacy noise)
        for (int a = 0; a < candidates.length; a++) {
            if (!chosen[candidates[a]] && r-- == 0) {
                return a;
            }
        }
        throw new IllegalStateException("unreachable");
    }
}
