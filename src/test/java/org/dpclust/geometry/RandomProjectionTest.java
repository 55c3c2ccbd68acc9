package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RandomProjection}: a public function of the seed and the record (clamped), into the unit
 * box, spreading the images of records spread over the declared box evenly over it.
 */
class RandomProjectionTest {
    private static final int D = 50;

    private static DomainBounds box() {
        double[] lo = new double[D];
        double[] hi = new double[D];
        Arrays.fill(lo, -2);
        Arrays.fill(hi, 6);
        return new DomainBounds(lo, hi);
    }

    @Test
    void theSameSeedGivesTheSameMapAndAnotherSeedAnother() {
        double[] x = new double[D];
        Arrays.fill(x, 5);
        x[3] = -1;
        assertArrayEquals(
                new RandomProjection(box(), 6, 9).apply(x),
                new RandomProjection(box(), 6, 9).apply(x));
        assertFalse(
                Arrays.equals(
                        new RandomProjection(box(), 6, 9).apply(x),
                        new RandomProjection(box(), 6, 10).apply(x)));
    }

    @Test
    void recordsAreClampedAndImagesLieInTheUnitBox() {
        RandomProjection p = new RandomProjection(box(), 4, 1);
        double[] out = new double[D];
        Arrays.fill(out, 1e300);
        double[] clamped = new double[D];
        Arrays.fill(clamped, 6);
        assertArrayEquals(p.apply(clamped), p.apply(out));
        for (double z : p.apply(out)) {
            assertTrue(z >= 0 && z <= 1, "image " + z);
        }
        assertEquals(4, p.image().dimension());
        assertEquals(1.0, p.image().upper(3));
        assertThrows(IllegalArgumentException.class, () -> p.apply(new double[D - 1]));
        assertThrows(IllegalArgumentException.class, () -> new RandomProjection(box(), 0, 1));
    }

    @Test
    void imagesOfRecordsSpreadOverTheBoxSpreadOverTheImage() {
        RandomProjection p = new RandomProjection(box(), 8, 3);
        SplittableRandom rng = new SplittableRandom(4); // test data (public)
        int n = 20_000;
        int[] quarters = new int[4];
        for (int i = 0; i < n; i++) {
            double[] x = new double[D];
            for (int j = 0; j < D; j++) {
                x[j] = -2 + 8 * rng.nextDouble();
            }
            for (double z : p.apply(x)) {
                quarters[(int) Math.min(3, z * 4)]++;
            }
        }
        // about a quarter of the images' coordinates in each quarter of [0, 1] (within 0.06)
        for (int q : quarters) {
            assertEquals(0.25, q / (8.0 * n), 0.06, Arrays.toString(quarters));
        }
    }
}
