package org.dpclust.kmeans;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.ReleaseBudget;

/**
 * One clipped, centred "noisy sums and counts" Lloyd step against public centroids: the refinement
 * that removes the bias of a coarse release (e.g. {@code stats}' public cells) and the main source
 * of noise of a plain noisy Lloyd step in higher dimension, the sum sensitivity of d/2 box widths.
 *
 * <p><b>Private:</b> the points (clamped into the declared bounds by the caller). <b>Neighbouring
 * relation:</b> add/remove one record. <b>Mechanism</b>, in unit-box coordinates u_j = (x_j −
 * lo_j)/width_j, each record assigned to its nearest public centroid c(x) (the centroids are
 * released earlier or public, so the partition is public):
 *
 * <ol>
 *   <li>a histogram of the L1 distances ‖u − c(u)‖₁ over {@value #RADIUS_BINS} public geometric
 *       bins (upper edges d·2^{−i}): each record lies in exactly one bin, so the L1 sensitivity of
 *       the histogram is 1; two-sided geometric noise at ε_radius;
 *   <li>post-processing of (1): the clipping radius R = the smallest edge such that the noisy count
 *       above it is at most {@value #OUTSIDE_SHARE} of the noisy total (d, the box's L1 diameter,
 *       if none);
 *   <li>per-centroid counts: each record in exactly one cell, L1 sensitivity 1; two-sided geometric
 *       noise at ε_count;
 *   <li>per-centroid sums of the CENTRED, CLIPPED offsets v = (u − c)·min(1, R/‖u − c‖₁), in exact
 *       fixed point: each record's offset becomes an integer vector q (units of 2^−{@value
 *       #FRACTION_BITS} box widths, truncated toward zero, then reduced in integer arithmetic until
 *       ‖q‖₁ ≤ R_q = R·2^{@value #FRACTION_BITS} exactly — a function of the record alone), summed
 *       as longs modulo 2^64 (never throwing after the charge; see {@link #clippedSums}). One
 *       record changes one cell's sum by q, so the L1 sensitivity of the k·d integer vector is R_q
 *       (public after step 2), exactly: no rounding of a running floating-point sum can make
 *       neighbours differ by more (a double accumulation could). Two-sided geometric noise ({@link
 *       GeometricMechanism}) at ε_sum.
 * </ol>
 *
 * The step is (ε_radius + ε_count + ε_sum)-DP (pure) by adaptive sequential composition of three
 * pure mechanisms, each of whose parameters is public or a function of earlier outputs. Against the
 * plain step ({@link PartitionRelease}, sum sensitivity d/2) the sums' noise shrinks by d/(2R): for
 * well-clustered data R is a few within-cluster spreads, not half the box. The clipping bias is
 * confined to the share of records beyond R.
 *
 * <p><b>Post-processing:</b> centroid i moves to c_i + f_i·s_i / max(n̂_i, 2·count scale) (the
 * divisor floor shrinks unreliable steps toward c_i), clamped into the box; a cell with noisy count
 * below 1 keeps c_i. From d = {@link CentroidShrinkage#MIN_DIMENSION} on, f_i is the positive-part
 * James–Stein factor of {@link CentroidShrinkage} for the move Δ_i = s_i/max(…) toward 0, with the
 * move's noise variance per unit-box coordinate (V_sum + ‖Δ_i‖²/d·V_count)/max(…)², V the variances
 * of the sums' and the counts' geometric noise ({@link GeometricMechanism#variance}; the noisy
 * ‖Δ_i‖² slightly over-states the count term): close to 1 when the noise is small against the move;
 * below that dimension f_i = 1. Released values and public scales only, so free.
 */
public final class ClippedRefinement {
    /** Bins of the radius histogram: upper edges d·2^{−i}, i = 0..RADIUS_BINS − 1. */
    public static final int RADIUS_BINS = 12;

    /** Fixed-point resolution of the clipped offsets: 2^−32 box widths. */
    public static final int FRACTION_BITS = 32;

    /** Share of the noisy total allowed beyond the clipping radius. */
    public static final double OUTSIDE_SHARE = 0.1;

    private ClippedRefinement() {}

