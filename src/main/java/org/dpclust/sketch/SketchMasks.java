package org.dpclust.sketch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.RecordPrf;

/**
 * Derives the mask of a record — exactly r distinct feature indices of [0, m) — as a keyed
 * pseudo-random function of the record identity alone: a partial Fisher–Yates shuffle of [0, m)
 * driven by {@link RecordPrf}(secret, {@value #DOMAIN}) of the identity (draw i picks uniformly,
 * exactly, among the m − i indices not yet drawn). So the mask does not depend on arrival order,
 * timing or other records, a replay draws the same mask, and without the secret nobody can choose
 * records whose masks collide.
 *
 * <p>Cost: a CBC-MAC over the identity and about r/4 AES-CTR blocks per record (two JCA calls), no
 * allocation (the shuffle runs in a reused permutation and is undone in O(r)). Construction costs a
 * few microseconds and O(m) memory, so one is reused per thread ({@link #forThread}) or owned by
 * the caller. Not thread-safe.
 */
public final class SketchMasks {
    /**
     * Domain-separation prefix of the mask PRF (v1 drew from PrivacyRandom's AES-CTR stream per
     * record).
     */
    static final String DOMAIN = "dpclust/sketch-mask/v2";

    /** Most SketchMasks kept per thread (see {@link #forThread}): one per (m, r, secret) in use. */
    static final int MAX_PER_THREAD = 16;

    /** The SketchMasks built on each thread, one per (m, r, secret) (see {@link #forThread}). */
    private static final ThreadLocal<ArrayList<SketchMasks>> ON_THREAD =
            ThreadLocal.withInitial(ArrayList::new);

    private final int m;
    private final int r;
    private final PrivacySecret secret;
    private final RecordPrf prf;
    private final int[] permutation;
    private final int[] picks;
    private final int[] mask;

    /** The masks of the last {@link #ofAll} batch, back to back. */
    private int[] batch = new int[0];

    /**
     * @param m number of features
     * @param r features per record, 1 ≤ r ≤ m
     * @param secret the stream's secret (not null)
     */
    public SketchMasks(int m, int r, PrivacySecret secret) {
        if (r < 1 || r > m) {
            throw new IllegalArgumentException("r must be in [1, m=" + m + "], got " + r);
        }
        if (secret == null) {
            throw new IllegalArgumentException("a secret is required for masks");
        }
        this.m = m;
        this.r = r;
        this.secret = secret;
        this.prf = RecordPrf.of(secret, DOMAIN.getBytes(StandardCharsets.UTF_8), r + r / 8 + 4);
        this.permutation = new int[m];
        for (int j = 0; j < m; j++) {
            permutation[j] = j;
        }
        this.picks = new int[r];
        this.mask = new int[r];
    }

    /**
     * The calling thread's SketchMasks for (m, r, secret) (same secret object): one per such triple
     * and thread, kept while the thread uses at most {@value #MAX_PER_THREAD} of them (beyond, the
     * kept ones are dropped and built again on demand). Code that wraps a state array per window or
     * per record thus pays the key setup and the work arrays (O(m), plus a batch's buffers) once
     * per stream shape and thread, however many windows are open, and no instance is ever shared
     * between threads. The masks do not depend on which instance derives them.
     */
    public static SketchMasks forThread(int m, int r, PrivacySecret secret) {
        ArrayList<SketchMasks> kept = ON_THREAD.get();
        for (int i = 0; i < kept.size(); i++) {
            SketchMasks s = kept.get(i);
            if (s.m == m && s.r == r && s.secret == secret) {
                return s;
            }
        }
        if (kept.size() == MAX_PER_THREAD) {
            kept.clear();
        }
        SketchMasks s = new SketchMasks(m, r, secret);
        kept.add(s);
        return s;
    }

    public int size() {
        return m;
    }

    public int r() {
        return r;
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
        return draw();
    }

    /**
     * The masks of {@code identities[0..n)}, the same as n calls of {@link #of}: mask i in entries
     * {@code [i*r, i*r + r)} of the returned array, a reused work array (overwritten by the next
     * call). Cheaper per identity ({@link RecordPrf#resetAll}).
     */
    public int[] ofAll(byte[][] identities, int n) {
        if (n < 0 || n > identities.length) {
            throw new IllegalArgumentException("n must be in [0, " + identities.length + "]");
        }
        if (batch.length < (long) n * r) {
            batch = new int[Math.multiplyExact(n, r)];
        }
        int[] out = batch;
        for (int i = 0; i < n; i++) {
            if (identities[i] == null) {
                throw new IllegalArgumentException("identity must not be null when r < m");
            }
        }
        prf.resetAll(identities, n);
        for (int i = 0; i < n; i++) {
            prf.select(i);
            System.arraycopy(draw(), 0, out, i * r, r);
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
