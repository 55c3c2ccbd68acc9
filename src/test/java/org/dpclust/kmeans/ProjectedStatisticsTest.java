package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;

/**
 * {@link ProjectedStatistics}: on a well-separated mixture in 60 dimensions it recovers every
 * centre at a large ε (and the nested cells of the full box, at the same budget and cells, do not);
 * groups partition the records; a replay with the same randomness is identical.
 */
class ProjectedStatisticsTest {
    private static final int D = 60;
    private static final int K = 12;
    private static final int N = 24_000;
    private static final double[][] MEANS = new double[K][D];
    private static final double[][] POINTS = new double[N][D];
    private static final DomainBounds BOX = unitBox(D);
    private static final FixedPointCodec CODEC = new FixedPointCodec(BOX);

    static {
        SplittableRandom rng = new SplittableRandom(17); // test data (public)
        for (double[] mu : MEANS) {
            for (int j = 0; j < D; j++) {
                mu[j] = 0.2 + 0.6 * rng.nextDouble();
            }
        }
        for (double[] x : POINTS) {
            double[] mu = MEANS[rng.nextInt(K)];
            for (int j = 0; j < D; j++) {
                x[j] = mu[j] + 0.01 * rng.nextGaussian();
            }
        }
    }

    static DomainBounds unitBox(int d) {
        double[] lo = new double[d];
        double[] hi = new double[d];
        Arrays.fill(hi, 1);
        return new DomainBounds(lo, hi);
    }

    private static DpClusterStatistics.Release release(double epsilon, String stream) {
        ProjectedStatistics.Plan plan = ProjectedStatistics.Plan.of(BOX, K, 192, 5);
        return ProjectedStatistics.release(
                POINTS,
                CODEC,
                plan,
                SnapshotStatistics.publicInitialCentroids(BOX, K, 5),
                epsilon,
                ProjectedStatistics.defaultShare(plan.projection().dimension(), D),
                1,
                TestRandoms.stream(stream));
    }

    private static double distance(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return Math.sqrt(s);
    }

    @Test
    void recoversEveryCentreOfASeparatedMixtureAtALargeEpsilon() {
        double[][] c = release(300, "recover").centroids();
        assertEquals(K, c.length);
        // the means are ≥ 1.2 apart; a recovered centre is within 0.02 of its mean
        for (double[] mu : MEANS) {
            double nearest = Arrays.stream(c).mapToDouble(x -> distance(x, mu)).min().orElseThrow();
            assertTrue(nearest < 0.02, "mean missed by " + nearest);
        }
        double rel = ClusteringMetrics.sse(POINTS, c) / ClusteringMetrics.sse(POINTS, MEANS);
        assertTrue(rel < 1.05, "relative SSE " + rel);
    }

    @Test
    void atAModerateEpsilonItBeatsNestedCellsOfTheFullBox() {
        double rel = ClusteringMetrics.sse(POINTS, release(3, "moderate").centroids());
        org.dpclust.geometry.NestedPointSet cells =
                org.dpclust.geometry.NestedPointSet.uniform(
                        BOX, 192, Math.max(192, CellRule.maxCells(D)), 5);
        NestedCellStatistics.Noisy nested =
                NestedCellStatistics.noise(
                        SnapshotStatistics.accumulate(POINTS, CODEC, cells.fineSize(), cells::fine),
                        cells,
                        CODEC,
                        3,
                        NestedCellStatistics.DEFAULT_SPLIT_SHARE,
                        1,
                        TestRandoms.stream("moderate-nested"));
        double relNested =
                ClusteringMetrics.sse(
                        POINTS,
                        DpClusterStatistics.postProcess(
                                        nested.cells(),
                                        CODEC,
                                        SnapshotStatistics.publicInitialCentroids(BOX, K, 5),
                                        TestRandoms.stream("moderate-nested-post"))
                                .centroids());
        assertTrue(rel < relNested / 2, "projected " + rel + ", nested " + relNested);
    }

    @Test
    void groupsPartitionTheRecordsAndAReplayIsIdentical() {
        ProjectedStatistics.Plan plan = ProjectedStatistics.Plan.of(BOX, K, 192, 5);
        ProjectedStatistics.Noisy a =
                ProjectedStatistics.noise(
                        POINTS, CODEC, plan, 1, 0.2, 1, TestRandoms.stream("replay"));
        ProjectedStatistics.Noisy b =
                ProjectedStatistics.noise(
                        POINTS, CODEC, plan, 1, 0.2, 1, TestRandoms.stream("replay"));
        assertArrayEquals(a.groups().sums(), b.groups().sums());
        assertArrayEquals(a.groups().counts(), b.groups().counts());
        ProjectedStatistics.Noisy other =
                ProjectedStatistics.noise(
                        POINTS, CODEC, plan, 1, 0.2, 1, TestRandoms.stream("replay-2"));
        assertFalse(Arrays.equals(a.groups().sums(), other.groups().sums()));
        assertEquals(plan.groups(), a.centres().length);
        ClusterStatistics exact =
                ProjectedStatistics.groupStatistics(POINTS, CODEC, plan.projection(), a.centres());
        assertEquals(N, exact.totalCount());
        assertEquals(plan.groups(), a.groups().counts().length);
    }

    @Test
    void publicParametersAreChecked() {
        ProjectedStatistics.Plan plan = ProjectedStatistics.Plan.of(BOX, K, 192, 5);
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        ProjectedStatistics.noise(
                                POINTS, CODEC, plan, 1, 1.0, 1, TestRandoms.stream("x")));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        ProjectedStatistics.noise(
                                POINTS, CODEC, plan, 0, 0.2, 1, TestRandoms.stream("x")));
        assertEquals(8, ProjectedStatistics.defaultDimension(64, 100));
        assertEquals(5, ProjectedStatistics.defaultDimension(8, 100));
        assertEquals(3, ProjectedStatistics.defaultDimension(8, 3));
        assertEquals(
                ProjectedStatistics.MAX_DIMENSION,
                ProjectedStatistics.defaultDimension(10_000, 100));
    }
}
