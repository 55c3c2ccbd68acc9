package org.dpclust.privacy;

import java.nio.ByteBuffer;

/**
 * Keyed hash of a record identity: the first 8 bytes (big-endian) of HMAC-SHA256(secret, identity)
 * as a long.
 *
 * <p>Contract: used for masks and for choosing which {@code c} records a device keeps in a window.
 * Because HMAC-SHA256 is a PRF under a secret key, the hash values are (computationally)
 * independent uniform 64-bit values that do not depend on arrival order or timing, so a selection
 * such as "keep the {@code c} records with the smallest hash" is a data-independent function of
 * each record alone, which is what keeps the per-device contribution bound {@code c} exact and the
 * kept set replay-stable. This class is not a DP mechanism and its outputs are operator-side only
 * (they must never be published: with the identity they act as a keyed tag). Thread-safe. Not
 * {@code Serializable}, like its {@link PrivacySecret}.
 */
public final class RecordHasher {
    private final PrivacySecret secret;

    /** Creates a hasher keyed by {@code secret}. */
    public RecordHasher(PrivacySecret secret) {
        if (secret == null) {
            throw new IllegalArgumentException("secret must not be null");
        }
        this.secret = secret;
    }

    /** First 8 bytes of HMAC-SHA256(secret, identity), big-endian. */
    public long hash(byte[] identity) {
        if (identity == null) {
            throw new IllegalArgumentException("identity must not be null");
        }
        return ByteBuffer.wrap(secret.hmacSha256(identity)).getLong();
    }

    @Override
    public String toString() {
        return "RecordHasher[" + secret + "]";
    }
}
