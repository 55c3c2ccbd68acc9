package org.dpclust.privacy;

import java.math.BigInteger;

/**
 * Running sums over windows by tree aggregation (the binary mechanism of Chan, Shi and Song 2011,
 * and Dwork, Naor, Pitassi and Rothblum 2010) with discrete Gaussian noise: windows 0, 1, 2, ... of
 * a fixed horizon T are added in order; every dyadic block of 2^h windows (h = 0 .. L−1, L = ⌊log₂
 * T⌋ + 1) becomes a tree node, released once with noise N_Z(0, σ²) per coordinate when its last
 * window is added; the running sum over windows 0 .. t is the sum of the released nodes of the set
 * bits of t + 1 (at most L nodes), so it carries O(log T) noise terms, not O(T).
 *
 * <h2>Privacy contract</h2>
 *
 * Private: the exact window vectors; {@code l2SensitivitySquared} bounds the squared L2 change of
 * ONE window's vector between neighbours, and a neighbour differs in ONE window only (a record lies
 * in one window: record units). Each window lies in exactly one node per level, so the released
 * nodes change by at most L·Δ₂² in squared L2 over the whole horizon, and with σ² >= L·Δ₂²/(2ρ)
 * ({@link GaussianMechanism#exactVariance}) the transcript of all nodes is ρ-zCDP (CKS20 Theorem
 * 14); running sums are post-processing. Device units that report in every window are NOT covered:
 * a level-h node then moves by 2^h times a window's change, and the tree's Δ₂² grows about as
 * 2T²Δ₂² (docs/zcdp.md, "Running releases for device units"): sum the per-window releases instead.
 * Windows past the horizon are refused.
 *
 * <p>State: the exact partial sum of each level's open block and the latest released node of each
 * level: 2L vectors, O(log T); {@link #state} exports them as 1 + L·(2·length + 1) longs and {@link
 * #restore} rebuilds the identical tree, so a checkpointed tree continues byte-identically. Noise
 * comes only from {@link NodeRandom}, which the caller keys by the node (e.g. {@link
 * PrivacyRandom#forRelease} with the level, index and the node's digest), so a replay draws the
 * same noise. Not thread-safe; holds private data (the partial sums).
 */
public final class BinaryTreeAggregation {
    /**
     * The keyed randomness of one tree node: the caller keys it by the node and the digest of its
     * exact contents, so a replay draws the same noise and other contents draw independent noise.
     */
    @FunctionalInterface
    public interface NodeRandom {
        /**
         * @param level the node's level h (it covers 2^h windows)
         * @param index the node's index within its level
         * @param exact the node's exact sum (private: only for keying, never publish it)
         */
        PrivacyRandom forNode(int level, long index, long[] exact);
    }

    private final int length;
    private final long horizon;
    private final int levels;
    private final GaussianMechanism.Variance variance;
    private final NodeRandom random;
    private final long[][] partial;
    private final long[][] released;
    private long windows;

    /**
     * @param length the vectors' length
     * @param horizon T, the number of windows the tree covers (>= 1)
     * @param l2SensitivitySquared Δ₂² of one window's vector
     * @param rho the ρ of the whole horizon's releases
     */
    public BinaryTreeAggregation(
            int length,
            long horizon,
            BigInteger l2SensitivitySquared,
            double rho,
            NodeRandom random) {
        this(
                length,
                horizon,
                GaussianMechanism.exactVariance(
                        l2SensitivitySquared.multiply(
                                BigInteger.valueOf(levels(checked(length, horizon)))),
                        rho),
                random);
    }

    /** {@code horizon}, after checking that the length and the horizon are >= 1. */
    private static long checked(int length, long horizon) {
        if (length < 1 || horizon < 1) {
            throw new IllegalArgumentException("length and horizon must be >= 1");
        }
        return horizon;
    }

    private BinaryTreeAggregation(
            int length, long horizon, GaussianMechanism.Variance variance, NodeRandom random) {
        this.length = length;
        this.horizon = horizon;
        this.levels = levels(horizon);
        this.variance = variance;
        this.random = random;
        this.partial = new long[levels][length];
        this.released = new long[levels][];
    }

    /**
     * A tree with this one's length, horizon and noise variance (computed once: cheaper than the
     * constructor), drawing from {@code random}, empty ({@code state} null) or with {@code state}
     * ({@link #state} of such a tree).
     */
    public BinaryTreeAggregation with(NodeRandom random, long[] state) {
        BinaryTreeAggregation t = new BinaryTreeAggregation(length, horizon, variance, random);
        if (state != null) {
            t.load(state);
        }
        return t;
    }