    /** Shares of one step's ε: radius histogram, counts, sums. */
    public static final double RADIUS_SHARE = 0.1;

    public static final double COUNT_SHARE = 0.2;

    /**
     * The released values of one step (the transcript the DP test checks) and the step's means.
     *
     * @param histogram noisy radius histogram
     * @param radius the clipping radius derived from it (unit-box L1)
     * @param counts noisy counts per centroid
     * @param sums noisy clipped centred sums per centroid (k·d, unit-box units: the released
     *     fixed-point integers times 2^−{@value #FRACTION_BITS})
     * @param means the centroids after the step (post-processing, declared-box coordinates)
     */
    public record Step(
            long[] histogram, double radius, long[] counts, double[] sums, double[][] means) {}

    /** One step at total ε (split {@value #RADIUS_SHARE} : {@value #COUNT_SHARE} : rest). */
    public static Step step(
            double[][] points,
            double[][] centroids,
            DomainBounds bounds,
            double epsilon,
            PrivacyRandom rng) {
        ReleaseBudget.requireEpsilon(epsilon);
        int k = centroids.length;
        int d = bounds.dimension();
        double epsRadius = epsilon * RADIUS_SHARE;
        double epsCount = epsilon * COUNT_SHARE;
        double epsSum = BudgetSplit.remainder(epsilon, epsRadius, epsCount);
        PublicPointSet cells = new PublicPointSet(centroids);
        double[][] c = new double[k][];
        for (int i = 0; i < k; i++) {
            c[i] = toUnit(centroids[i], bounds);
        }
        int[] cell = new int[points.length];
        double[][] off = new double[points.length][];
        long[] hist = new long[RADIUS_BINS];
        for (int p = 0; p < points.length; p++) {
            cell[p] = cells.nearest(points[p]);
            double[] u = toUnit(points[p], bounds);
            double norm = 0;
            for (int j = 0; j < d; j++) {
                u[j] -= c[cell[p]][j];
                norm += Math.abs(u[j]);
            }
            off[p] = u;
            hist[bin(norm, d)]++;
        }
        // ---- release 1: the radius histogram (L1 sensitivity 1) ----
        long[] noisyHist = GeometricMechanism.addNoise(hist, 1, epsRadius, rng);
        double radius = radius(noisyHist, d);
        long radiusUnits = radiusUnits(radius);
        long[] counts = new long[k];
        for (int p = 0; p < points.length; p++) {
            counts[cell[p]]++;
        }
        long[] sums = clippedSums(off, cell, k, d, radius);
        // ---- releases 2 and 3: counts (L1 sensitivity 1) and clipped sums (L1 sensitivity R_q)
        // ----
        long[] noisyCounts = GeometricMechanism.addNoise(counts, 1, epsCount, rng);
        long[] noisyUnits = GeometricMechanism.addNoise(sums, radiusUnits, epsSum, rng);
        double[] noisySums = new double[noisyUnits.length];
        for (int i = 0; i < noisyUnits.length; i++) {
            noisySums[i] = Math.scalb((double) noisyUnits[i], -FRACTION_BITS);
        }
        // ---- post-processing: only released values and public inputs below this line ----
        double floor = 2 * GeometricMechanism.scale(1, epsCount);
        double varCount = GeometricMechanism.variance(GeometricMechanism.scale(1, epsCount));
        double varSum =
                Math.scalb(
                        GeometricMechanism.variance(GeometricMechanism.scale(radiusUnits, epsSum)),
                        -2 * FRACTION_BITS);
        double[][] means = new double[k][];
        for (int i = 0; i < k; i++) {
            if (noisyCounts[i] < 1) {
                means[i] = centroids[i].clone();
                continue;
            }
            double div = Math.max(noisyCounts[i], floor);
            double norm2 = 0;
            for (int j = 0; j < d; j++) {
                double z = noisySums[i * d + j] / div;
                norm2 += z * z;
            }
            // the step's noise per unit-box coordinate: the sum's, and the count's first-order
            // effect on the step, ‖step‖²/d times its variance; over div²
            double v = (varSum + norm2 / d * varCount) / (div * div);
            double f = CentroidShrinkage.applies(d) ? CentroidShrinkage.factor(d, norm2, v) : 1.0;
            double[] m = new double[d];
            for (int j = 0; j < d; j++) {
                double u = c[i][j] + f * noisySums[i * d + j] / div;
                m[j] = bounds.lower(j) + u * bounds.width(j);
            }
            bounds.clamp(m, m);
            means[i] = m;
        }
        return new Step(noisyHist, radius, noisyCounts, noisySums, means);
    }

