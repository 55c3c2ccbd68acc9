package org.dpclust.privacy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A keyed pseudo-random function from a record identity to a stream of uniform 32-bit words, cheap
 * enough to run once per record (a few AES calls) and allocation-free after construction.
 *
 * <p>Construction. Two AES-256 keys are derived once from the secret and the purpose {@code
 * domain}: K_mac = HMAC-SHA256(secret, {@value #MAC_LABEL} ‖ 0x00 ‖ domain) and K_ctr =
 * HMAC-SHA256(secret, {@value #CTR_LABEL} ‖ 0x00 ‖ domain). For {@link #reset}(identity): the tag T
 * = CBC-MAC under K_mac (zero IV, the last ciphertext block) of uint64be(identity length) ‖
 * identity ‖ zero padding to a whole number of 16-byte blocks; the word stream is AES-256-CTR under
 * K_ctr with counter blocks T[0..12) ‖ uint32be(i), i = 0, 1, …, read as big-endian 32-bit words.
 *
 * <p>Contract. Determinism: the words depend on (secret, domain, identity) only, identically on
 * every JVM (standard JCA AES and HMAC). Pseudo-randomness: HMAC-SHA256 is a PRF, so K_mac and
 * K_ctr are independent uniform keys (the labels appear nowhere else in the project); with its
 * length prefix the encoding is prefix-free, and CBC-MAC of a block cipher is a PRF on prefix-free
 * messages (Bellare–Kilian–Rogaway), so the tags of distinct identities are independent uniform
 * strings up to the birthday bound; AES under K_ctr is a PRP, so while no two identities' 96-bit
 * nonces collide (probability about q²/2^97 for q identities) the streams of distinct identities
 * are computationally indistinguishable from independent uniform words. Not for privacy noise (use
 * {@link PrivacyRandom}): it serves per-record choices, such as sketch masks, that must be
 * unpredictable and unchoosable without the secret. Not thread-safe.
 */
public final class RecordPrf {
    static final String MAC_LABEL = "dpclust/record-prf/v1/cbc-mac-key";
    static final String CTR_LABEL = "dpclust/record-prf/v1/ctr-key";
    private static final int MAX_CHUNK_BLOCKS = 64;
    private static final VarHandle INT_BE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** For XOR and copies of 8-byte groups, where the byte order does not matter. */
    private static final VarHandle LONG_NATIVE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final Cipher cbc;
    private final Cipher ctr;

    /** AES under K_mac without chaining: the batched CBC-MAC ({@link #resetAll}) chains by hand. */
    private final Cipher macBlocks;

    /**
     * The CBC chaining value the cipher holds (its last output block), to emulate a zero IV per
     * message.
     */
    private final byte[] chain = new byte[16];

    private final byte[] tag = new byte[16];
    private byte[] message = new byte[64];
    private byte[] macOut = new byte[64];
    private final int chunkBlocks;
    private final int chunkBytes;
    private final byte[] counters;
    private final byte[] keystream;
    private int counter;

    /** The current words: {@code stream[pos..end)} (the keystream chunk, or a batch's). */
    private byte[] stream;

    private int pos;
    private int end;

    /** Whether the counter blocks still hold another identity's nonce (after a reset or select). */
    private boolean noncePending;

    /** Before the first {@link #reset}, and after {@link #resetAll} until {@link #select}. */
    private boolean noneCurrent = true;

    // batch state (resetAll / select): per identity a tag and its first keystream chunk
    private byte[] batchTags = new byte[0];
    private byte[] batchKeystream = new byte[0];
    private byte[] batchIn = new byte[0];
    private byte[] batchOut = new byte[0];
    private byte[] batchMessages = new byte[0];
    private int[] batchOffsets = new int[0];
    private int[] batchBlocks = new int[0];
    private int[] batchOrder = new int[0];
    private int batchSize;

    private RecordPrf(PrivacySecret secret, byte[] domain, int wordsPerIdentity) {
        if (secret == null || domain == null) {
            throw new IllegalArgumentException("secret and domain must not be null");
        }
        if (wordsPerIdentity < 1) {
            throw new IllegalArgumentException(
                    "wordsPerIdentity must be >= 1, got " + wordsPerIdentity);
        }
        this.chunkBlocks = Math.min(MAX_CHUNK_BLOCKS, (wordsPerIdentity + 3) / 4);
        this.chunkBytes = 16 * chunkBlocks;
        this.counters = new byte[chunkBytes];
        this.keystream = new byte[chunkBytes];
        this.stream = keystream;
        this.pos = chunkBytes;
        this.end = chunkBytes;
        byte[] kMac = secret.hmacSha256(label(MAC_LABEL, domain));
        byte[] kCtr = secret.hmacSha256(label(CTR_LABEL, domain));
        try {
            cbc = Cipher.getInstance("AES/CBC/NoPadding");
            cbc.init(
                    Cipher.ENCRYPT_MODE,
                    new SecretKeySpec(kMac, "AES"),
                    new IvParameterSpec(new byte[16]));
            ctr = Cipher.getInstance("AES/ECB/NoPadding");
            ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(kCtr, "AES"));
            macBlocks = Cipher.getInstance("AES/ECB/NoPadding");
            macBlocks.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(kMac, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CBC or AES/ECB unavailable", e);
        } finally {
            Arrays.fill(kMac, (byte) 0);
            Arrays.fill(kCtr, (byte) 0);
        }
    }

    /** The HMAC context of a derived key: label ‖ 0x00 ‖ domain. */
    static byte[] label(String label, byte[] domain) {
        byte[] l = label.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(l, l.length + 1 + domain.length);
        System.arraycopy(domain, 0, out, l.length + 1, domain.length);
        return out;
    }

    /**
     * A PRF for one purpose; {@code domain} separates purposes (e.g. "dpclust/sketch-mask/v2").
     * {@code wordsPerIdentity} is the typical number of words read per identity: the keystream is
     * produced in chunks of that many words (at most 256), so a typical identity costs one CTR
     * call. It does not change the words.
     */
    public static RecordPrf of(PrivacySecret secret, byte[] domain, int wordsPerIdentity) {
        return new RecordPrf(secret, domain, wordsPerIdentity);
    }

    /** Starts the word stream of {@code identity} (any length, not null). */
    public void reset(byte[] identity) {
        if (identity == null) {
            throw new IllegalArgumentException("identity must not be null");
        }
        cbcMac(identity, tag, 0);
        counter = 0;
        stream = keystream;
        pos = chunkBytes;
        end = chunkBytes;
        noncePending = true; // the first refill writes the tag's nonce into the counter blocks
        noneCurrent = false;
    }

    /** The CBC-MAC tag of {@code identity} (see the class comment) into out[at..at+16). */
    private void cbcMac(byte[] identity, byte[] out, int at) {
        int len = Math.toIntExact(16 * ((8L + identity.length + 15) / 16));
        byte[] message = this.message;
        byte[] macOut = this.macOut;
        if (len > message.length) {
            // kept up to MAX_KEPT_MESSAGE (then no more allocation); a longer identity's buffers
            // are its own, so one huge device id does not pin them for the instance's life
            message = new byte[len];
            macOut = new byte[len];
            if (len <= MAX_KEPT_MESSAGE) {
                this.message = message;
                this.macOut = macOut;
            }
        }
        LONG_BE.set(message, 0, (long) identity.length);
        System.arraycopy(identity, 0, message, 8, identity.length);
        Arrays.fill(message, 8 + identity.length, len, (byte) 0);
        for (int i = 0;
                i < 16;
                i++) { // the cipher chains from its previous output: cancel it (zero IV)
            message[i] ^= chain[i];
        }
        encrypt(cbc, message, len, macOut);
        System.arraycopy(macOut, len - 16, chain, 0, 16);
        System.arraycopy(macOut, len - 16, out, at, 16);
    }

    /**
     * Identities of more blocks than this are MACed on their own in a batch ({@link #resetAll}), so
     * one huge identity does not make every block position a separate AES call over the batch.
     */
    static final int MAX_SIDE_BY_SIDE_BLOCKS = 16;

    /** Longest CBC-MAC message whose work buffers an instance keeps (see {@link #cbcMac}). */
    static final int MAX_KEPT_MESSAGE = 4096;

    /**
     * Starts the word streams of {@code identities[0..n)} at once; {@link #select}(i) then makes
     * identity i's stream current, with exactly the words {@link #reset}(identities[i]) would give.
     * Cheaper per identity than n resets: the n CBC-MACs advance block by block side by side (one
     * AES call per block position over all identities still that long, instead of a chain of
     * dependent single blocks per identity), and the first keystream chunks of all n come from one
     * AES call. The identities are read now (later changes to the arrays do not matter).
     */
    public void resetAll(byte[][] identities, int n) {
        if (n < 0 || n > identities.length) {
            throw new IllegalArgumentException("n must be in [0, " + identities.length + "]");
        }
        int totalBlocks = 0;
        int maxBlocks = 0;
        for (int i = 0; i < n; i++) {
            if (identities[i] == null) {
                throw new IllegalArgumentException("identity must not be null");
            }
            long blocks = (8L + identities[i].length + 15) / 16;
            if (blocks <= MAX_SIDE_BY_SIDE_BLOCKS) {
                totalBlocks += (int) blocks;
                maxBlocks = Math.max(maxBlocks, (int) blocks);
            }
        }
        ensureBatch(n, totalBlocks);
        Arrays.fill(batchTags, 0, 16 * n, (byte) 0); // the zero IV
        // every short identity's CBC-MAC message (as reset builds it), back to back; a long one's
        // tag now, by the single path
        for (int i = 0, off = 0; i < n; i++) {
            byte[] id = identities[i];
            long blocks = (8L + id.length + 15) / 16;
            if (blocks > MAX_SIDE_BY_SIDE_BLOCKS) {
                cbcMac(id, batchTags, 16 * i);
                batchBlocks[i] = 0; // takes no part in the side-by-side steps
                continue;
            }
            int len = 16 * (int) blocks;
            LONG_BE.set(batchMessages, off, (long) id.length);
            System.arraycopy(id, 0, batchMessages, off + 8, id.length);
            Arrays.fill(batchMessages, off + 8 + id.length, off + len, (byte) 0);
            batchOffsets[i] = off;
            batchBlocks[i] = len / 16;
            off += len;
        }
        for (int b = 0; b < maxBlocks; b++) {
            // block b of every message still that long, chained with its previous output
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (batchBlocks[i] > b) {
                    int m = batchOffsets[i] + 16 * b;
                    int t = 16 * i;
                    LONG_NATIVE.set(
                            batchIn,
                            16 * k,
                            (long) LONG_NATIVE.get(batchMessages, m)
                                    ^ (long) LONG_NATIVE.get(batchTags, t));
                    LONG_NATIVE.set(
                            batchIn,
                            16 * k + 8,
                            (long) LONG_NATIVE.get(batchMessages, m + 8)
                                    ^ (long) LONG_NATIVE.get(batchTags, t + 8));
                    batchOrder[k++] = i;
                }
            }
            encrypt(macBlocks, batchIn, 16 * k, batchOut);
            for (int j = 0; j < k; j++) {
                int t = 16 * batchOrder[j];
                LONG_NATIVE.set(batchTags, t, (long) LONG_NATIVE.get(batchOut, 16 * j));
                LONG_NATIVE.set(batchTags, t + 8, (long) LONG_NATIVE.get(batchOut, 16 * j + 8));
            }
        }
        // the first chunk of every identity's keystream: counter blocks tag[0..12) ‖ uint32be(c)
        for (int i = 0; i < n; i++) {
            int o = i * chunkBytes;
            writeNonce(batchTags, 16 * i, batchIn, o);
            for (int c = 0; c < chunkBlocks; c++) {
                INT_BE.set(batchIn, o + 16 * c + 12, c);
            }
        }
        encrypt(ctr, batchIn, n * chunkBytes, batchKeystream);
        batchSize = n;
        // no identity is current until select: the next word would otherwise be an old stream's
        stream = keystream;
        pos = chunkBytes;
        end = chunkBytes;
        noneCurrent = true;
    }

    /**
     * Makes the stream of identity {@code i} of the last {@link #resetAll} current, from its first
     * word (selecting it again restarts it).
     */
    public void select(int i) {
        if (i < 0 || i >= batchSize) {
            throw new IllegalArgumentException("no identity " + i + " in the batch");
        }
        System.arraycopy(batchTags, 16 * i, tag, 0, 16);
        stream = batchKeystream;
        pos = i * chunkBytes;
        end = pos + chunkBytes;
        counter = chunkBlocks;
        noncePending = true;
        noneCurrent = false;
    }

    private void ensureBatch(int n, int totalBlocks) {
        int tagBytes = Math.multiplyExact(16, n); // sizes first: a failed check changes nothing
        int keystreamBytes = Math.multiplyExact(n, chunkBytes);
        if (batchTags.length < tagBytes) {
            batchTags = new byte[tagBytes];
            batchBlocks = new int[n];
            batchOffsets = new int[n];
            batchOrder = new int[n];
            batchOut = new byte[tagBytes];
            batchKeystream = new byte[keystreamBytes];
            batchIn = new byte[Math.max(tagBytes, keystreamBytes)];
        }
        if (batchMessages.length < Math.multiplyExact(16, totalBlocks)) {
            batchMessages = new byte[16 * totalBlocks];
        }
    }

    /** The CBC-MAC tag of the current identity (a copy; tests). */
    byte[] tag() {
        return tag.clone();
    }

    /** The next 32 uniform bits of the current identity's stream. */
    public int nextInt() {
        if (pos == end) {
            refill();
        }
        int v = (int) INT_BE.get(stream, pos);
        pos += 4;
        return v;
    }

    /**
     * Uniform in [0, bound), exactly (Lemire's multiply-and-reject: the 2^32 mod bound low products
     * that would bias the result are rejected).
     *
     * @throws IllegalArgumentException if bound &lt; 1
     */
    public int nextInt(int bound) {
        if (bound < 1) {
            throw new IllegalArgumentException("bound must be positive, got " + bound);
        }
        long product = (nextInt() & 0xffffffffL) * bound;
        long low = product & 0xffffffffL;
        if (low < bound) {
            long threshold = (1L << 32) % bound;
            while (low < threshold) {
                product = (nextInt() & 0xffffffffL) * bound;
                low = product & 0xffffffffL;
            }
        }
        return (int) (product >>> 32);
    }

    private void refill() {
        if (noneCurrent) {
            throw new IllegalStateException("no current identity: reset or select one first");
        }
        if (noncePending) { // a new identity: its nonce into the counter blocks, once
            writeNonce(tag, 0, counters, 0);
            noncePending = false;
        }
        for (int b = 0; b < chunkBlocks; b++) {
            INT_BE.set(counters, 16 * b + 12, counter++);
        }
        encrypt(ctr, counters, chunkBytes, keystream);
        stream = keystream;
        pos = 0;
        end = chunkBytes;
    }

    /**
     * The nonce {@code tag[t..t+12)} into the first 12 bytes of each of the {@link #chunkBlocks}
     * counter blocks from {@code blocks[o]}: two word stores per block (a per-block 12-byte
     * System.arraycopy cost more than the whole keystream).
     */
    private void writeNonce(byte[] tag, int t, byte[] blocks, int o) {
        long nonceHigh = (long) LONG_BE.get(tag, t);
        int nonceLow = (int) INT_BE.get(tag, t + 8);
        for (int b = o; b < o + chunkBytes; b += 16) {
            LONG_BE.set(blocks, b, nonceHigh);
            INT_BE.set(blocks, b + 8, nonceLow);
        }
    }

    /** {@code cipher} over {@code in[0..len)} into {@code out} (no padding: exactly len bytes). */
    private static void encrypt(Cipher cipher, byte[] in, int len, byte[] out) {
        try {
            if (cipher.update(in, 0, len, out, 0) != len) {
                throw new IllegalStateException("short AES output");
            }
        } catch (ShortBufferException e) {
            throw new IllegalStateException("AES failed", e);
        }
    }
}
