package org.dpclust.kmeans;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * GUPT (Mohan, Thakurta, Shi, Song, Culler, SIGMOD 2012) for k-means: sample and aggregate
 * (docs/algorithms.md#gupt). Data are split into ℓ disjoint blocks, Lloyd runs on each block from
 * the same initial centroids, and the block outputs are averaged coordinate by coordinate and
 * released with Laplace noise. Centroid i of every block is the centroid that started at initial
 * centroid i (the alignment across blocks is by the shared start, the reference matching
 * docs/algorithms.md#gupt leaves open). Block size n^{@value #BLOCK_SIZE_EXPONENT}, i.e. ℓ =
 * round(n^0.6) blocks.
 *
 * <h2>The aggregation ({@link #aggregate}) and its sensitivity</h2>
 *
 * Every block output is clamped into the declared box (a block's Lloyd centroids are means of
 * clamped points, or the initial centroids; the clamp only removes rounding). In box units u = (c −
 * lower_j)/width_j every coordinate of a block output is in [0, 1], and it is encoded in fixed
 * point as v = round(u·2^{@value #FRACTION_BITS}) ∈ [0, 2^{@value #FRACTION_BITS}] (a function of
 * that block's output alone). The k·d coordinate sums S = Σ_blocks v are exact long arithmetic (no
 * rounding, independent of the order of the blocks; ℓ·2^32 &lt; 2^63). One record lies in exactly
 * one block, so a neighbour (add/remove one record) changes one block's output, each of its k·d
 * fixed-point coordinates by at most 2^32, hence S by at most k·d·2^32 in L1 — exactly, whatever
 * the floating-point rounding of the block's Lloyd run. S gets the two-sided geometric mechanism
 * ({@link GeometricMechanism}) at that L1 sensitivity and ε, i.e. noise of scale k·d·2^32/ε units =
 * k·d/(ℓ·ε) box units on the average S/(ℓ·2^32) — which is the rule of docs/algorithms.md#gupt:
 * scale range/(ℓ·ε_dim) with ε_dim = ε/(k·d), the budget divided over the k·d output coordinates by
 * sequential composition. (Requires k·d/ε &lt; 2^30, the geometric mechanism's range.) Dividing by
 * ℓ·2^32, mapping back to coordinates and clamping into the box are post-processing. This needs ℓ
 * public and the block of every OTHER record unchanged by the neighbour; the two forms differ
 * exactly there:
 *
 * <h2>{@link #strict} — label {@link Guarantee#DP}</h2>
 *
 * Private: the points, clamped into the declared bounds; add/remove one record. ℓ is derived from N
 * released with two-sided geometric noise (sensitivity 1, {@value NoisyLloyd#SU_SIZE_FRACTION} of
 * ε, as SU's dp variant); a record's block is a function of its own clamped coordinates and the
 * public seed ({@link #hashBlocks}), so adding or removing a record leaves every other record's
 * block as it was. The remaining ε goes to {@link #aggregate}; the run is ε-DP by sequential
 * composition. The initial centroids must be public.
 *
 * <h2>{@link #paper} — label {@link Guarantee#PAPER_CLAIMED}</h2>
 *
 * The paper's form: ℓ from the exact N, blocks from a random permutation (public seed) cut into ℓ
 * equal parts, all of ε on the aggregation, initial centroids as the caller gives them (in Lu &amp;
 * Shen's experiments: records of the data). Not DP under add/remove: ℓ reveals N exactly, and one
 * added record shifts the permutation's cut points, so it can change every block, not one.
 */
public final class GuptKMeans {
    public static final double BLOCK_SIZE_EXPONENT = 0.4;
    public static final int BLOCK_ITERATIONS = Lloyd.DEFAULT_MAX_ITERATIONS;

    /** Fixed-point fraction bits of a block output coordinate in box units. */
    public static final int FRACTION_BITS = 32;

    private static final double ONE = 0x1p32;

    private GuptKMeans() {}

    /**
     * Outcome of a run.
     *
     * @param centroids the released centroids (k×d)
     * @param blocks ℓ
     * @param epsilon ε spent (size release and aggregation)
     * @param noiseScale the noise scale per coordinate of the average, in box units
     *     (k·d/(ℓ·ε_aggregate), rounded up by the geometric mechanism's exact scale)
     * @param noisySums the mechanism's direct output: the noisy fixed-point sums of the block
     *     outputs (k·d, units of 2^-{@value #FRACTION_BITS} box widths; the average is their
     *     quotient by ℓ·2^{@value #FRACTION_BITS})
     * @param noisySize the released noisy N the strict form derived ℓ from, or -1 (ℓ given, or the
     *     paper form's exact N)
     * @param guarantee {@link Guarantee#DP} or {@link Guarantee#PAPER_CLAIMED}
     */
    public record Result(
            double[][] centroids,
            int blocks,
            double epsilon,
            double noiseScale,
            long[] noisySums,
            long noisySize,
            Guarantee guarantee) {}

    /** ℓ = max(1, round(n^(1 − {@value #BLOCK_SIZE_EXPONENT}))): blocks of size n^0.4. */
    public static int blockCount(double n) {
        return (int) Math.max(1, Math.round(Math.pow(Math.max(n, 1), 1 - BLOCK_SIZE_EXPONENT)));
    }

    /**
     * Strict form (see the class comment): ε-DP under add/remove of one record, bounds declared.
     */
    public static Result strict(
            double[][] points,
            double[][] publicInit,
            DomainBounds bounds,
            double epsilon,
            long publicSeed,
            PrivacyRandom rng) {
        double epsSize = epsilon * NoisyLloyd.SU_SIZE_FRACTION;
        long noisyN = NoisyLloyd.noisySize(points.length, epsSize, rng);
        Result r =
                withPublicBlocks(
                        points,
                        publicInit,
                        bounds,
                        blockCount(noisyN),
                        BudgetSplit.remainder(epsilon, epsSize),
                        publicSeed,
                        rng);
        return new Result(
                r.centroids(),
                r.blocks(),
                epsilon,
                r.noiseScale(),
                r.noisySums(),
                noisyN,
                Guarantee.DP);
    }

    /**
     * The strict form for a public ℓ: points clamped, blocks by {@link #hashBlocks}, then {@link
     * #aggregate} with all of ε — ε-DP under add/remove of one record (the class comment's
     * derivation).
     */
    public static Result withPublicBlocks(
            double[][] points,
            double[][] publicInit,
            DomainBounds bounds,
            int blocks,
            double epsilon,
            long publicSeed,
            PrivacyRandom rng) {
        double[][] clamped = clampedCopy(points, bounds);
        int[] blockOf = hashBlocks(clamped, blocks, publicSeed);
        return aggregate(blockOutputs(clamped, blockOf, blocks, publicInit), bounds, epsilon, rng);
    }

    /**
     * Paper form (see the class comment): the points are taken to lie in {@code bounds} already.
     */
    public static Result paper(
            double[][] points,
            double[][] init,
            DomainBounds bounds,
            double epsilon,
            long publicSeed,
            PrivacyRandom rng) {
        int n = points.length;
        int blocks = blockCount(n);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        // the paper's random blocks from the public seed
        SplittableRandom perm = new SplittableRandom(publicSeed); // public randomness, not noise
        for (int i = n - 1; i > 0; i--) {
            int j = perm.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] blockOf = new int[n];
        for (int pos = 0; pos < n; pos++) {
            blockOf[order[pos]] = (int) ((long) pos * blocks / n);
        }
        Result r = aggregate(blockOutputs(points, blockOf, blocks, init), bounds, epsilon, rng);
        return new Result(
                r.centroids(),
                r.blocks(),
                epsilon,
                r.noiseScale(),
                r.noisySums(),
                -1,
                Guarantee.PAPER_CLAIMED);
    }

    /** A copy of the points clamped into the box. */
    static double[][] clampedCopy(double[][] points, DomainBounds bounds) {
        double[][] clamped = new double[points.length][];
        for (int i = 0; i < points.length; i++) {
            clamped[i] = points[i].clone();
            bounds.clamp(clamped[i], clamped[i]);
        }
        return clamped;
    }

    /**
     * The block of each record: a 64-bit mix of the public seed and the bits of the record's own
     * coordinates, modulo ℓ. It depends on nothing but the record, so a neighbour changes the
     * content of one block only.
     */
    public static int[] hashBlocks(double[][] points, int blocks, long publicSeed) {
        int[] out = new int[points.length];
        for (int i = 0; i < points.length; i++) {
            long h = mix(publicSeed);
            for (double x : points[i]) {
                h = mix(h ^ Double.doubleToLongBits(x + 0.0)); // + 0.0 maps -0.0 to 0.0
            }
            out[i] = (int) Math.floorMod(h, (long) blocks);
        }
        return out;
    }

    private static long mix(long z) { // SplitMix64's finaliser
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Lloyd on each block from {@code init}; an empty block outputs {@code init}. */
    static double[][][] blockOutputs(
            double[][] points, int[] blockOf, int blocks, double[][] init) {
        int[] sizes = new int[blocks];
        for (int b : blockOf) {
            sizes[b]++;
        }
        double[][][] members = new double[blocks][][];
        for (int b = 0; b < blocks; b++) {
            members[b] = new double[sizes[b]][];
        }
        int[] fill = new int[blocks];
        for (int i = 0; i < points.length; i++) {
            members[blockOf[i]][fill[blockOf[i]]++] = points[i];
        }
        double[][][] out = new double[blocks][][];
        for (int b = 0; b < blocks; b++) {
            if (sizes[b] == 0) {
                out[b] = ExpDpKMeans.copy(init);
            } else {
                double[] ones = new double[sizes[b]];
                Arrays.fill(ones, 1.0);
                out[b] = Lloyd.runWeighted(members[b], ones, init, BLOCK_ITERATIONS).centroids();
            }
        }
        return out;
    }

    /**
     * The exact fixed-point sums S (k·d, in units of 2^-{@value #FRACTION_BITS} box widths) of the
     * block outputs, each coordinate clamped to [0, 1] box units before encoding (see the class
     * comment). Private: the input to the mechanism.
     */
    static long[] blockSums(double[][][] blockOutputs, DomainBounds bounds) {
        int k = blockOutputs[0].length;
        int d = bounds.dimension();
        long[] sums = new long[k * d];
        for (double[][] out : blockOutputs) {
            for (int i = 0; i < k; i++) {
                for (int j = 0; j < d; j++) {
                    // clamped: the sensitivity argument needs every coordinate in [0, 1] box units,
                    // whatever the initial centroids or the rounding of a block's mean
                    double unit =
                            Math.min(
                                    1,
                                    Math.max(0, (out[i][j] - bounds.lower(j)) / bounds.width(j)));
                    sums[i * d + j] += Math.round(unit * ONE);
                }
            }
        }
        return sums;
    }

    /** The L1 sensitivity k·d·2^{@value #FRACTION_BITS} of {@link #blockSums} (class comment). */
    static long sumSensitivity(int k, int d) {
        return Math.multiplyExact((long) k * d, 1L << FRACTION_BITS);
    }

    /**
     * The mechanism: the exact fixed-point sums of the ℓ block outputs (each k×d, in the box),
     * two-sided geometric noise with L1 sensitivity k·d·2^32 and ε (see the class comment), then
     * the average back in coordinates, clamped into the box.
     */
    static Result aggregate(
            double[][][] blockOutputs, DomainBounds bounds, double epsilon, PrivacyRandom rng) {
        int blocks = blockOutputs.length;
        int k = blockOutputs[0].length;
        int d = bounds.dimension();
        long sensitivity = sumSensitivity(k, d);
        long[] noisy =
                GeometricMechanism.addNoise(
                        blockSums(blockOutputs, bounds), sensitivity, epsilon, rng);
        // ---- post-processing: only the noisy sums and public values below this line ----
        double[][] c = new double[k][d];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < d; j++) {
                double mean = noisy[i * d + j] / ONE / blocks;
                c[i][j] = bounds.lower(j) + mean * bounds.width(j);
            }
            bounds.clamp(c[i], c[i]);
        }
        return new Result(
                c,
                blocks,
                epsilon,
                GeometricMechanism.scale(sensitivity, epsilon) / ONE / blocks,
                noisy,
                -1,
                Guarantee.DP);
    }
}
