package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sensitivity the sums' noise is calibrated to holds exactly: every record's fixed-point
 * clipped offset has L1 norm at most R_q, and neighbouring sums differ by exactly that offset, even
 * where a floating-point running sum would not (an offset of −R first, then many offsets too small
 * to survive its rounding).
 */
class ClippedRefinementTest {

    @Test
    void everyClippedOffsetIsWithinTheRadiusInExactIntegerArithmetic() {
        SplittableRandom r = new SplittableRandom(7);
        for (int t = 0; t < 20_000; t++) {
            int d = 1 + r.nextInt(20);
            double radius = d * Math.scalb(1.0, -r.nextInt(ClippedRefinement.RADIUS_BINS));
            double[] v = new double[d];
            for (int j = 0; j < d; j++) {
                // offsets of every magnitude, including exactly the radius and subnormal-small ones
                v[j] = (r.nextBoolean() ? 1 : -1) * Math.scalb(r.nextDouble(), -r.nextInt(60));
            }
            if (t % 7 == 0) {
                Arrays.fill(v, radius / d);
            }
            long rq = ClippedRefinement.radiusUnits(radius);
            long l1 = 0;
            for (long q : ClippedRefinement.clippedOffset(v, radius, rq)) {
                l1 += Math.abs(q);
            }
            assertTrue(l1 <= rq, "‖q‖₁ = " + l1 + " > R_q = " + rq + " for " + Arrays.toString(v));
        }
    }

    @Test
    void neighbouringSumsDifferByTheRecordsOffsetAloneWhereDoublesWouldNot() {
        double radius = 1.0;
        int tiny = 1 << 20;
        double[][] withFirst = new double[tiny + 1][];
        withFirst[0] = new double[] {-radius};
        for (int i = 1; i <= tiny; i++) {
            withFirst[i] = new double[] {Math.scalb(radius, -54)};
        }
        double[][] without = Arrays.copyOfRange(withFirst, 1, withFirst.length);
        // the floating-point running sum these sums replace: neighbours differ by more than R
        double a = 0;
        for (double[] v : withFirst) {
            a += v[0];
        }
        double b = 0;
        for (double[] v : without) {
            b += v[0];
        }
        assertTrue(Math.abs(a - b) > radius, "the double sums' difference exceeds R: " + (a - b));
        long[] sa = ClippedRefinement.clippedSums(withFirst, new int[tiny + 1], 1, 1, radius);
        long[] sb = ClippedRefinement.clippedSums(without, new int[tiny], 1, 1, radius);
        long rq = ClippedRefinement.radiusUnits(radius);
        assertArrayEquals(
                ClippedRefinement.clippedOffset(withFirst[0], radius, rq),
                new long[] {sa[0] - sb[0]},
                "the difference is the added record's offset");
        assertTrue(Math.abs(sa[0] - sb[0]) <= rq);
    }

    /**
     * The sums run after the charge, so no data may make them throw: offsets whose fixed-point sum
     * passes the long range wrap (modulo 2^64, as the noise is added) instead of raising
     * (Math.addExact did).
     */
    @Test
    void clippedSumsWrapInsteadOfThrowing() {
        double radius = 0x1p30; // 2^62 fixed-point units per record
        double[][] offsets = {{0x1p30}, {0x1p30}, {0x1p30}};
        long[] sums = ClippedRefinement.clippedSums(offsets, new int[] {0, 0, 0}, 1, 1, radius);
        long q =
                ClippedRefinement.clippedOffset(
                        offsets[0], radius, ClippedRefinement.radiusUnits(radius))[0];
        assertTrue(q > 0x1p61, "each record near the long range: " + q);
        assertArrayEquals(new long[] {q + q + q}, sums);
    }
}
