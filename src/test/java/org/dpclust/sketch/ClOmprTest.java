package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.eval.ClusteringMetrics;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.kmeans.Lloyd;
import org.junit.jupiter.api.Test;

class ClOmprTest {

    /**
     * k = 5 Gaussian clusters in a 2-D box [0, 10]², noiseless sketch with the default law, σ and
     * m.
     */
    @Test
    void recoversGaussianMixtureCentresInTwoDimensions() {
        int k = 5;
        int d = 2;
        double[][] means = {{2, 2}, {8, 2}, {5, 5}, {2, 8}, {8, 8}};
        SplittableRandom rng = new SplittableRandom(21);
        int n = 5000;
        double[][] points = new double[n][d];
        for (int i = 0; i < n; i++) {
            double[] mu = means[i % k];
            for (int t = 0; t < d; t++) {
                points[i][t] = mu[t] + 0.6 * rng.nextGaussian();
            }
        }
        DomainBounds box = new DomainBounds(new double[] {0, 0}, new double[] {10, 10});
        FrequencyMatrix f =
                FrequencyMatrix.draw(
                        FrequencyMatrix.defaultSize(k, d),
                        d,
                        FrequencyMatrix.defaultSigma(k, d),
                        FrequencyMatrix.DEFAULT_LAW,
                        4);
        MaskedSketch sketch = new MaskedSketch(f, box, f.size(), null);
        for (double[] p : points) {
            sketch.add(p, null);
        }
        ClOmpr.Result res =
                ClOmpr.decode(
                        DpSketchRelease.exactSketch(sketch), f, k, box, ClOmpr.Options.defaults(8));
        double rel =
                ClusteringMetrics.relativeSse(
                        ClusteringMetrics.sse(points, res.centroids()),
                        Lloyd.best(points, k, 3).sse());
        System.out.printf(
                "CL-OMPR k=5 d=2 noiseless: relative SSE %.4f, weights %s%n",
                rel, Arrays.toString(res.weights()));
        assertTrue(rel <= 1.05, "relative SSE " + rel);
        assertEquals(1.0, Arrays.stream(res.weights()).sum(), 1e-12);
        for (double w : res.weights()) {
            assertEquals(0.2, w, 0.05);
        }
        for (double[] c : res.centroids()) {
            for (int t = 0; t < d; t++) {
                assertTrue(c[t] >= 0 && c[t] <= 10, "centroid inside the declared box");
            }
        }
    }

    @Test
    void singleDiracIsFoundExactly() {
        FrequencyMatrix f = FrequencyMatrix.draw(60, 3, 0.2, FrequencyMatrix.Law.GAUSSIAN, 2);
        DomainBounds box = new DomainBounds(new double[] {-1, -1, -1}, new double[] {1, 1, 1});
        MaskedSketch s = new MaskedSketch(f, box, 60, null);
        s.add(new double[] {0.25, -0.5, 0.75}, null);
        ClOmpr.Result res =
                ClOmpr.decode(
                        DpSketchRelease.exactSketch(s), f, 1, box, ClOmpr.Options.defaults(1));
        assertEquals(0.25, res.centroids()[0][0], 1e-3);
        assertEquals(-0.5, res.centroids()[0][1], 1e-3);
        assertEquals(0.75, res.centroids()[0][2], 1e-3);
        assertTrue(res.residualNorm() < 1e-2, "residual " + res.residualNorm());
    }

    @Test
    void theSameSketchDecodesToTheSameBits() {
        FrequencyMatrix f =
                FrequencyMatrix.draw(200, 4, 0.5, FrequencyMatrix.Law.ADAPTED_RADIUS, 3);
        DomainBounds box = new DomainBounds(new double[4], new double[] {1, 1, 1, 1});
        MaskedSketch s = new MaskedSketch(f, box, 200, null);
        java.util.SplittableRandom rng =
                new java.util.SplittableRandom(9); // public randomness (not privacy noise)
        for (int i = 0; i < 300; i++) {
            s.add(
                    new double[] {
                        rng.nextDouble(), rng.nextDouble(), rng.nextDouble(), rng.nextDouble()
                    },
                    null);
        }
        double[] z = DpSketchRelease.exactSketch(s);
        ClOmpr.Result a = ClOmpr.decode(z, f, 3, box, ClOmpr.Options.defaults(4));
        ClOmpr.Result b = ClOmpr.decode(z.clone(), f, 3, box, ClOmpr.Options.defaults(4));
        assertTrue(java.util.Arrays.deepEquals(a.centroids(), b.centroids()));
        assertTrue(java.util.Arrays.equals(a.weights(), b.weights()));
        assertEquals(
                Double.doubleToRawLongBits(a.residualNorm()),
                Double.doubleToRawLongBits(b.residualNorm()));
    }

    @Test
    void rejectsMismatchedSketch() {
        FrequencyMatrix f = FrequencyMatrix.draw(10, 2, 0.2, FrequencyMatrix.Law.GAUSSIAN, 2);
        DomainBounds box = new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
        assertThrows(
                IllegalArgumentException.class,
                () -> ClOmpr.decode(new double[19], f, 2, box, ClOmpr.Options.defaults(1)));
    }
}
