package org.dpclust.privacy;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The project's one source of privacy randomness: the AES-256-CTR keystream (zero IV) under the key
 * HMAC-SHA256(secret, context bytes), read in buffered blocks.
 *
 * <p>Contract. Determinism: the same secret and the same context give a byte-identical stream on
 * every JVM (only standard JCA primitives, big-endian consumption), so a replayed window with
 * identical accumulator contents gets identical noise and a replay never constitutes a second
 * release. Independence: HMAC-SHA256 keyed by the secret is a PRF, so distinct contexts give
 * (computationally) independent AES keys, and AES-CTR under a uniformly random key is
 * computationally indistinguishable from uniform bits (for far fewer than 2^64 blocks per key). The
 * DP guarantees of the mechanisms in this package are stated for ideal uniform bits; with this
 * generator they hold against computationally bounded adversaries who do not know the secret
 * (computational DP), which is the standard caveat for any implemented DP system.
 *
 * <p>Every sampler in this class consumes whole 64-bit words and is exact: {@link #nextLong(long)}
 * uses rejection (no modulo bias); {@link #nextDouble()} is for post-processing and samplers of
 * public-parameter densities only, never for privacy noise (privacy noise uses exact integer
 * samplers such as {@link DiscreteLaplace}). Not thread-safe; one instance per release.
 */
public final class PrivacyRandom {
    /**
     * Keystream bytes of the first fill; each later fill doubles, up to {@link #MAX_FILL_BYTES}. A
     * release with few noisy values needs a few hundred bytes, for which a fixed 4 KB fill was most
     * of the AES work; a stats release with 64 cells draws about 20 KB (192 discrete Laplace
     * samples), filled 4 KB at a time after the first doublings. The stream is the same whatever
     * the fills (CTR mode continues its counter).
     */
    private static final int FIRST_FILL_BYTES = 256;

    private static final int MAX_FILL_BYTES = 4096;
    private static final byte[] ZEROS = new byte[MAX_FILL_BYTES];

    private final Cipher cipher;
    private byte[] buffer = new byte[0]; // the last fill (empty before the first)
    private int pos;

    private PrivacyRandom(byte[] aesKey) {
        try {
            cipher = Cipher.getInstance("AES/CTR/NoPadding");
            cipher.init(
                    Cipher.ENCRYPT_MODE,
                    new SecretKeySpec(aesKey, "AES"),
                    new IvParameterSpec(new byte[16]));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR/NoPadding unavailable", e);
        } finally {
            Arrays.fill(aesKey, (byte) 0);
        }
    }

    /** Stream for one release: key = HMAC-SHA256(secret, context.canonicalBytes()). */
    public static PrivacyRandom forRelease(PrivacySecret secret, ReleaseContext context) {
        if (secret == null || context == null) {
            throw new IllegalArgumentException("secret and context must not be null");
        }
        return new PrivacyRandom(secret.hmacSha256(context.canonicalBytes()));
    }

    /**
     * Stream for an arbitrary context, e.g. post-processing: key = HMAC-SHA256(secret, context).
     * Callers must choose context bytes that cannot equal another stream's (use a distinct prefix;
     * release contexts start with a length-prefixed "dpclust/release-context/v1" tag).
     */
    public static PrivacyRandom forContext(PrivacySecret secret, byte[] context) {
        if (secret == null || context == null) {
            throw new IllegalArgumentException("secret and context must not be null");
        }
        return new PrivacyRandom(secret.hmacSha256(context));
    }

    private void refill() {
        int len =
                buffer.length == 0 ? FIRST_FILL_BYTES : Math.min(MAX_FILL_BYTES, 2 * buffer.length);
        if (buffer.length != len) {
            buffer = new byte[len];
        }
        try {
            int n = cipher.update(ZEROS, 0, len, buffer, 0);
            if (n != len) {
                throw new IllegalStateException("short keystream block: " + n);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR keystream failed", e);
        }
        pos = 0;
    }

    /** 64 uniform bits (the next 8 keystream bytes, big-endian). */
    public long nextLong() {
        if (pos + 8 > buffer.length) {
            refill();
        }
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buffer[pos + i] & 0xFFL);
        }
        pos += 8;
        return v;
    }

    /**
     * Uniform in [0, bound), exactly: draws 63-bit values u and rejects u >= 2^63 - (2^63 mod
     * bound), so every residue has the same number of preimages.
     *
     * @throws IllegalArgumentException if bound <= 0
     */
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, got " + bound);
        }
        if ((bound & (bound - 1)) == 0) {
            return nextLong() & (bound - 1);
        }
        // rem = 2^63 mod bound; accept u <= Long.MAX_VALUE - rem (i.e. u < 2^63 - rem).
        long rem = (Long.MAX_VALUE % bound + 1) % bound;
        long limit = Long.MAX_VALUE - rem;
        while (true) {
            long u = nextLong() >>> 1;
            if (u <= limit) {
                return u % bound;
            }
        }
    }

    /** One uniform bit. */
    public boolean nextBoolean() {
        return nextLong() < 0;
    }

    /**
     * Uniform on the grid {k 2^-53 : 0 <= k < 2^53} in [0,1). For post-processing and samplers of
     * public-parameter densities only; never use it to generate privacy noise.
     */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }
}
