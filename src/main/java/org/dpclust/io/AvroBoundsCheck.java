package org.dpclust.io;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;

/**
 * Walks an Avro binary body against its writer schema without building anything, reading every item
 * of every array and map — unlike Avro's own skip, which jumps over a block by the byte size it
 * states whatever item count it claims. A body passes only if it is exactly one record of the
 * schema; then Avro's reader, which sizes an array by the count its block claims before reading an
 * item, never meets a count larger than the items present: 30 bytes can no longer claim 2^31
 * features and exhaust the heap. Items that take no bytes (arrays of null) are refused by the
 * callers' schemas (dpclust's own have none; registry schemas with them are not read), so the walk
 * takes time in proportion to the body's bytes.
 */
final class AvroBoundsCheck {
    private AvroBoundsCheck() {}

    /** Reads one value of {@code s}; throws at the first byte that does not fit. */
    static void walk(Schema s, BinaryDecoder in) throws IOException {
        switch (s.getType()) {
            case RECORD -> {
                for (Schema.Field f : s.getFields()) {
                    walk(f.schema(), in);
                }
            }
            case ARRAY -> {
                for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
                    for (long i = 0; i < n; i++) {
                        walk(s.getElementType(), in);
                    }
                }
            }
            case MAP -> {
                for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
                    for (long i = 0; i < n; i++) {
                        in.skipString();
                        walk(s.getValueType(), in);
                    }
                }
            }
            case UNION -> {
                int branch = in.readIndex();
                if (branch < 0 || branch >= s.getTypes().size()) {
                    throw new IOException("union branch " + branch + " out of range");
                }
                walk(s.getTypes().get(branch), in);
            }
            case ENUM -> {
                int symbol = in.readEnum();
                if (symbol < 0 || symbol >= s.getEnumSymbols().size()) {
                    throw new IOException("enum symbol " + symbol + " out of range");
                }
            }
            case FIXED -> in.skipFixed(s.getFixedSize());
            case STRING -> in.skipString();
            case BYTES -> in.skipBytes();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> in.readFloat();
            case DOUBLE -> in.readDouble();
            case BOOLEAN -> in.readBoolean();
            case NULL -> in.readNull();
        }
    }
}
