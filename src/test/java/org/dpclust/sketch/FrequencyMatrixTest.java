package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.config.CkmSettings;
import org.junit.jupiter.api.Test;

class FrequencyMatrixTest {

    @Test
    void sameSeedSameMatrixOtherSeedOtherMatrix() {
        FrequencyMatrix a = FrequencyMatrix.draw(50, 3, 0.2, FrequencyMatrix.Law.GAUSSIAN, 42);
        FrequencyMatrix b = FrequencyMatrix.draw(50, 3, 0.2, FrequencyMatrix.Law.GAUSSIAN, 42);
        FrequencyMatrix c = FrequencyMatrix.draw(50, 3, 0.2, FrequencyMatrix.Law.GAUSSIAN, 43);
        assertArrayEquals(a.toArray(), b.toArray(), 0.0);
        assertTrue(a.sameFrequencies(b));
        assertFalse(a.sameFrequencies(c));
    }

    @Test
    void gaussianLawHasVarianceOneOverSigmaSquared() {
        double sigma = 0.25;
        FrequencyMatrix f = FrequencyMatrix.draw(20_000, 2, sigma, FrequencyMatrix.Law.GAUSSIAN, 1);
        double sum = 0;
        double sq = 0;
        for (int j = 0; j < f.size(); j++) {
            for (int t = 0; t < 2; t++) {
                sum += f.get(j, t);
                sq += f.get(j, t) * f.get(j, t);
            }
        }
        int n = 2 * f.size();
        assertEquals(0.0, sum / n, 0.1);
        assertEquals(1.0 / (sigma * sigma), sq / n, 0.03 / (sigma * sigma));
    }

    @Test
    void adaptedRadiusMatchesItsDensity() {
        // E[R] under p(R) ∝ sqrt(R^2 + R^4/4) exp(-R^2/2) on [0, 5], by quadrature
        double num = 0;
        double den = 0;
        for (int i = 0; i <= 100_000; i++) {
            double r = 5.0 * i / 100_000;
            double p = Math.sqrt(r * r + r * r * r * r / 4) * Math.exp(-r * r / 2);
            num += r * p;
            den += p;
        }
        double sigma = 0.5;
        FrequencyMatrix f =
                FrequencyMatrix.draw(40_000, 3, sigma, FrequencyMatrix.Law.ADAPTED_RADIUS, 9);
        double meanRadius = 0;
        for (int j = 0; j < f.size(); j++) {
            double s = 0;
            for (int t = 0; t < 3; t++) {
                s += f.get(j, t) * f.get(j, t);
            }
            meanRadius += Math.sqrt(s) * sigma;
        }
        assertEquals(num / den, meanRadius / f.size(), 0.01);
    }

    @Test
    void defaultsFollowTheStatedRules() {
        assertEquals(1000, FrequencyMatrix.defaultSize(10, 10));
        assertEquals(
                Math.pow(10, -0.1) / (1.25 * Math.sqrt(10)),
                FrequencyMatrix.defaultSigma(10, 10),
                1e-15);
        assertThrows(IllegalArgumentException.class, () -> FrequencyMatrix.defaultSigma(0, 2));
        assertThrows(
                IllegalArgumentException.class,
                () -> FrequencyMatrix.draw(5, 2, 0.1, FrequencyMatrix.Law.EXPLICIT, 1));
    }

    @Test
    void batchPhasesAreBitIdenticalToPhase() {
        FrequencyMatrix f = FrequencyMatrix.draw(50, 7, 0.2, FrequencyMatrix.Law.GAUSSIAN, 3);
        double[] v = {0.1, 0.9, 0.33, 0.5, 0.0, 1.0, 0.77};
        double[] all = new double[50];
        f.phases(v, all);
        for (int j = 0; j < 50; j++) {
            assertEquals(bits(reference(f, j, v)), bits(f.phase(j, v)), "row " + j);
            assertEquals(bits(reference(f, j, v)), bits(all[j]), "row " + j);
        }
        // gathered rows, two at a time with an odd one left over, and an even count
        for (int[] rows : new int[][] {{49, 0, 17, 3, 26}, {49, 0, 17, 3}, {8}}) {
            double[] some = new double[rows.length];
            f.phases(rows, v, some);
            for (int i = 0; i < rows.length; i++) {
                assertEquals(bits(reference(f, rows[i], v)), bits(some[i]), "row " + rows[i]);
            }
        }
        // consecutive rows: every start, odd and even lengths, written at an offset
        for (int first = 0; first < 50; first += 7) {
            for (int n = 0; n <= Math.min(5, 50 - first); n++) {
                double[] out = new double[n + 2];
                f.phasesOfRange(first, n, v, out, 2);
                for (int i = 0; i < n; i++) {
                    assertEquals(
                            bits(reference(f, first + i, v)),
                            bits(out[2 + i]),
                            "first " + first + ", n " + n + ", row " + (first + i));
                }
            }
        }
    }

    /**
     * A frequency whose phases could overflow is refused, drawn or given: a sketch's exact sums
     * rely on finite feature values.
     */
    @Test
    void frequenciesWhosePhasesCouldOverflowAreRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> FrequencyMatrix.of(new double[][] {{1, 2}, {1e300, 1e300}}));
        assertThrows(
                IllegalArgumentException.class,
                () -> FrequencyMatrix.draw(4, 3, 1e-305, FrequencyMatrix.Law.GAUSSIAN, 1));
        assertEquals(2, FrequencyMatrix.of(new double[][] {{1, 2}, {4e299, 5e299}}).size());
        FrequencyMatrix.draw(4, 3, CkmSettings.MIN_SIGMA, FrequencyMatrix.Law.ADAPTED_RADIUS, 1);
    }

    /** ω_j·v summed in index order, written out here rather than taken from the class. */
    private static double reference(FrequencyMatrix f, int j, double[] v) {
        double s = 0;
        for (int t = 0; t < v.length; t++) {
            s += f.get(j, t) * v[t];
        }
        return s;
    }

    private static long bits(double x) {
        return Double.doubleToRawLongBits(x);
    }
}
