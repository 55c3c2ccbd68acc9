package org.dpclust.kmedian;

import org.dpclust.geometry.Metric;
import org.dpclust.privacy.ExponentialMechanism;

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
 *
 * <p><b>Exact costs ({@link #costUnits}).</b> A floating-point sum over |D| terms has a rounding
 * error that grows with |D| and is not covered by any sensitivity, so the mechanisms never see one:
 * each entry is rounded to a power-of-two grid g = 2^e, q[j][u] = round(c[j][u]/g), and costs are
 * sums of q as longs — exact, so independent of the order of summation, and adding or removing
 * demand point j changes every cost by exactly min_{f∈F} q[j][f]. For the private local search e =
 * {@link #gridExponent()}, the grid of {@link ExponentialMechanism} for Δ^power: then q[j][u] ≤
 * ⌈Δ^power/g⌉, strictly below the mechanism's integer sensitivity Δ̃ = ⌈Δ^power/g⌉ + 1 (Δ^power
 * plus one grid unit). Derivation: ρ(d_j, u) ≤ diam(U) ≤ Δ, squaring and rounding are monotone, so
 * the double value is ≤ the double Δ^power = S; the float entry is ≤ S(1 + 2^−24); S/g &lt; 2^21,
 * so c/g ≤ S/g + 1/8 and round(c/g) ≤ ⌈S/g⌉. Hence the exponential mechanism on these unit costs is
 * exactly ε-DP per draw at any |D|. {@link #cost(int[])} stays the plain floating-point sum, for
 * reports only.
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

    /**
     * The exponent e of the private grid g = 2^e = {@link ExponentialMechanism#granularity} of
     * {@link #sensitivity()} (see the class comment).
     */
    public int gridExponent() {
        return ExponentialMechanism.gridExponent(sensitivity);
    }

    /**
     * A grid 2^30 times finer than {@link #gridExponent()} (entries up to about 2^51 units), for
     * the non-private local search: exact sums at float precision.
     */
    int fineExponent() {
        return gridExponent() - 30;
    }

    /** q = round(c / 2^unitExponent): an entry c in grid units (class comment). */
    static long units(float c, int unitExponent) {
        return Math.round(Math.scalb((double) c, -unitExponent));
    }

    /**
     * Σ_j min_{f ∈ F} q[j][f] in grid units 2^unitExponent, exact long arithmetic, O(|D| k): the
     * cost the private selections use.
     */
    public long costUnits(int[] centres, int unitExponent) {
        long total = 0;
        for (float[] row : cost) {
            float best = Float.POSITIVE_INFINITY;
            for (int f : centres) {
                best = Math.min(best, row[f]);
            }
            total += units(best, unitExponent);
        }
        return total;
    }

    /**
     * cost(F, D) = Σ_j min_{f ∈ F} c[j][f] in floating point, computed naively in O(|D| k): for
     * reports; mechanisms use {@link #costUnits}.
     */
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
