package org.dpclust.sketch;

import java.math.BigInteger;
import java.util.Arrays;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.AccumulatorDigest;
import org.dpclust.privacy.PrivacySecret;

/**
 * Exact, mergeable accumulator of a masked random-Fourier-feature sketch (paper 003, Def. 3,
 * without the noise): for each record x (clamped into the declared bounds and normalised to the
 * unit box, v), the r features j of its mask b_x contribute cos(ω_j·v) to coordinate j and
 * sin(ω_j·v) to coordinate m + j of the real-stacked sum; a record count is kept beside. This is
 * private data (operator state); only {@link DpSketchRelease} turns it into a release.
 *
 * <h2>Masks</h2>
 *
 * The mask of a record is exactly r distinct indices of [0, m), a keyed pseudo-random function of
 * the record identity alone ({@link SketchMasks}): a uniform r-subset (partial Fisher–Yates
 * shuffle) or, with {@link SketchMasks.Shape#BLOCK}, r cyclically consecutive indices from a
 * uniform offset, whose update reads consecutive frequency rows and writes consecutive sums. So the
 * mask does not depend on arrival order, timing or the other records, and a replay draws the same
 * masks. With r = m every record uses every feature and no key is needed. The masks carry no
 * privacy argument of their own (the sensitivity below holds for every mask); they are keyed so
 * that nobody can choose records whose masks collide. The key setup is paid once per thread ({@link
 * SketchMasks#forThread}), so wrapping a state array per record is cheap.
 *
 * <h2>Fixed point and sensitivity</h2>
 *
 * Each feature value f ∈ [−1, 1] is stored as the integer round(f·2^{@value #FRACTION_BITS}) (round
 * half up, {@link Math#round}, under uniform masks; to nearest with ties to even, {@link
 * Math#rint}, under block masks, which needs no tie correction) before summation, and sums are
 * exact long arithmetic: merging is exact addition and accumulation order cannot change the state.
 * Since |cos θ| + |sin θ| ≤ √2 and rounding moves each integer by at most 1/2, one record changes
 * the two integers of one masked feature by at most ⌊√2·2^{@value #FRACTION_BITS} + 1⌋ =
 * ⌊√2·2^{@value #FRACTION_BITS}⌋ + 1 units in L1 ({@link #featureL1Units()}, computed exactly with
 * an integer square root) and leaves unmasked features alone. Hence adding or removing one record
 * changes the sum by at most r·featureL1Units() in L1 ({@link #addRemoveL1Units()}) — r√2 in real
 * units, up to the rounding slack — and the count by 1. (Feature values are computed to within
 * 4e−16, so |cos| + |sin| may exceed √2 by 1e−15; since √2·2^24 = 23726566.23…, that cannot reach
 * the next integer and the bound stands.) Feature values come from {@link SinCos}, plain IEEE
 * arithmetic, so the state (and its digest, which keys the noise) is bit-identical on every JVM.
 * Overflow: sums stay below 2^63 for fewer than 2^38 records.
 *
 * <p>Layout: one {@code long[2m + 1]}: {@code [Σcos_0 .. Σcos_{m−1}, Σsin_0 .. Σsin_{m−1}, count]},
 * so the state is O(m), independent of the number of records, and lives in Flink state without a
 * custom serializer. Not thread-safe (one instance per key and window).
 */
public final class MaskedSketch {
    /** Fraction bits of the fixed-point feature values. */
    public static final int FRACTION_BITS = 24;

    /** 2^FRACTION_BITS as a double. */
    public static final double SCALE = 0x1p24;

    /**
     * Records per move of {@link #addAllBlock}'s double sums into the state (2^12 · 2^24 < 2^53).
     */
    static final int BLOCK_FLUSH = 1 << 12;

    /** {@link #addAllBlock}'s per-thread work array of 2m double sums, zero between calls. */
    private static final ThreadLocal<double[]> BLOCK_SUMS =
            ThreadLocal.withInitial(() -> new double[0]);

    private static final long FEATURE_L1_UNITS =
            BigInteger.ONE.shiftLeft(2 * FRACTION_BITS + 1).sqrt().longValueExact() + 1;

    private final FrequencyMatrix frequencies;
    private final DomainBounds bounds;
    private final int r;
    private final PrivacySecret secret;
    private final long[] data;
    private final int m;
    private final int d;
    // work arrays, reused across records (no per-record allocation)
    private final double[] unit;
    private final double[] phases;
    private final double[] cosines;
    private final double[] sines;

    /**
     * The mask derivation this sketch uses (the caller's, often the thread's shared {@link
     * SketchMasks#forThread} instance), or null: then the thread's, looked up per call (r < m
     * only).
     */
    private final SketchMasks masks;

    /** The masks' shape (that of {@link #masks} when set). */
    private final SketchMasks.Shape shape;

