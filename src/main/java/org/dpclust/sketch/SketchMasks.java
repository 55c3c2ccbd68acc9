package org.dpclust.sketch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.RecordPrf;

/**
 * Derives the mask of a record — exactly r distinct feature indices of [0, m) — as a keyed
 * pseudo-random function of the record identity alone, of one of two {@link Shape}s:
 *
 * <ul>
 *   <li>{@link Shape#UNIFORM}: a partial Fisher–Yates shuffle of [0, m) driven by {@link
 *       RecordPrf}(secret, {@value #DOMAIN}) of the identity (draw i picks uniformly, exactly,
 *       among the m − i indices not yet drawn): a uniform r-subset, as paper 003 draws them.
 *   <li>{@link Shape#BLOCK}: the r cyclically consecutive indices o, o + 1, …, o + r − 1 (mod m)
 *       from one exact uniform offset o ∈ [0, m) drawn by {@link RecordPrf}(secret, {@value
 *       #BLOCK_DOMAIN}) of the identity. Every index is still in a record's mask with probability
 *       r/m (exactly, for an ideal PRF), and a record's r features are still r of the m i.i.d.
 *       frequencies; what differs is only which records share features (neighbouring indices are
 *       covered by largely the same records). The update then reads r consecutive frequency rows
 *       and writes r consecutive sums, with no shuffle (docs/privacy.md#masks).
 * </ul>
 *
 * <p>Either way the mask does not depend on arrival order, timing or other records, a replay draws
 * the same mask, and without the secret nobody can choose records whose masks collide. Privacy does
 * not rest on the shape: the sketch's sensitivity holds for every mask of exactly r indices
 * (MaskedSketch), so both shapes release under the same noise.
 *
 * <p>Cost: a CBC-MAC over the identity and about r/4 AES-CTR blocks (uniform) or one (block) per
 * record, no allocation (the shuffle runs in a reused permutation and is undone in O(r)).
 * Construction costs a few microseconds and O(m) memory, so one is reused per thread ({@link
 * #forThread}) or owned by the caller. Not thread-safe.
 */
public final class SketchMasks {
    /**
     * Domain-separation prefix of the mask PRF (v1 drew from PrivacyRandom's AES-CTR stream per
     * record).
     */
    static final String DOMAIN = "dpclust/sketch-mask/v2";

    /** Domain-separation prefix of the block masks' offset PRF. */
    static final String BLOCK_DOMAIN = "dpclust/sketch-mask-block/v1";

    /**
     * The two mask shapes (class comment): a stream's are block masks; uniform ones are paper
     * 003's, for {@code evaluate ckm} and the reference of {@code evaluate ckm-mask}.
     */
    public enum Shape {
        /** A uniform r-subset of [0, m). */
        UNIFORM("uniform"),
        /** r cyclically consecutive indices from a uniform offset. */
        BLOCK("block");

        private final String wireName;

        Shape(String wireName) {
            this.wireName = wireName;
        }

        /** The shape's name, as reports print it. */
        public String wireName() {
            return wireName;
        }
    }

    /**
     * Most SketchMasks kept per thread (see {@link #forThread}): one per (m, r, shape, secret) in
     * use.
     */
    static final int MAX_PER_THREAD = 16;

    /**
     * The SketchMasks built on each thread, one per (m, r, shape, secret) (see {@link #forThread}).
     */
    private static final ThreadLocal<ArrayList<SketchMasks>> ON_THREAD =
            ThreadLocal.withInitial(ArrayList::new);

    private final int m;
    private final int r;
    private final Shape shape;
    private final PrivacySecret secret;
    private final RecordPrf prf;
    private final int[] permutation;
    private final int[] picks;
    private final int[] mask;

    /** The masks of the last {@link #ofAll} batch, back to back. */
    private int[] batch = new int[0];

    /** The offsets of the last {@link #offsetsOf} batch (block masks). */
    private int[] offsets = new int[0];

    /**
     * @param m number of features
     * @param r features per record, 1 ≤ r ≤ m
     * @param secret the stream's secret (not null)
     */
    public SketchMasks(int m, int r, PrivacySecret secret) {
        this(m, r, Shape.UNIFORM, secret); // paper 003's shape
    }

    /**
     * @param m number of features
     * @param r features per record, 1 ≤ r ≤ m
     * @param shape the masks' shape (not null)
     * @param secret the stream's secret (not null)
     */
    public SketchMasks(int m, int r, Shape shape, PrivacySecret secret) {
        if (r < 1 || r > m) {
            throw new IllegalArgumentException("r must be in [1, m=" + m + "], got " + r);
        }
        if (secret == null || shape == null) {
            throw new IllegalArgumentException("a secret and a shape are required for masks");
        }
        this.m = m;
        this.r = r;
        this.shape = shape;
        this.secret = secret;
        this.prf =
                shape == Shape.UNIFORM
                        ? RecordPrf.of(
                                secret, DOMAIN.getBytes(StandardCharsets.UTF_8), r + r / 8 + 4)
                        : RecordPrf.of(secret, BLOCK_DOMAIN.getBytes(StandardCharsets.UTF_8), 4);
        // the shuffle's work array: uniform masks only (block masks draw one offset)
        this.permutation = new int[shape == Shape.UNIFORM ? m : 0];
        for (int j = 0; j < permutation.length; j++) {
            permutation[j] = j;
        }
        this.picks = new int[r];
        this.mask = new int[r];
    }

