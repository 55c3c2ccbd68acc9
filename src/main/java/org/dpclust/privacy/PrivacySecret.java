package org.dpclust.privacy;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Secret key material for the project's HMACs (noise keys, record masks, device selection).
 *
 * <p>Contract: the key is the only unpredictable input of every privacy-noise stream (see {@link
 * PrivacyRandom}); all differential-privacy guarantees of this package assume it is known to the
 * trusted operator side only. This class is not itself a DP mechanism: it protects the secret by
 * (1) copying the key on construction so callers cannot mutate it, (2) never exposing the raw bytes
 * (only HMAC outputs), and (3) a {@link #toString()} that reveals only the key length. Keys shorter
 * than 16 bytes (128 bits) are rejected. Not {@code Serializable}: a secret never travels inside a
 * serialized job graph or function; operators load it where they run (from the environment or a
 * mounted file, {@code config.SecretSource}).
 */
public final class PrivacySecret {
    /** Minimum key length in bytes. */
    public static final int MIN_KEY_BYTES = 16;

    private static final String HMAC = "HmacSHA256";

    private final byte[] key;

    private PrivacySecret(byte[] key) {
        this.key = key;
    }

    /**
     * Creates a secret from a copy of {@code key}.
     *
     * @throws IllegalArgumentException if {@code key} is null or shorter than 16 bytes
     */
    public static PrivacySecret of(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("key must not be null");
        }
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "key must be at least " + MIN_KEY_BYTES + " bytes, got " + key.length);
        }
        return new PrivacySecret(key.clone());
    }

    /**
     * Whether the key is evidently not random: all its bytes equal (e.g. all zero), or a short
     * pattern repeated. Such a key is public in effect, so the noise it keys is predictable;
     * start-up warns (it is not refused: tests and examples use fixed keys).
     */
    public boolean evidentlyNotRandom() {
        for (int period = 1; period <= 4; period++) {
            boolean repeats = true;
            for (int i = period; i < key.length && repeats; i++) {
                repeats = key[i] == key[i - period];
            }
            if (repeats) {
                return true;
            }
        }
        return false;
    }

    /**
     * Parses a hexadecimal key (upper or lower case, no separators).
     *
     * @throws IllegalArgumentException naming the problem: null, odd length, a non-hex character
     *     (with its position), or fewer than 16 bytes
     */
    public static PrivacySecret fromHex(String hex) {
        if (hex == null) {
            throw new IllegalArgumentException("hex key must not be null");
        }
        String h = hex.strip();
        if (h.length() % 2 != 0) {
            throw new IllegalArgumentException("hex key has odd length " + h.length());
        }
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < h.length(); i++) {
            int d = Character.digit(h.charAt(i), 16);
            if (d < 0) {
                throw new IllegalArgumentException(
                        "hex key has a non-hex character at position " + i);
            }
            out[i / 2] = (byte) ((i % 2 == 0) ? (d << 4) : (out[i / 2] | d));
        }
        if (out.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "hex key must encode at least " + MIN_KEY_BYTES + " bytes, got " + out.length);
        }
        PrivacySecret s = new PrivacySecret(out.clone());
        Arrays.fill(out, (byte) 0);
        return s;
    }

    /** Returns HMAC-SHA256(secret, message) (32 bytes). */
    public byte[] hmacSha256(byte[] message) {
        if (message == null) {
            throw new IllegalArgumentException("message must not be null");
        }
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** Reveals only the key length, never key material. */
    @Override
    public String toString() {
        return "PrivacySecret[" + key.length + " bytes, redacted]";
    }
}