    /**
     * @param frequencies public frequency matrix (unit-box coordinates)
     * @param bounds declared bounds of the stream; dimension must match the matrix
     * @param r features per record, 1 ≤ r ≤ m (α_r = r/m)
     * @param secret the stream's secret for masks; may be null only when r = m
     */
    public MaskedSketch(
            FrequencyMatrix frequencies, DomainBounds bounds, int r, PrivacySecret secret) {
        this(frequencies, bounds, r, SketchMasks.Shape.UNIFORM, secret);
    }

    /**
     * As {@link #MaskedSketch(FrequencyMatrix, DomainBounds, int, PrivacySecret)}, with masks of
     * {@code shape}.
     */
    public MaskedSketch(
            FrequencyMatrix frequencies,
            DomainBounds bounds,
            int r,
            SketchMasks.Shape shape,
            PrivacySecret secret) {
        this(frequencies, bounds, r, shape, secret, null, new long[2 * frequencies.size() + 1]);
    }

    private MaskedSketch(
            FrequencyMatrix frequencies,
            DomainBounds bounds,
            int r,
            SketchMasks.Shape shape,
            PrivacySecret secret,
            SketchMasks masks,
            long[] data) {
        if (frequencies.dimension() != bounds.dimension()) {
            throw new IllegalArgumentException(
                    "frequency dimension "
                            + frequencies.dimension()
                            + " != bounds dimension "
                            + bounds.dimension());
        }
        if (r < 1 || r > frequencies.size()) {
            throw new IllegalArgumentException(
                    "r must be in [1, m=" + frequencies.size() + "], got " + r);
        }
        if (masks != null && (masks.size() != frequencies.size() || masks.r() != r)) {
            throw new IllegalArgumentException(
                    "masks are for m=" + masks.size() + ", r=" + masks.r());
        }
        if (secret == null && masks == null && r < frequencies.size()) {
            throw new IllegalArgumentException("a secret is required for masks when r < m");
        }
        if (data.length != 2 * frequencies.size() + 1) {
            throw new IllegalArgumentException(
                    "state has "
                            + data.length
                            + " longs, expected "
                            + (2 * frequencies.size() + 1));
        }
        this.frequencies = frequencies;
        this.bounds = bounds;
        this.r = r;
        this.secret = secret;
        this.data = data;
        this.m = frequencies.size();
        this.d = frequencies.dimension();
        this.unit = new double[d];
        this.phases = new double[r];
        this.cosines = new double[r];
        this.sines = new double[r];
        this.masks = masks;
        this.shape = masks != null ? masks.shape() : shape;
        if (this.shape == null) {
            throw new IllegalArgumentException("a mask shape is required");
        }
        if (this.shape == SketchMasks.Shape.BLOCK && r == m) {
            throw new IllegalArgumentException("block masks need r < m, got r = m = " + m);
        }
    }

    /**
     * Wraps (does not copy) a state array produced by {@link #state()} under uniform masks (or r =
     * m); a block-mask state must be wrapped with its {@link SketchMasks}.
     */
    public static MaskedSketch wrap(
            FrequencyMatrix frequencies,
            DomainBounds bounds,
            int r,
            PrivacySecret secret,
            long[] state) {
        return new MaskedSketch(
                frequencies, bounds, r, SketchMasks.Shape.UNIFORM, secret, null, state);
    }

    /**
     * Wraps (does not copy) a state array, deriving masks with a caller-owned {@link SketchMasks}
     * (same m; r is its r) instead of the thread's; the masks are the same.
     */
    public static MaskedSketch wrap(
            FrequencyMatrix frequencies, DomainBounds bounds, SketchMasks masks, long[] state) {
        return new MaskedSketch(frequencies, bounds, masks.r(), null, null, masks, state);
    }

    /** L1 change, in fixed-point units, of one masked feature's (cos, sin) pair by one record. */
    public static long featureL1Units() {
        return FEATURE_L1_UNITS;
    }

    /**
     * L1 sensitivity in units of the sum when one record is added or removed: r·featureL1Units().
     */
    public long addRemoveL1Units() {
        return Math.multiplyExact((long) r, FEATURE_L1_UNITS);
    }

    /**
     * Adds one record. {@code x} is in original coordinates and is clamped into the declared bounds
     * (not modified); {@code identity} keys the record's mask (ignored when r = m).
     *
     * @throws IllegalArgumentException if x has the wrong length or a non-finite coordinate (the
     *     stream's validator rejects such records before they reach any accumulator)
     */
    public void add(double[] x, byte[] identity) {
        apply(x, identity, 1);
    }

