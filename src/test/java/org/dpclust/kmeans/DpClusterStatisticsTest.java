package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.quality.ClusteringMetrics;
import org.dpclust.synthetic.DriftingGaussianMixture;
import org.junit.jupiter.api.Test;

/**
 * The statistics release: noise key, budget split and utility (its statistical DP test is {@link
 * DpClusterStatisticsDpTest}).
 */
class DpClusterStatisticsTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);

    @Test
    void theBudgetSplitAddsUpAndSensitivitiesComeFromTheBounds() {
        ClusterStatistics s = new ClusterStatistics(4, 2);
        DpClusterStatistics.NoisyCells n =
                DpClusterStatistics.noise(
                        s, CODEC, 0.8, Double.NaN, 3, TestRandoms.stream("split"));
        assertEquals(0.8, n.epsilonCount() + n.epsilonSum(), 1e-15);
        assertEquals(3, n.countSensitivity());
        assertEquals(3L * 2 * FixedPointCodec.HALF_RANGE, n.sumSensitivity());
        assertTrue(n.countScale() >= 3 / n.epsilonCount());
        assertTrue(n.sumScale() >= n.sumSensitivity() / n.epsilonSum());
    }

    @Test
    void recoversSeparatedClustersAndIsDeterministicForTheSameRandomness() {
        DomainBounds box = new DomainBounds(new double[] {-50, 0}, new double[] {50, 100});
        FixedPointCodec codec = new FixedPointCodec(box);
        DriftingGaussianMixture mix =
                new DriftingGaussianMixture(box.lowerCopy(), box.upperCopy(), 4, 0.03, 0.0, 42);
        PublicPointSet cells = PublicPointSet.uniform(box, 64, 11);
        ClusterStatistics stats = new ClusterStatistics(64, 2);
        long[] e = new long[2];
        for (double[] x : mix.sample(0, 20_000)) {
            box.clamp(x, x);
            codec.encode(x, e);
            stats.add(cells.nearest(x), e);
        }
        double[][] init = {
            {-40, 10}, {-39, 11}, {-38, 12}, {-37, 13}
        }; // deliberately bad public start
        DpClusterStatistics.Release r1 =
                DpClusterStatistics.release(
                        stats,
                        codec,
                        init,
                        new DpClusterStatistics.ReleaseParams(1.0, Double.NaN, 1),
                        TestRandoms.stream("utility"));
        DpClusterStatistics.Release r2 =
                DpClusterStatistics.release(
                        stats,
                        codec,
                        init,
                        new DpClusterStatistics.ReleaseParams(1.0, Double.NaN, 1),
                        TestRandoms.stream("utility"));
        double err =
                ClusteringMetrics.meanMatchedDistance(mix.centers(0), r1.centroids())
                        / box.maxWidth();
        assertTrue(err < 0.02, "matched error " + err);
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(r1.centroids()[i], r2.centroids()[i], 0.0);
        }
        assertEquals(20_000, java.util.Arrays.stream(r1.weights()).sum(), 500);
    }

    @Test
    void releaseParamsRejectWhatNoReleaseCouldUse() {
        double[][] bad = {
            {0, Double.NaN, 1},
            {Double.POSITIVE_INFINITY, Double.NaN, 1},
            {1, 0, 1},
            {1, 1, 1},
            {1, 0.5, 0}
        };
        for (double[] b : bad) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> new DpClusterStatistics.ReleaseParams(b[0], b[1], (int) b[2]),
                    Arrays.toString(b));
        }
        DpClusterStatistics.ReleaseParams ok =
                new DpClusterStatistics.ReleaseParams(0.5, Double.NaN, 2);
        assertEquals(DpClusterStatistics.Update.MEAN, ok.update());
    }

    @Test
    void shrinkageBringsNoisyCentroidsCloserInHighDimensionAndLeavesLowDimensionsAlone() {
        double shrunk = 0, raw = 0, collapsed = 0;
        for (int seed = 0; seed < 10; seed++) {
            double[] e = errors(40, 0.6, seed, 1);
            raw += e[0];
            shrunk += e[1];
            collapsed += e[2];
        }
        // per centroid ‖noise‖² ≈ 0.62 box widths² against ‖μ − mean‖² ≈ 0.53 (means in [0.3, 0.7]
        // so that clamping the noisy means into the box is rare): James–Stein's factor ≈ 0.5, error
        // ≈ 0.55 of the raw one in theory, every centroid at the mean ≈ 0.9 of it (measured at
        // these seeds: 0.55 and 0.63 of the all-at-the-mean error; two cells each: 0.30)
        assertTrue(shrunk < 0.7 * raw, "shrunk " + shrunk + " vs raw " + raw);
        assertTrue(
                shrunk < 0.75 * collapsed, "shrunk " + shrunk + " vs all at the mean " + collapsed);
        // two cells per cluster: the Lloyd path, centroids of m_i = 2 cells
        shrunk = raw = 0;
        for (int seed = 0; seed < 10; seed++) {
            double[] e = errors(40, 0.6, seed, 2);
            raw += e[0];
            shrunk += e[1];
        }
        assertTrue(shrunk < 0.7 * raw, "two cells each: shrunk " + shrunk + " vs raw " + raw);
        // little noise: hardly any shrinkage
        shrunk = raw = 0;
        for (int seed = 0; seed < 5; seed++) {
            double[] e = errors(40, 30, seed, 1);
            raw += e[0];
            shrunk += e[1];
        }
        assertTrue(shrunk <= 1.02 * raw, "ε = 30: shrunk " + shrunk + " vs raw " + raw);
        for (int seed = 0; seed < 3; seed++) {
            double[][][] c = centroids(CentroidShrinkage.MIN_DIMENSION - 1, 0.6, seed, 1);
            assertTrue(
                    Arrays.deepEquals(c[0], c[1]),
                    "no shrinkage below d = " + CentroidShrinkage.MIN_DIMENSION);
        }
    }

    /**
     * Squared errors of 16 centroids released from 16 clusters (sd 0.02, 400 records each, in
     * {@code cellsPer} cells at the cluster's mean) in d dimensions at ε: without the shrinkage,
     * with it (from the same noisy cells and randomness), and with every centroid at the mean of
     * the unshrunk ones. Each centroid is scored against the cluster its unshrunk version is
     * nearest to (the clusters are far apart against the noise), so collapsing centroids together
     * is not rewarded.
     */
    private static double[] errors(int d, double epsilon, int seed, int cellsPer) {
        double[][][] c = centroids(d, epsilon, seed, cellsPer);
        double[][] means = c[2];
        double[] mean = new double[d];
        for (double[] x : c[0]) {
            for (int j = 0; j < d; j++) {
                mean[j] += x[j] / c[0].length;
            }
        }
        double[] err = new double[3];
        for (int i = 0; i < c[0].length; i++) {
            double[] m = means[new PublicPointSet(means).nearest(c[0][i])];
            err[0] += dist2(c[0][i], m);
            err[1] += dist2(c[1][i], m);
            err[2] += dist2(mean, m);
        }
        return err;
    }

    private static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return s;
    }

    /** {unshrunk centroids, shrunk centroids, the clusters' true means}. */
    private static double[][][] centroids(int d, double epsilon, int seed, int cellsPer) {
        double[] lo = new double[d], hi = new double[d];
        Arrays.fill(hi, 1);
        DomainBounds box = new DomainBounds(lo, hi);
        FixedPointCodec codec = new FixedPointCodec(box);
        java.util.SplittableRandom r = new java.util.SplittableRandom(100 + seed);
        int k = 16;
        double[][] means = new double[k][d];
        ClusterStatistics stats = new ClusterStatistics(k * cellsPer, d);
        long[] enc = new long[d];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < d; j++) {
                means[i][j] = 0.3 + 0.4 * r.nextDouble();
            }
            for (int n = 0; n < 400; n++) {
                double[] x = new double[d];
                for (int j = 0; j < d; j++) {
                    x[j] = means[i][j] + 0.02 * (r.nextDouble() - 0.5) * Math.sqrt(12);
                }
                box.clamp(x, x);
                codec.encode(x, enc);
                stats.add(i * cellsPer + n % cellsPer, enc);
            }
        }
        DpClusterStatistics.NoisyCells cells =
                DpClusterStatistics.noise(
                        stats, codec, epsilon, Double.NaN, 1, TestRandoms.stream("shrink-" + seed));
        double[][] start = new double[k][d];
        for (double[] c : start) {
            Arrays.fill(c, 0.5);
        }
        return new double[][][] {
            DpClusterStatistics.postProcess(
                            cells, codec, start, TestRandoms.stream("post-" + seed), false)
                    .centroids(),
            DpClusterStatistics.postProcess(
                            cells, codec, start, TestRandoms.stream("post-" + seed), true)
                    .centroids(),
            means
        };
    }
}
