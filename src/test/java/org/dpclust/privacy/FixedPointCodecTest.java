package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.junit.jupiter.api.Test;

class FixedPointCodecTest {
    private final DomainBounds box =
            new DomainBounds(new double[] {-50, 0, 3}, new double[] {50, 100, 3.5});
    private final FixedPointCodec codec = new FixedPointCodec(box);

    @Test
    void theCornersAreExactlyHalfTheRange() {
        long[] lo = new long[3];
        long[] hi = new long[3];
        codec.encode(box.lowerCopy(), lo);
        codec.encode(box.upperCopy(), hi);
        for (int j = 0; j < 3; j++) {
            assertEquals(-FixedPointCodec.HALF_RANGE, lo[j]);
            assertEquals(FixedPointCodec.HALF_RANGE, hi[j]);
        }
    }

    @Test
    void oneRecordNeverMovesASumByMoreThanTheDeclaredSensitivity() {
        SplittableRandom rng = new SplittableRandom(7); // public randomness (not privacy noise)
        long declared = codec.sumSensitivity(1);
        long worst = 0;
        long[] e = new long[3];
        for (int i = 0; i < 100_000; i++) {
            double[] x = new double[3];
            for (int j = 0; j < 3; j++) {
                x[j] = box.lower(j) + rng.nextDouble() * box.width(j);
            }
            if (i % 1000 == 0) {
                x = i % 2000 == 0 ? box.upperCopy() : box.lowerCopy();
            }
            codec.encode(x, e);
            worst = Math.max(worst, Math.abs(e[0]) + Math.abs(e[1]) + Math.abs(e[2]));
        }
        assertTrue(worst <= declared, worst + " > " + declared);
        assertEquals(declared, worst, "the corners reach the bound exactly");
    }

    @Test
    void decodesTheMeanOfEncodedRecords() {
        long[] a = new long[3];
        long[] b = new long[3];
        codec.encode(new double[] {-10, 20, 3.1}, a);
        codec.encode(new double[] {30, 60, 3.3}, b);
        assertEquals(10.0, codec.decodeMean(0, a[0] + b[0], 2), 1e-6);
        assertEquals(40.0, codec.decodeMean(1, a[1] + b[1], 2), 1e-6);
        assertEquals(3.2, codec.decodeMean(2, a[2] + b[2], 2), 1e-6);
    }
}