    /**
     * Adds records {@code xs[0..n)} with their identities: the same state as n calls of {@link
     * #add} (integer sums), with the masks derived together ({@link SketchMasks#ofAll}, cheaper per
     * record). Validates every record before adding any.
     *
     * @throws IllegalArgumentException as {@link #add}, before anything is added
     */
    public void addAll(double[][] xs, byte[][] identities, int n) {
        for (int i = 0; i < n; i++) {
            bounds.checkRecord(xs[i]);
        }
        if (r == m) {
            for (int i = 0; i < n; i++) {
                apply(xs[i], null, 1);
            }
            return;
        }
        SketchMasks derivation = derivation();
        if (shape == SketchMasks.Shape.BLOCK) {
            addAllBlock(xs, derivation.offsetsOf(identities, n), n);
            return;
        }
        int[] batchMasks = derivation.ofAll(identities, n);
        for (int i = 0; i < n; i++) {
            normalise(xs[i]);
            frequencies.phases(batchMasks, i * r, r, unit, phases);
            accumulate(batchMasks, i * r, 1);
        }
    }

    /**
     * Removes a record previously added with the same identity (device contribution bounding
     * evicts).
     */
    public void subtract(double[] x, byte[] identity) {
        apply(x, identity, -1);
    }

    private void apply(double[] x, byte[] identity, int sign) {
        bounds.checkRecord(x);
        normalise(x);
        if (r < m && shape == SketchMasks.Shape.BLOCK) {
            accumulateBlock(derivation().offsetOf(identity), sign); // checks the identity
            return;
        }
        int[] selected = maskOf(identity);
        if (selected == null) {
            frequencies.phases(unit, phases);
        } else {
            frequencies.phases(selected, unit, phases);
        }
        accumulate(selected, 0, sign);
    }

    /**
     * sin/cos of {@link #phases} into the sums of features {@code selected[from..from+r)} (all
     * features when selected is null), with {@code sign}, and the count.
     */
    private void accumulate(int[] selected, int from, int sign) {
        SinCos.of(phases, r, cosines, sines);
        long[] acc = data;
        for (int i = 0; i < r; i++) {
            int j = selected == null ? i : selected[from + i];
            acc[j] += sign * roundHalfUp(cosines[i] * SCALE);
            acc[m + j] += sign * roundHalfUp(sines[i] * SCALE);
        }
        acc[2 * m] += sign;
    }

    /**
     * The block mask at offset o (features o, o + 1, …, o + r − 1 mod m): the features' values as
     * {@link #accumulate} computes them, added over the two runs of consecutive rows and sums the
     * block covers, rounded as {@link #addRun} says.
     */
    private void accumulateBlock(int o, int sign) {
        int first = blockValues(o);
        addRun(cosines, 0, first, o, sign);
        addRun(sines, 0, first, m + o, sign);
        addRun(cosines, first, r - first, 0, sign);
        addRun(sines, first, r - first, m, sign);
        data[2 * m] += sign;
    }

    /**
     * The feature values of the block at offset o for the record in {@link #unit}: (cos, sin) of
     * the phases of rows o … o + r − 1 (mod m) into {@link #cosines} and {@link #sines}, in block
     * order; returns how many come before the wrap at m (the rest are rows 0, 1, …).
     */
    private int blockValues(int o) {
        int first = Math.min(r, m - o);
        frequencies.phasesOfRange(o, first, unit, phases, 0);
        frequencies.phasesOfRange(0, r - first, unit, phases, first);
        SinCos.of(phases, r, cosines, sines);
        return first;
    }

    /**
     * {@link #addAll} under block masks: the same state as {@link #accumulateBlock} per record,
     * with the rounded feature values summed in a double work array first and moved into the long
     * state at the end (and every {@link #BLOCK_FLUSH} records). Exact, so bit-identical: each
     * rounded value is an integer of magnitude at most 2^24 (a feature value is in [−1, 1]: every
     * phase is finite, {@link FrequencyMatrix#MAX_ROW_L1}), so every partial sum of at most {@link
     * #BLOCK_FLUSH} of them is an integer below 2^53 in magnitude, which a double holds exactly,
     * and integer addition does not depend on its order. Reason (measured,
     * docs/performance.md#block-masks): a double sum of rint vectorises where the double-to-long
     * conversion per value does not.
     */
    private void addAllBlock(double[][] xs, int[] offsets, int n) {
        double[] sums = BLOCK_SUMS.get();
        if (sums.length < 2 * m) {
            sums = new double[2 * m];
            BLOCK_SUMS.set(sums);
        }
        int moved = 0;
        try {
            for (int i = 0; i < n; i++) {
                normalise(xs[i]);
                int o = offsets[i];
                int first = blockValues(o);
                sumRun(sums, cosines, 0, first, o);
                sumRun(sums, sines, 0, first, m + o);
                sumRun(sums, cosines, first, r - first, 0);
                sumRun(sums, sines, first, r - first, m);
                if (i + 1 - moved == BLOCK_FLUSH) {
                    moveSums(sums, BLOCK_FLUSH);
                    moved = i + 1;
                }
            }
            moveSums(sums, n - moved);
        } catch (RuntimeException | Error e) {
            // nothing here throws short of the VM; should it, the records not yet moved are
            // dropped whole (sums and count) and the thread's work array is left zero
            Arrays.fill(sums, 0, 2 * m, 0.0);
            throw e;
        }
    }

