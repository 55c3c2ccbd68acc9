package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.quality.ClusteringMetrics;
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

    private static double[] mixtureSketch(
            FrequencyMatrix f, DomainBounds box, double[][] means, double shift, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        MaskedSketch sketch = new MaskedSketch(f, box, f.size(), null);
        double[] x = new double[means[0].length];
        for (int i = 0; i < 4000; i++) {
            double[] mu = means[i % means.length];
            for (int t = 0; t < x.length; t++) {
                x[t] = mu[t] + shift + 0.5 * rng.nextGaussian();
            }
            sketch.add(x, null);
        }
        return DpSketchRelease.exactSketch(sketch);
    }

    /**
     * The next window of a slowly drifting stream, warm-started from the previous window's decode:
     * the warm solution is kept (its residual is within the slack of the previous one) and is as
     * good as the cold decode of the same sketch; a warm start far from the data falls back to the
     * cold decode, and no warm start is the cold decode bit for bit.
     */
    @Test
    void warmStartFromThePreviousWindowKeepsTheColdQuality() {
        int k = 4;
        double[][] means = {{2, 2}, {8, 2}, {2, 8}, {8, 8}};
        DomainBounds box = new DomainBounds(new double[] {0, 0}, new double[] {10, 10});
        FrequencyMatrix f =
                FrequencyMatrix.draw(
                        FrequencyMatrix.defaultSize(k, 2),
                        2,
                        FrequencyMatrix.defaultSigma(k, 2),
                        FrequencyMatrix.DEFAULT_LAW,
                        4);
        ClOmpr.Options o = ClOmpr.Options.defaults(8);
        double[] first = mixtureSketch(f, box, means, 0.0, 1);
        ClOmpr.Result previous = ClOmpr.decode(first, f, k, box, o);
        double[] next = mixtureSketch(f, box, means, 0.2, 2);
        ClOmpr.Result cold = ClOmpr.decode(next, f, k, box, o);
        ClOmpr.WarmStart warm =
                new ClOmpr.WarmStart(
                        previous.unitCentroids(), ClOmpr.relativeResidual(previous, first));
        ClOmpr.Result fromWarm = ClOmpr.decode(next, f, k, box, o, warm);
        assertTrue(
                fromWarm.residualNorm() <= 1.01 * cold.residualNorm(),
                fromWarm.residualNorm() + " vs cold " + cold.residualNorm());
        assertTrue(
                ClOmpr.relativeResidual(fromWarm, next)
                        <= ClOmpr.WARM_SLACK * warm.relativeResidual(),
                "the warm solution was good enough to keep alone");
        for (double[] mu : means) {
            double best = Double.POSITIVE_INFINITY;
            for (double[] c : fromWarm.centroids()) {
                best = Math.min(best, Math.hypot(c[0] - mu[0] - 0.2, c[1] - mu[1] - 0.2));
            }
            assertTrue(best < 0.3, "a centroid near " + Arrays.toString(mu) + ": " + best);
        }
        double[][] corner = new double[k][2];
        ClOmpr.Result fallback =
                ClOmpr.decode(next, f, k, box, o, new ClOmpr.WarmStart(corner, 1e-6));
        assertTrue(fallback.residualNorm() <= cold.residualNorm());
        ClOmpr.Result none = ClOmpr.decode(next, f, k, box, o, null);
        assertTrue(Arrays.deepEquals(cold.centroids(), none.centroids()));
        assertEquals(
                Double.doubleToRawLongBits(cold.residualNorm()),
                Double.doubleToRawLongBits(none.residualNorm()));
    }
}
