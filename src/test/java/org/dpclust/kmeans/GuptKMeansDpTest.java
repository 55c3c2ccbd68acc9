package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Statistical DP tests of GUPT (tier {@code dp}): the aggregation alone and the strict form. */
@Tag("dp")
class GuptKMeansDpTest {
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});
    private static final double[][] INIT = {{0.0}};
    private static final int BLOCKS = 2;
    private static final long SEED = 7;
    private static final long SUM_SENSITIVITY = GuptKMeans.sumSensitivity(1, 1);

    /**
     * D: records in the block that 1.0 does NOT hash to, so the other block is empty and outputs
     * the initial centroid 0; D' = D + {1.0}: that block's output moves to 1, the average by 1/ℓ —
     * the full sensitivity k·d/ℓ with k = d = 1.
     */
    private static double[][][] worstCasePair() {
        int blockOfOne = GuptKMeans.hashBlocks(new double[][] {{1.0}}, BLOCKS, SEED)[0];
        List<double[]> d = new ArrayList<>();
        for (int i = 0; i <= 50 && d.size() < 4; i++) {
            double[] x = {i / 100.0};
            if (GuptKMeans.hashBlocks(new double[][] {x}, BLOCKS, SEED)[0] != blockOfOne) {
                d.add(x);
            }
        }
        double[][] dd = d.toArray(new double[0][]);
        double[][] dPrime = Arrays.copyOf(dd, dd.length + 1);
        dPrime[dd.length] = new double[] {1.0};
        return new double[][][] {dd, dPrime};
    }

    private static long[] exactSums(double[][] points) {
        return GuptKMeans.blockSums(
                GuptKMeans.blockOutputs(
                        points, GuptKMeans.hashBlocks(points, BLOCKS, SEED), BLOCKS, INIT),
                UNIT);
    }

    @Test
    void theWorstCasePairMovesTheSumsByTheFullSensitivity() {
        double[][][] pair = worstCasePair();
        assertEquals(4, pair[0].length);
        assertEquals(SUM_SENSITIVITY, exactSums(pair[1])[0] - exactSums(pair[0])[0]);
    }

    /**
     * The aggregation with a public ℓ on the pair above; statistic: the released centroid (one
     * coordinate, the whole output).
     */
    @Test
    void theAggregationPassesCalibratedAndFailsWithHalvedNoise() {
        double[][][] pair = worstCasePair();
        DpTester.assertCalibratedPassesAndHalvedFails(
                "gupt-aggregation",
                1.0,
                1.0,
                DpTester.Options.defaults(),
                false,
                (neighbour, eps, rng) ->
                        GuptKMeans.withPublicBlocks(
                                        pair[neighbour ? 1 : 0], INIT, UNIT, BLOCKS, eps, SEED, rng)
                                .centroids()[0][0]);
    }

    /**
     * The strict form end to end: N released with geometric noise (ε/20), ℓ = round(N̂^0.6) from
     * it, then the aggregation with the rest — the noisy-N composition. Pair: D = ∅ versus D' =
     * {1.0} (k = d = 1). It is worst case for every part at once: N moves by 1, and whatever ℓ the
     * noisy N gives, D's blocks all output the initial centroid 0 while D' moves one block to 1, so
     * the sums move by the full sensitivity 2^32 (a non-empty D would share the record's block for
     * small ℓ and move it less). Statistic: the privacy-loss variable of the transcript (N̂, noisy
     * sum) with the calibrated scales — log-density ratio of the noisy N plus that of the sum given
     * N̂ (at the clip N̂ = 1 the first term is not the exact ratio; the statistic stays a function
     * of the output and only loses a little power there).
     */
    @Test
    void theStrictFormWithNoisyNPassesCalibratedAndFailsWithHalvedNoise() {
        double epsilon = 1.0;
        double epsSize = epsilon * NoisyLloyd.SU_SIZE_FRACTION;
        double sizeScale = GeometricMechanism.scale(1, epsSize);
        double sumScale = GeometricMechanism.scale(SUM_SENSITIVITY, epsilon - epsSize);
        double[][] d = {};
        double[][] dPrime = {{1.0}};
        DpTester.assertCalibratedPassesAndHalvedFails(
                "gupt-strict-noisy-n",
                epsilon,
                epsilon,
                DpTester.Options.defaults().withSamples(50_000),
                false,
                (neighbour, eps, rng) -> {
                    GuptKMeans.Result r =
                            GuptKMeans.strict(neighbour ? dPrime : d, INIT, UNIT, eps, SEED, rng);
                    return DpTester.laplaceLoss(r.noisySize(), 0, 1, sizeScale)
                            + DpTester.laplaceLoss(r.noisySums()[0], 0, SUM_SENSITIVITY, sumScale);
                });
    }
}
