package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DpSketchReleaseL2Test {
    /**
     * The per-feature bound holds for the fixed-point pair of 2 million angles (uniform, plus the
     * neighbourhoods of ±π/4 + kπ/2 where |cos| + |sin| is largest) and is tight: the observed
     * maximum is within 2 units of it.
     */
    @Test
    void featureBoundHoldsAndIsTight() {
        long bound = DpSketchRelease.featureL2UnitsSquared().longValueExact();
        long max = 0;
        SplittableRandom rnd = new SplittableRandom(11);
        double[] cs = new double[2];
        for (int i = 0; i < 2_000_000; i++) {
            double theta =
                    i % 2 == 0
                            ? rnd.nextDouble(-1000, 1000)
                            : Math.PI / 4
                                    + Math.PI / 2 * rnd.nextInt(-100, 100)
                                    + rnd.nextDouble(-1e-6, 1e-6);
            SinCos.of(theta, cs);
            long a = Math.round(cs[0] * MaskedSketch.SCALE);
            long b = Math.round(cs[1] * MaskedSketch.SCALE);
            max = Math.max(max, a * a + b * b);
        }
        assertTrue(max <= bound, max + " > " + bound);
        assertTrue(bound - max < (1L << 25), "bound loose: " + (bound - max));
    }

    @Test
    void deviceAndReplaceOneBounds() {
        BigInteger f = DpSketchRelease.featureL2UnitsSquared();
        assertEquals(
                f.multiply(BigInteger.valueOf(25L * 16)),
                DpSketchRelease.addRemoveL2SensitivitySquared(16, 5));
        assertEquals(
                f.multiply(BigInteger.valueOf(4L * 16)),
                DpSketchRelease.replaceOneL2SensitivitySquared(16));
        // in real units: c * sqrt(r) up to the rounding slack
        double real =
                Math.sqrt(DpSketchRelease.addRemoveL2SensitivitySquared(16, 5).doubleValue())
                        / MaskedSketch.SCALE;
        assertEquals(5 * 4.0, real, 1e-5);
    }
}
