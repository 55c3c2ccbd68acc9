package org.dpclust.io;

import java.nio.charset.StandardCharsets;
import org.dpclust.config.FieldMapping;

/**
 * What the mapped decoders ({@link JsonRecordDecoder}, {@link RegistryAvroDecoder}) share: the
 * failure of a record (undecodable, with a one-line reason, nothing else kept) and the stream and
 * device ids from a field, the Kafka key or a constant.
 */
final class MappedFields {
    private MappedFields() {}

    /** Leaves {@code raw} undecodable with reason {@code why}. */
    static void fail(RawRecord raw, String why) {
        raw.eventTime = Long.MIN_VALUE;
        raw.streamId = null;
        raw.deviceId = null;
        raw.features = null;
        raw.undecodable = why;
    }

    /**
     * The id {@code s} names: the constant, the record's key, or {@code field} (the mapped field's
     * value, null if the record lacks it).
     *
     * @param format the reason's prefix ({@code json}, {@code avro-registry})
     * @param what {@code stream_id} or {@code device_id}
     */
    static String identity(
            FieldMapping.Source s, String field, RawRecord raw, String what, String format)
            throws Unreadable {
        String v =
                switch (s.kind()) {
                    case CONSTANT -> s.value();
                    case KEY -> {
                        if (raw.key == null) {
                            throw new Unreadable(
                                    format + ": " + what + " is the record key, which is absent");
                        }
                        yield new String(raw.key, StandardCharsets.UTF_8);
                    }
                    case FIELD -> {
                        if (field == null) {
                            throw new Unreadable(format + ": field '" + s.value() + "' is missing");
                        }
                        yield field;
                    }
                };
        if (v.isEmpty()) {
            throw new Unreadable(format + ": " + what + " ('" + s.describe() + "') is empty");
        }
        return v;
    }

    /** A mapped value is missing or of the wrong type (the message names the field). */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }
}
