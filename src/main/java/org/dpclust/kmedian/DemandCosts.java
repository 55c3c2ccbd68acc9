package org.dpclust.kmedian;

import org.dpclust.geometry.Metric;

/**
 * The demand-to-universe cost matrix c[j][u] = ρ(d_j, u)^power for the demand multiset D = (d_j)
 * (indices into the public universe U): power 1 is k-median, power 2 the k-means variant (Fan et
 * al. Appendix B). Precomputed once as floats (|D|·|U|·4 bytes, 20 MB for 500 × 10 000) so that the
 * local searches never call the metric; computing it costs |D| metric rows.
 *
 * <p>Private: this matrix is a function of the demand set D. Sensitivity of any clustering cost
 * cost(F, D) = Σ_j min_{f∈F} c[j][f] under adding/removing one demand point: at most {@link
 * #sensitivity()} = Δ^power, where Δ is the public diameter bound (>= diam(U)) given at
 * construction.
 */
public final class DemandCosts {
    private final float[][] cost;
    private final int universeSize;
    private final int power;
    private final double sensitivity;

    private DemandCosts(float[][] cost, int universeSize, int power, double sensitivity) {
        this.cost = cost;
        this.universeSize = universeSize;
        this.power = power;
        this.sensitivity = sensitivity;
    }

    /**
     * @param metric the public universe's metric
     * @param demand demand points as universe indices (repeats allowed)
     * @param power 1 (k-median) or 2 (k-means)
     * @param delta public upper bound on diam(U)
     */
    public static DemandCosts of(Metric metric, int[] demand, int power, double delta) {
        if (power != 1 && power != 2) {
            throw new IllegalArgumentException("power must be 1 or 2, got " + power);
        }
        if (!(delta > 0) || Double.isInfinite(delta)) {
            throw new IllegalArgumentException("delta must be finite and > 0, got " + delta);
        }
        int n = metric.size();
        float[][] c = new float[demand.length][];
        for (int j = 0; j < demand.length; j++) {
            if (demand[j] < 0 || demand[j] >= n) {
                throw new IllegalArgumentException(
                        "demand[" + j + "] = " + demand[j] + " outside 0.." + (n - 1));
            }
            double[] row = metric.distancesFrom(demand[j]);
            c[j] = new float[n];
            for (int u = 0; u < n; u++) {
                c[j][u] = (float) (power == 2 ? row[u] * row[u] : row[u]);
            }
        }
        return new DemandCosts(c, n, power, power == 2 ? delta * delta : delta);
    }

    public int demandSize() {
        return cost.length;
    }

    public int universeSize() {
        return universeSize;
    }

    public int power() {
        return power;
    }

    /** Δ^power: the add/remove-one sensitivity of every clustering cost. */
    public double sensitivity() {
        return sensitivity;
    }

    /** c[j][u]. */
    public double cost(int j, int u) {
        return cost[j][u];
    }

    float[] row(int j) {
        return cost[j];
    }

    /** cost(F, D) = Σ_j min_{f ∈ F} c[j][f], computed naively in O(|D| k). */
    public double cost(int[] centres) {
        double total = 0;
        for (float[] row : cost) {
            double best = Double.POSITIVE_INFINITY;
            for (int f : centres) {
                best = Math.min(best, row[f]);
            }
            total += best;
        }
        return total;
    }
}
