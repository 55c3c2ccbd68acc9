package org.dpclust.privacy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Identifies one DP release, for keying its noise stream ({@link PrivacyRandom#forRelease}).
 *
 * <p>Contract: {@link #canonicalBytes()} is an injective encoding of all five fields: a fixed
 * domain tag, then each string as a 4-byte big-endian length followed by its UTF-8 bytes, the
 * window start as 8 bytes, and the digest as a 4-byte length followed by its bytes. Because every
 * variable-length field is length-prefixed, two different contexts never encode to the same bytes
 * (e.g. ("ab","c") vs ("a","bc")), so distinct releases get independent keys (HMAC-SHA256 is a PRF)
 * and identical releases (a replay after recovery with the same accumulator digest) get
 * byte-identical noise, so a replay never creates a second, independently noised release. The
 * context is public metadata plus a digest of private data; it is only ever fed into the keyed
 * HMAC, never published. The digest array is copied in and out.
 */
public record ReleaseContext(
        String streamId,
        long windowStart,
        String algorithm,
        String mechanism,
        byte[] accumulatorDigest) {

    private static final byte[] DOMAIN =
            "dpclust/release-context/v1".getBytes(StandardCharsets.UTF_8);

    /** Validates fields (all non-null) and copies the digest. */
    public ReleaseContext {
        if (streamId == null) {
            throw new IllegalArgumentException("streamId must not be null");
        }
        if (algorithm == null) {
            throw new IllegalArgumentException("algorithm must not be null");
        }
        if (mechanism == null) {
            throw new IllegalArgumentException("mechanism must not be null");
        }
        if (accumulatorDigest == null) {
            throw new IllegalArgumentException("accumulatorDigest must not be null");
        }
        accumulatorDigest = accumulatorDigest.clone();
    }

    /** Returns a copy of the accumulator digest. */
    @Override
    public byte[] accumulatorDigest() {
        return accumulatorDigest.clone();
    }

    /** The canonical, injective, length-prefixed encoding described in the class javadoc. */
    public byte[] canonicalBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeBytes(out, DOMAIN);
        writeBytes(out, streamId.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(ByteBuffer.allocate(8).putLong(windowStart).array());
        writeBytes(out, algorithm.getBytes(StandardCharsets.UTF_8));
        writeBytes(out, mechanism.getBytes(StandardCharsets.UTF_8));
        writeBytes(out, accumulatorDigest);
        return out.toByteArray();
    }

    private static void writeBytes(ByteArrayOutputStream out, byte[] b) {
        out.writeBytes(ByteBuffer.allocate(4).putInt(b.length).array());
        out.writeBytes(b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReleaseContext r
                && windowStart == r.windowStart
                && streamId.equals(r.streamId)
                && algorithm.equals(r.algorithm)
                && mechanism.equals(r.mechanism)
                && Arrays.equals(accumulatorDigest, r.accumulatorDigest);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(canonicalBytes());
    }

    /** Omits the digest bytes (a function of private data). */
    @Override
    public String toString() {
        return "ReleaseContext[streamId="
                + streamId
                + ", windowStart="
                + windowStart
                + ", algorithm="
                + algorithm
                + ", mechanism="
                + mechanism
                + ", digest=<"
                + accumulatorDigest.length
                + " bytes>]";
    }
}
