package org.dpclust.privacy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 digest builder over the exact contents of an accumulator, for {@link
 * ReleaseContext#accumulatorDigest()}.
 *
 * <p>Contract: the encoding fed to SHA-256 is injective in the sequence of {@code add} calls: each
 * value is preceded by a one-byte type tag; longs and ints are big-endian; doubles are encoded
 * exactly via {@link Double#doubleToRawLongBits} (so 0.0 and -0.0, or different NaN payloads,
 * differ); arrays and strings (UTF-8) are length-prefixed. Hence equal digests mean (up to SHA-256
 * collisions) byte-identical accumulator contents, which is what makes replayed windows reuse their
 * noise and different contents get independent noise. The digest is a function of private data: it
 * is only an HMAC input and must never be published. Not thread-safe. After {@link #digest()} the
 * builder is finished: further {@code add} calls throw {@link IllegalStateException}, and {@code
 * digest()} returns the same value again.
 */
public final class AccumulatorDigest {
    private static final byte LONG = 1;
    private static final byte LONGS = 2;
    private static final byte INT = 3;
    private static final byte DOUBLE = 4;
    private static final byte DOUBLES = 5;
    private static final byte STRING = 6;

    private final MessageDigest md;
    private final ByteBuffer buf = ByteBuffer.allocate(9);
    private byte[] result;

    /** Creates an empty digest builder. */
    public AccumulatorDigest() {
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private void check() {
        if (result != null) {
            throw new IllegalStateException("digest() already called");
        }
    }

    private void tagLong(byte tag, long v) {
        buf.clear();
        buf.put(tag).putLong(v);
        md.update(buf.array(), 0, 9);
    }

    private void rawLong(long v) {
        buf.clear();
        buf.putLong(v);
        md.update(buf.array(), 0, 8);
    }

    /** Adds one long. */
    public AccumulatorDigest add(long v) {
        check();
        tagLong(LONG, v);
        return this;
    }

    /** Adds a long array (length-prefixed). */
    public AccumulatorDigest add(long[] v) {
        check();
        tagLong(LONGS, v.length);
        for (long x : v) {
            rawLong(x);
        }
        return this;
    }

    /** Adds one int. */
    public AccumulatorDigest add(int v) {
        check();
        tagLong(INT, v);
        return this;
    }

    /** Adds one double by its raw bits. */
    public AccumulatorDigest add(double v) {
        check();
        tagLong(DOUBLE, Double.doubleToRawLongBits(v));
        return this;
    }

    /** Adds a double array (length-prefixed, raw bits). */
    public AccumulatorDigest add(double[] v) {
        check();
        tagLong(DOUBLES, v.length);
        for (double x : v) {
            rawLong(Double.doubleToRawLongBits(x));
        }
        return this;
    }

    /** Adds a string (UTF-8, length-prefixed). */
    public AccumulatorDigest add(String s) {
        check();
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        tagLong(STRING, b.length);
        md.update(b);
        return this;
    }

    /** Returns the 32-byte SHA-256 digest (a fresh copy on every call). */
    public byte[] digest() {
        if (result == null) {
            result = md.digest();
        }
        return result.clone();
    }
}