    /** L = ⌊log₂ T⌋ + 1: the levels of a tree over T windows. */
    public static int levels(long horizon) {
        return 64 - Long.numberOfLeadingZeros(horizon);
    }

    /** The noise variance σ² of every node (reporting). */
    public double variance() {
        return variance.value();
    }

    /** Windows added so far. */
    public long windows() {
        return windows;
    }

    /**
     * Adds the next window's exact vector and releases the nodes it completes.
     *
     * @throws IllegalStateException past the horizon
     */
    public void add(long[] window) {
        if (window.length != length) {
            throw new IllegalArgumentException("expected " + length + " values");
        }
        if (windows >= horizon) {
            throw new IllegalStateException("the tree's horizon of " + horizon + " is spent");
        }
        long n = windows + 1;
        for (int h = 0; h < levels; h++) {
            for (int i = 0; i < length; i++) {
                // modulo 2^64, like the window sums it adds: the node's noisy value is then the
                // exact node sum plus noise reduced modulo 2^64 (GeometricMechanism's javadoc)
                partial[h][i] += window[i];
            }
            if (n % (1L << h) == 0) {
                long index = n / (1L << h) - 1;
                long[] noisy = new long[length];
                PrivacyRandom rng = random.forNode(h, index, partial[h].clone());
                for (int i = 0; i < length; i++) {
                    noisy[i] =
                            partial[h][i]
                                    + DiscreteGaussian.sample(
                                            rng, variance.num(), variance.den()); // mod 2^64
                }
                released[h] = noisy;
                partial[h] = new long[length];
            }
        }
        windows = n;
    }

    /** Longs of {@link #state} for a tree of {@code length} values over {@code horizon} windows. */
    public static long stateLongs(int length, long horizon) {
        return 1 + levels(horizon) * (2L * length + 1);
    }

    /**
     * The tree's state (private: it holds the exact partial sums): the windows added, each level's
     * open partial sum, then per level a flag (1 = a node was released) and its latest node.
     */
    public long[] state() {
        long[] v = new long[(int) stateLongs(length, horizon)];
        v[0] = windows;
        int at = 1;
        for (int h = 0; h < levels; h++) {
            System.arraycopy(partial[h], 0, v, at, length);
            at += length;
        }
        for (int h = 0; h < levels; h++) {
            v[at++] = released[h] == null ? 0 : 1;
            if (released[h] != null) {
                System.arraycopy(released[h], 0, v, at, length);
            }
            at += length;
        }
        return v;
    }

    /**
     * The tree with {@code state} ({@link #state} of a tree with the same length, horizon,
     * sensitivity and ρ).
     */
    public static BinaryTreeAggregation restore(
            int length,
            long horizon,
            BigInteger l2SensitivitySquared,
            double rho,
            NodeRandom random,
            long[] state) {
        return new BinaryTreeAggregation(length, horizon, l2SensitivitySquared, rho, random)
                .with(random, state);
    }

    private void load(long[] state) {
        if (state.length != stateLongs(length, horizon) || state[0] < 0 || state[0] > horizon) {
            throw new IllegalArgumentException("not the state of this tree");
        }
        windows = state[0];
        int at = 1;
        for (int h = 0; h < levels; h++) {
            System.arraycopy(state, at, partial[h], 0, length);
            at += length;
        }
        for (int h = 0; h < levels; h++) {
            if (state[at++] == 1) {
                released[h] = java.util.Arrays.copyOfRange(state, at, at + length);
            }
            at += length;
        }
    }

    /** The number of levels L. */
    public int levels() {
        return levels;
    }

    /** The latest released node of level h (null before the first); public. */
    public long[] node(int level) {
        return released[level] == null ? null : released[level].clone();
    }

    /**
     * The running sum over windows 0 .. windows()−1: the released nodes of the set bits of
     * windows() (post-processing; zeros before the first window).
     */
    public long[] runningSum() {
        long[] sum = new long[length];
        for (int h = 0; h < levels; h++) {
            if ((windows >> h & 1) == 1) {
                for (int i = 0; i < length; i++) {
                    sum[i] += released[h][i];
                }
            }
        }
        return sum;
    }

    /** How many noisy nodes the current running sum adds up (its noise is that many σ²). */
    public int nodesInRunningSum() {
        return Long.bitCount(windows);
    }
}
