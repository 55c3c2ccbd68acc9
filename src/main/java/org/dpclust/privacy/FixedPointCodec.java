package org.dpclust.privacy;

import java.io.Serializable;
import org.dpclust.geometry.DomainBounds;

/**
 * Fixed-point encoding of clamped coordinates, centred on the box: coordinate j of a clamped value
 * x is stored as the integer {@code round((x_j - mid_j) / width_j * 2^FRACTION_BITS)}, which lies
 * in [-2^(FRACTION_BITS-1), 2^(FRACTION_BITS-1)] because |x_j - mid_j| <= width_j / 2.
 *
 * <p>Sensitivity contract: adding or removing one record changes a per-cell sum by at most {@link
 * #HALF_RANGE} units in each coordinate, so the L1 sensitivity of a d-dimensional sum is exactly
 * {@code d * HALF_RANGE} units (times the contribution bound c) whatever the rounding — rounding
 * happens per record, before summation, and sums are exact integer arithmetic, so accumulation
 * order cannot change the result and rounding cannot exceed the declared sensitivity.
 */
public final class FixedPointCodec implements Serializable {
    public static final int FRACTION_BITS = 32;
    public static final long HALF_RANGE = 1L << (FRACTION_BITS - 1);
    private static final double SCALE = 0x1p32;

    private final DomainBounds bounds;

    public FixedPointCodec(DomainBounds bounds) {
        this.bounds = bounds;
    }

    public DomainBounds bounds() {
        return bounds;
    }

    /** Encodes an already clamped value into {@code out}. */
    public void encode(double[] clamped, long[] out) {
        for (int j = 0; j < out.length; j++) {
            double u = (clamped[j] - bounds.mid(j)) / bounds.width(j);
            long v = Math.round(u * SCALE);
            out[j] = Math.max(-HALF_RANGE, Math.min(HALF_RANGE, v));
        }
    }

    /** Converts a (noisy) sum of {@code count} records back to the mean coordinate j. */
    public double decodeMean(int j, double sumUnits, double count) {
        return bounds.mid(j) + sumUnits / SCALE * bounds.width(j) / count;
    }

    /**
     * L1 sensitivity, in units, of a d-dimensional sum when one unit contributes at most c records.
     */
    public long sumSensitivity(int contributionBound) {
        return Math.multiplyExact((long) bounds.dimension() * contributionBound, HALF_RANGE);
    }
}
