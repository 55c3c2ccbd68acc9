package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * GUPT's aggregation: the noise scale k·d/(ℓ·ε), exact fixed-point block sums and the block
 * assignment's locality (the statistical DP tests are in {@link GuptKMeansDpTest}).
 */
class GuptKMeansTest {
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});
    private static final double[][] INIT = {{0.0}};

    @Test
    void noiseScaleIsKTimesDOverBlocksTimesEpsilonInBoxUnits() {
        DomainBounds box = new DomainBounds(new double[] {0, -5}, new double[] {2, 5});
        double[][] init = SnapshotStatistics.publicInitialCentroids(box, 3, 1);
        double[][] pts = new double[300][];
        java.util.SplittableRandom g = new java.util.SplittableRandom(3); // public test data
        for (int i = 0; i < pts.length; i++) {
            pts[i] = new double[] {2 * g.nextDouble(), 10 * g.nextDouble() - 5};
        }
        GuptKMeans.Result r =
                GuptKMeans.withPublicBlocks(
                        pts, init, box, 12, 0.5, 1, TestRandoms.stream("scale"));
        double expected = 3.0 * 2 / (12 * 0.5);
        assertEquals(
                GeometricMechanism.scale(3L * 2 << GuptKMeans.FRACTION_BITS, 0.5) / 0x1p32 / 12,
                r.noiseScale(),
                0.0);
        assertEquals(expected, r.noiseScale(), expected * 1e-6);
        assertTrue(r.noiseScale() >= expected);
        for (double[] c : r.centroids()) {
            assertTrue(c[0] >= 0 && c[0] <= 2 && c[1] >= -5 && c[1] <= 5, Arrays.toString(c));
        }
    }

    @Test
    void aRecordsBlockDependsOnItsOwnCoordinatesOnly() {
        double[][] pts = {{0.1, 0.2}, {0.3, 0.4}, {0.5, 0.6}, {0.7, 0.8}};
        int[] all = GuptKMeans.hashBlocks(pts, 3, 9);
        int[] withoutFirst = GuptKMeans.hashBlocks(Arrays.copyOfRange(pts, 1, 4), 3, 9);
        assertArrayEquals(Arrays.copyOfRange(all, 1, 4), withoutFirst);
        assertEquals(
                GuptKMeans.hashBlocks(new double[][] {{-0.0, 0.2}}, 3, 9)[0],
                GuptKMeans.hashBlocks(new double[][] {{0.0, 0.2}}, 3, 9)[0]);
    }

    @Test
    void blockCountIsNToThePowerPointSixAndTheStrictFormSpendsEpsilon() {
        assertEquals(20, GuptKMeans.blockCount(150));
        assertEquals(166, GuptKMeans.blockCount(5000)); // 5000^0.6 = 165.7
        assertEquals(1, GuptKMeans.blockCount(0));
        double[][] pts = new double[150][];
        for (int i = 0; i < pts.length; i++) {
            pts[i] = new double[] {i / 150.0};
        }
        GuptKMeans.Result r =
                GuptKMeans.strict(pts, INIT, UNIT, 0.8, 1, TestRandoms.stream("strict"));
        assertEquals(0.8, r.epsilon(), 0.0);
        assertEquals("dp", r.guarantee().wireName());
        assertEquals(GuptKMeans.blockCount(150), r.blocks(), 2);
        assertEquals(
                "paper-claimed",
                GuptKMeans.paper(pts, INIT, UNIT, 0.8, 1, TestRandoms.stream("paper"))
                        .guarantee()
                        .wireName());
    }

    /**
     * The aggregation's sums are exact: permuting the ℓ block outputs gives bit-identical sums and
     * noisy output (same noise stream), the sums equal the exact real sum Σ u·2^32 within ℓ/2 + ℓ
     * units (per block: half a unit of rounding plus the double evaluation of u), and changing one
     * block moves them by at most k·d·2^32 in L1, the sensitivity.
     */
    @Test
    void blockSumsAreExactOrderIndependentAndWithinTheStatedBound() {
        DomainBounds box = new DomainBounds(new double[] {-3, 0.1}, new double[] {7, 0.3});
        int blocks = 4000;
        int k = 3;
        SplittableRandom g = new SplittableRandom(11); // public test data
        List<double[][]> outs = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            double[][] o = new double[k][2];
            for (double[] c : o) {
                c[0] = -3 + 10 * g.nextDouble();
                c[1] = 0.1 + 0.2 * g.nextDouble();
            }
            outs.add(o);
        }
        long[] sums = GuptKMeans.blockSums(outs.toArray(new double[0][][]), box);
        List<double[][]> shuffled = new ArrayList<>(outs);
        Collections.shuffle(shuffled, new java.util.Random(5));
        double[][][] perm = shuffled.toArray(new double[0][][]);
        assertArrayEquals(sums, GuptKMeans.blockSums(perm, box));
        assertArrayEquals(
                GuptKMeans.aggregate(
                                outs.toArray(new double[0][][]), box, 1.0, TestRandoms.stream("p"))
                        .centroids(),
                GuptKMeans.aggregate(perm, box, 1.0, TestRandoms.stream("p")).centroids());
        for (int c = 0; c < k * 2; c++) {
            int i = c / 2;
            int j = c % 2;
            BigDecimal exact = BigDecimal.ZERO;
            for (double[][] o : outs) {
                exact =
                        exact.add(
                                new BigDecimal(o[i][j])
                                        .subtract(new BigDecimal(box.lower(j)))
                                        .divide(
                                                new BigDecimal(box.width(j)),
                                                java.math.MathContext.DECIMAL128));
            }
            double err =
                    new BigDecimal(sums[c])
                            .subtract(exact.multiply(new BigDecimal(1L << 32)))
                            .abs()
                            .doubleValue();
            assertTrue(err <= blocks / 2.0 + blocks, "coordinate " + c + " off by " + err);
        }
        double[][][] moved = outs.toArray(new double[0][][]);
        moved[17] = new double[][] {{7, 0.3}, {-3, 0.1}, {7, 0.1}};
        long[] after = GuptKMeans.blockSums(moved, box);
        long l1 = 0;
        for (int c = 0; c < sums.length; c++) {
            l1 += Math.abs(after[c] - sums[c]);
        }
        assertTrue(l1 <= GuptKMeans.sumSensitivity(k, 2), "L1 change " + l1);
    }
}
