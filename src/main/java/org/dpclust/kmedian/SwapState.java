package org.dpclust.kmedian;

import java.util.Arrays;

/**
 * Nearest and second-nearest centre of every demand point for a centre set F (the FastPAM1 idea of
 * Schubert and Rousseeuw), so that the cost change of every swap (x ∈ F out, y ∉ F in) is exact and
 * cheap.
 *
 * <p>For a candidate y, with d1(o), d2(o) the distances of demand point o to its nearest and second
 * nearest centre and n(o) its nearest centre: cost(F - x + y) - cost(F) = Σ_o min(c(o,y) - d1(o),
 * 0) + Σ_{o: n(o) = x} [min(d2(o), c(o,y)) - d1(o) - min(c(o,y) - d1(o), 0)]. The first sum is
 * shared by all x, so {@link #swapDeltas} gives the changes for all k swaps with the same y in
 * O(|D| + k), i.e. O(|D|/k + 1) amortised per swap candidate; a full neighbourhood (k(|U| - k)
 * swaps) costs O(|U| (|D| + k)). Applying a swap recomputes the state in O(|D| k). Not thread-safe.
 * Holds private data (the demand costs); what callers release decides privacy.
 *
 * <p>All costs are in grid units 2^unitExponent (entries rounded as in {@link
 * DemandCosts#costUnits}) and every sum is exact long arithmetic, so cost() + swapDeltas(y)[i]
 * equals {@link DemandCosts#costUnits} of the swapped set exactly, whatever the order of the demand
 * points (the private local search relies on it).
 */
final class SwapState {
    private final DemandCosts costs;
    private final int[] centres;
    private final boolean[] isCentre;
    private final int[] nearest;
    private final long[] d1;
    private final long[] d2;
    private final int unitExponent;
    private long total;

    /** State for centres F in grid units 2^unitExponent. */
    SwapState(DemandCosts costs, int[] initialCentres, int unitExponent) {
        this.costs = costs;
        this.unitExponent = unitExponent;
        this.centres = initialCentres.clone();
        this.isCentre = new boolean[costs.universeSize()];
        for (int f : centres) {
            if (f < 0 || f >= isCentre.length || isCentre[f]) {
                throw new IllegalArgumentException(
                        "centres must be distinct universe indices: " + Arrays.toString(centres));
            }
            isCentre[f] = true;
        }
        int m = costs.demandSize();
        nearest = new int[m];
        d1 = new long[m];
        d2 = new long[m];
        recompute();
    }

    private void recompute() {
        total = 0;
        for (int o = 0; o < d1.length; o++) {
            float[] row = costs.row(o);
            long b1 = Long.MAX_VALUE;
            long b2 = Long.MAX_VALUE;
            int arg = 0;
            for (int i = 0; i < centres.length; i++) {
                long d = DemandCosts.units(row[centres[i]], unitExponent);
                if (d < b1) {
                    b2 = b1;
                    b1 = d;
                    arg = i;
                } else if (d < b2) {
                    b2 = d;
                }
            }
            nearest[o] = arg;
            d1[o] = b1;
            d2[o] = b2;
            total += b1;
        }
    }

    DemandCosts costs() {
        return costs;
    }

    int universeSize() {
        return isCentre.length;
    }

    int k() {
        return centres.length;
    }

    int centre(int i) {
        return centres[i];
    }

    int[] centres() {
        return centres.clone();
    }

    boolean isCentre(int u) {
        return isCentre[u];
    }

    /** cost(F) in grid units. */
    long cost() {
        return total;
    }

    int unitExponent() {
        return unitExponent;
    }

    /**
     * out[i] = cost(F - centres[i] + y) - cost(F) in grid units for every i; y must not be a
     * centre. O(|D| + k).
     */
    void swapDeltas(int y, long[] out) {
        Arrays.fill(out, 0, centres.length, 0);
        long shared = 0;
        for (int o = 0; o < d1.length; o++) {
            long dy = DemandCosts.units(costs.row(o)[y], unitExponent);
            long gain = Math.min(dy - d1[o], 0);
            shared += gain;
            out[nearest[o]] += Math.min(d2[o], dy) - d1[o] - gain;
        }
        for (int i = 0; i < centres.length; i++) {
            out[i] += shared;
        }
    }

    /** F ← F - centres[i] + y. O(|D| k). */
    void swap(int i, int y) {
        if (isCentre[y]) {
            throw new IllegalArgumentException("point " + y + " is already a centre");
        }
        isCentre[centres[i]] = false;
        isCentre[y] = true;
        centres[i] = y;
        recompute();
    }
}