    /**
     * The exact per-cell sums (k·d longs) of the records' fixed-point clipped offsets {@link
     * #clippedOffset}, modulo 2^64: adding or removing one record changes them by that record's q
     * alone. A cell of more than about 2^31/d records far from its centroid wraps; the step runs
     * after its charge, so it must not throw on data: the noise is added modulo 2^64 too ({@link
     * GeometricMechanism}), which keeps the release the exact one reduced modulo 2^64.
     */
    static long[] clippedSums(double[][] offsets, int[] cell, int k, int d, double radius) {
        long radiusUnits = radiusUnits(radius);
        long[] sums = new long[k * d];
        for (int p = 0; p < offsets.length; p++) {
            long[] q = clippedOffset(offsets[p], radius, radiusUnits);
            for (int j = 0; j < d; j++) {
                sums[cell[p] * d + j] += q[j]; // modulo 2^64
            }
        }
        return sums;
    }

    /** R_q: the clipping radius in fixed-point units (exact: R = d·2^−i is a dyadic rational). */
    static long radiusUnits(double radius) {
        return (long) Math.floor(Math.scalb(radius, FRACTION_BITS));
    }

    /**
     * One record's clipped offset in fixed point: v·min(1, R/‖v‖₁)·2^{@value #FRACTION_BITS}
     * truncated toward zero per coordinate, then, should floating-point rounding leave ‖q‖₁ above
     * R_q, reduced toward zero coordinate by coordinate until ‖q‖₁ ≤ R_q exactly.
     */
    static long[] clippedOffset(double[] v, double radius, long radiusUnits) {
        double norm = 0;
        for (double x : v) {
            norm += Math.abs(x);
        }
        double f = norm > radius ? radius / norm : 1.0;
        long[] q = new long[v.length];
        long l1 = 0;
        for (int j = 0; j < v.length; j++) {
            q[j] = (long) Math.scalb(v[j] * f, FRACTION_BITS);
            l1 += Math.abs(q[j]);
        }
        long excess = l1 - radiusUnits;
        for (int j = 0; j < q.length && excess > 0; j++) {
            long cut = Math.min(Math.abs(q[j]), excess);
            q[j] -= Long.signum(q[j]) * cut;
            excess -= cut;
        }
        return q;
    }

    /** The histogram bin of an L1 distance r ≤ d: the largest i with r ≤ d·2^{−i}, capped. */
    static int bin(double r, int d) {
        int i = 0;
        while (i < RADIUS_BINS - 1 && r <= d * Math.scalb(1.0, -(i + 1))) {
            i++;
        }
        return i;
    }

    /** Post-processing of the noisy histogram: see the class comment, step 2. */
    static double radius(long[] noisyHist, int d) {
        double total = 0;
        for (long h : noisyHist) {
            total += Math.max(0, h);
        }
        // bins are ordered from the largest distances (i = 0) to the smallest
        double beyond = 0;
        for (int i = 0; i < RADIUS_BINS; i++) {
            // radius = upper edge of bin i; beyond it are bins 0..i-1
            if (i > 0) {
                beyond += Math.max(0, noisyHist[i - 1]);
            }
            if (beyond > OUTSIDE_SHARE * total) {
                return d * Math.scalb(1.0, -(i - 1));
            }
        }
        return d * Math.scalb(1.0, -(RADIUS_BINS - 1));
    }

    private static double[] toUnit(double[] x, DomainBounds b) {
        double[] u = new double[x.length];
        for (int j = 0; j < x.length; j++) {
            u[j] = (Math.min(Math.max(x[j], b.lower(j)), b.upper(j)) - b.lower(j)) / b.width(j);
        }
        return u;
    }
}
