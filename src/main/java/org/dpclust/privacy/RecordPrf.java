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

    private final Cipher cbc;
    private final Cipher ctr;

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
    private int pos;

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
        this.pos = chunkBytes;
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
        int len = 16 * ((8 + identity.length + 15) / 16);
        if (len > message.length) { // grows to the longest identity seen, then no more allocation
            message = new byte[len];
            macOut = new byte[len];
        }
        LONG_BE.set(message, 0, (long) identity.length);
        System.arraycopy(identity, 0, message, 8, identity.length);
        Arrays.fill(message, 8 + identity.length, len, (byte) 0);
        for (int i = 0;
                i < 16;
                i++) { // the cipher chains from its previous output: cancel it (zero IV)
            message[i] ^= chain[i];
        }
        try {
            if (cbc.update(message, 0, len, macOut, 0) != len) {
                throw new IllegalStateException("short CBC output");
            }
        } catch (ShortBufferException e) {
            throw new IllegalStateException("AES-CBC failed", e);
        }
        System.arraycopy(macOut, len - 16, chain, 0, 16);
        System.arraycopy(macOut, len - 16, tag, 0, 16);
        // the nonce T[0..12) into every counter block: two word stores per block (a per-block
        // System.arraycopy of 12 bytes cost more than the whole keystream)
        long nonceHigh = (long) LONG_BE.get(tag, 0);
        int nonceLow = (int) INT_BE.get(tag, 8);
        for (int b = 0; b < chunkBytes; b += 16) {
            LONG_BE.set(counters, b, nonceHigh);
            INT_BE.set(counters, b + 8, nonceLow);
        }
        counter = 0;
        pos = chunkBytes;
    }

    /** The CBC-MAC tag of the current identity (a copy; tests). */
    byte[] tag() {
        return tag.clone();
    }

    /** The next 32 uniform bits of the current identity's stream. */
    public int nextInt() {
        if (pos == chunkBytes) {
            refill();
        }
        int v = (int) INT_BE.get(keystream, pos);
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
        for (int b = 0; b < chunkBlocks; b++) {
            INT_BE.set(counters, 16 * b + 12, counter++);
        }
        try {
            if (ctr.update(counters, 0, chunkBytes, keystream, 0) != chunkBytes) {
                throw new IllegalStateException("short AES output");
            }
        } catch (ShortBufferException e) {
            throw new IllegalStateException("AES-ECB failed", e);
        }
        pos = 0;
    }
}