    /**
     * The calling thread's uniform SketchMasks for (m, r, secret) (same secret object): one per
     * such triple and thread, kept while the thread uses at most {@value #MAX_PER_THREAD} of them
     * (beyond, the kept ones are dropped and built again on demand). Code that wraps a state array
     * per window or per record thus pays the key setup and the work arrays (O(m), plus a batch's
     * buffers) once per stream shape and thread, however many windows are open, and no instance is
     * ever shared between threads. The masks do not depend on which instance derives them.
     */
    public static SketchMasks forThread(int m, int r, PrivacySecret secret) {
        return forThread(m, r, Shape.UNIFORM, secret);
    }

    /**
     * As {@link #forThread(int, int, PrivacySecret)} for masks of {@code shape}: one per (m, r,
     * shape, secret).
     */
    public static SketchMasks forThread(int m, int r, Shape shape, PrivacySecret secret) {
        ArrayList<SketchMasks> kept = ON_THREAD.get();
        for (int i = 0; i < kept.size(); i++) {
            SketchMasks s = kept.get(i);
            if (s.m == m && s.r == r && s.shape == shape && s.secret == secret) {
                return s;
            }
        }
        if (kept.size() == MAX_PER_THREAD) {
            kept.clear();
        }
        SketchMasks s = new SketchMasks(m, r, shape, secret);
        kept.add(s);
        return s;
    }

    public int size() {
        return m;
    }

    public int r() {
        return r;
    }

    public Shape shape() {
        return shape;
    }

    /**
     * The mask of {@code identity}: r distinct indices of [0, m) in draw order. The returned array
     * is a reused work array, overwritten by the next call.
     */
    public int[] of(byte[] identity) {
        if (identity == null) {
            throw new IllegalArgumentException("identity must not be null when r < m");
        }
        prf.reset(identity);
        return shape == Shape.UNIFORM ? draw() : block(prf.nextInt(m));
    }

    /**
     * The offset o of {@code identity}'s block mask {o, o + 1, …, o + r − 1} (mod m): the same mask
     * as {@link #of}.
     *
     * @throws IllegalStateException if the masks are not block masks
     */
    public int offsetOf(byte[] identity) {
        requireBlock();
        if (identity == null) {
            throw new IllegalArgumentException("identity must not be null when r < m");
        }
        prf.reset(identity);
        return prf.nextInt(m);
    }

    /**
     * The offsets of {@code identities[0..n)}'s block masks, the same as n calls of {@link
     * #offsetOf}, in entries [0, n) of the returned array, a reused work array (overwritten by the
     * next call); cheaper per identity ({@link RecordPrf#resetAll}).
     *
     * @throws IllegalStateException if the masks are not block masks
     */
    public int[] offsetsOf(byte[][] identities, int n) {
        requireBlock();
        checkBatch(identities, n);
        if (offsets.length < n) {
            offsets = new int[n];
        }
        prf.resetAll(identities, n);
        for (int i = 0; i < n; i++) {
            prf.select(i);
            offsets[i] = prf.nextInt(m);
        }
        return offsets;
    }

    private void requireBlock() {
        if (shape != Shape.BLOCK) {
            throw new IllegalStateException("offsets exist only for block masks");
        }
    }

    private static void checkBatch(byte[][] identities, int n) {
        if (n < 0 || n > identities.length) {
            throw new IllegalArgumentException("n must be in [0, " + identities.length + "]");
        }
        for (int i = 0; i < n; i++) {
            if (identities[i] == null) {
                throw new IllegalArgumentException("identity must not be null when r < m");
            }
        }
    }

    /** The block mask at offset o, into the reused mask array. */
    private int[] block(int o) {
        for (int i = 0; i < r; i++) {
            int j = o + i;
            mask[i] = j < m ? j : j - m;
        }
        return mask;
    }

    /**
     * The masks of {@code identities[0..n)}, the same as n calls of {@link #of}: mask i in entries
     * {@code [i*r, i*r + r)} of the returned array, a reused work array (overwritten by the next
     * call). Cheaper per identity ({@link RecordPrf#resetAll}).
     */
    public int[] ofAll(byte[][] identities, int n) {
        checkBatch(identities, n);
        if (batch.length < (long) n * r) {
            batch = new int[Math.multiplyExact(n, r)];
        }
        int[] out = batch;
        prf.resetAll(identities, n);
        for (int i = 0; i < n; i++) {
            prf.select(i);
            int[] one = shape == Shape.UNIFORM ? draw() : block(prf.nextInt(m));
            System.arraycopy(one, 0, out, i * r, r);
        }
        return out;
    }

    /** The partial Fisher–Yates shuffle driven by the current identity's words. */
    private int[] draw() {
        int[] perm = permutation;
        // Fisher–Yates step i swaps positions i and pick ≥ i; position i is final after it and
        // never read again (later steps read positions ≥ i + 1), so its value goes straight to the
        // mask and only position pick is written back
        for (int i = 0; i < r; i++) {
            int pick = i + prf.nextInt(m - i);
            mask[i] = perm[pick];
            perm[pick] = perm[i];
            picks[i] = pick;
        }
        // back to the identity (it was the identity before): only positions i and picks[i] moved
        for (int i = 0; i < r; i++) {
            perm[picks[i]] = picks[i];
            perm[i] = i;
        }
        return mask;
    }
}