    /** {@code sums[at + i] += rint(values[from + i] · SCALE)}, i &lt; n (see {@link #addRun}). */
    private static void sumRun(double[] sums, double[] values, int from, int n, int at) {
        for (int i = 0; i < n; i++) {
            sums[at + i] += Math.rint(values[from + i] * SCALE);
        }
    }

    /**
     * Adds the exact integer sums of {@code records} records into the state, with their count, and
     * zeroes the sums.
     */
    private void moveSums(double[] sums, int records) {
        long[] acc = data;
        for (int j = 0, n = 2 * m; j < n; j++) {
            acc[j] += (long) sums[j];
            sums[j] = 0;
        }
        acc[2 * m] += records;
    }

    /**
     * {@code data[at + i] ±= rint(values[from + i] · SCALE)}, i &lt; n: block masks round to the
     * nearest integer with ties to even ({@link Math#rint}), which moves a value by at most ½ like
     * {@link Math#round} (the same L1 and L2 sensitivity) without Math.round's tie correction.
     */
    private void addRun(double[] values, int from, int n, int at, int sign) {
        long[] acc = data;
        if (sign > 0) {
            for (int i = 0; i < n; i++) {
                acc[at + i] += (long) Math.rint(values[from + i] * SCALE);
            }
        } else {
            for (int i = 0; i < n; i++) {
                acc[at + i] -= (long) Math.rint(values[from + i] * SCALE);
            }
        }
    }

    /** The mask derivation: the caller's, else the thread's for (m, r, shape, secret). */
    private SketchMasks derivation() {
        return masks != null ? masks : SketchMasks.forThread(m, r, shape, secret);
    }

    /**
     * {@link Math#round}(x), bit-identical for |x| &lt; 2^52 (here |x| ≤ 2^24), through the {@link
     * Math#rint} intrinsic: rint rounds ties to even, so a tie it rounded down (x − rint(x) = ½,
     * computed exactly) is moved up, which is Math.round's ties-up rule.
     */
    static long roundHalfUp(double x) {
        double r = Math.rint(x);
        return (long) r + (x - r == 0.5 ? 1 : 0);
    }

    /** x (checked) clamped and scaled into the unit box, into {@link #unit}. */
    private void normalise(double[] x) {
        bounds.clamp(x, unit);
        for (int t = 0; t < d; t++) {
            unit[t] = (unit[t] - bounds.lower(t)) / bounds.width(t);
        }
    }

    /**
     * The record's mask (r distinct feature indices in draw order), or null when r = m (all
     * features). The returned array is a reused work array.
     */
    int[] maskOf(byte[] identity) {
        if (r == m) {
            return null;
        }
        return derivation().of(identity);
    }

    /** Adds another accumulator of the same shape (same frequencies, bounds and r) element-wise. */
    public void merge(MaskedSketch other) {
        if (!other.frequencies.sameFrequencies(frequencies)
                || other.r != r
                || other.shape != shape
                || !Arrays.equals(other.bounds.lowerCopy(), bounds.lowerCopy())
                || !Arrays.equals(other.bounds.upperCopy(), bounds.upperCopy())) {
            throw new IllegalArgumentException("cannot merge sketches of different shapes");
        }
        for (int i = 0; i < data.length; i++) {
            data[i] += other.data[i];
        }
    }

    /** The live state array (see the class comment for its layout). */
    public long[] state() {
        return data;
    }

    /** The 2m fixed-point sums, real-stacked (a copy). */
    public long[] sums() {
        return Arrays.copyOf(data, 2 * m);
    }

    public long count() {
        return data[2 * m];
    }

    public FrequencyMatrix frequencies() {
        return frequencies;
    }

    public DomainBounds bounds() {
        return bounds;
    }

    public int r() {
        return r;
    }

    public SketchMasks.Shape shape() {
        return shape;
    }

    /** α_r = r/m. */
    public double alpha() {
        return (double) r / m;
    }

    /**
     * Digest of the exact contents and shape (block masks named, uniform as before): keys the
     * release's noise (same contents, same noise).
     */
    public byte[] digest() {
        return new AccumulatorDigest()
                .add(
                        shape == SketchMasks.Shape.BLOCK
                                ? "masked-sketch/block/v1"
                                : "masked-sketch/v1")
                .add(m)
                .add(d)
                .add(r)
                .add(frequencies.toArray())
                .add(bounds.lowerCopy())
                .add(bounds.upperCopy())
                .add(data)
                .digest();
    }
}
