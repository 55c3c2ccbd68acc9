package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        int[] rows = {49, 0, 17, 3};
        double[] some = new double[rows.length];
        f.phases(rows, v, some);
        for (int j = 0; j < 50; j++) {
            assertEquals(
                    Double.doubleToRawLongBits(f.phase(j, v)),
                    Double.doubleToRawLongBits(all[j]),
                    "row " + j);
        }
        for (int i = 0; i < rows.length; i++) {
            assertEquals(
                    Double.doubleToRawLongBits(f.phase(rows[i], v)),
                    Double.doubleToRawLongBits(some[i]));
        }
    }
}
