package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SinCosTest {

    @Test
    void agreesWithStrictMathOverTheReducedRangeAndBeyond() {
        SplittableRandom rng = new SplittableRandom(12);
        double[] out = new double[2];
        double worst = 0;
        for (double range : new double[] {1, 10, 1e3, 1e6, 1e9}) {
            for (int i = 0; i < 200_000; i++) {
                double x = rng.nextDouble(-range, range);
                SinCos.of(x, out);
                worst = Math.max(worst, Math.abs(out[0] - StrictMath.cos(x)));
                worst = Math.max(worst, Math.abs(out[1] - StrictMath.sin(x)));
                assertTrue(Math.abs(out[0]) <= 1 && Math.abs(out[1]) <= 1);
            }
        }
        assertTrue(worst <= 2e-16 * 2, "max error " + worst);
        for (double x :
                new double[] {
                    0, Math.PI / 4, Math.PI / 2, Math.PI, -3 * Math.PI / 4, 1e6 + 1, Double.NaN
                }) {
            SinCos.of(x, out);
            assertEquals(StrictMath.cos(x), out[0], 3e-16);
            assertEquals(StrictMath.sin(x), out[1], 3e-16);
        }
    }

    @Test
    void arrayFormIsBitForBitTheSingleForm() {
        SplittableRandom rng = new SplittableRandom(13);
        int n = 4096;
        double[] x = new double[n];
        double[] cos = new double[n];
        double[] sin = new double[n];
        double[] out = new double[2];
        double[] special = {
            0.0,
            -0.0,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            SinCos.REDUCTION_LIMIT,
            -SinCos.REDUCTION_LIMIT,
            Math.nextUp(SinCos.REDUCTION_LIMIT),
            Math.PI / 4,
            Math.PI / 2,
            Math.PI,
            3 * Math.PI / 2,
            -Math.PI / 4,
            -Math.PI / 2,
            1e300
        };
        for (double range : new double[] {1, 10, 100, 1e4, 1e6, 1e9}) {
            for (int i = 0; i < n; i++) {
                x[i] = i < special.length ? special[i] : rng.nextDouble(-range, range);
            }
            // a quadrant boundary: odd multiples of pi/4 and their neighbours
            for (int i = special.length; i < 200; i++) {
                double b = (i - 100) * Math.PI / 4;
                x[i] = i % 3 == 0 ? Math.nextUp(b) : i % 3 == 1 ? Math.nextDown(b) : b;
            }
            SinCos.of(x, n, cos, sin);
            for (int i = 0; i < n; i++) {
                SinCos.of(x[i], out);
                assertEquals(
                        Double.doubleToRawLongBits(out[0]),
                        Double.doubleToRawLongBits(cos[i]),
                        "cos of " + x[i]);
                assertEquals(
                        Double.doubleToRawLongBits(out[1]),
                        Double.doubleToRawLongBits(sin[i]),
                        "sin of " + x[i]);
            }
        }
    }
}
