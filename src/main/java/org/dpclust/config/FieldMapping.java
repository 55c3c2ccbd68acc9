package org.dpclust.config;

import java.io.Serializable;
import java.util.List;

/**
 * Where a user's record keeps what dpclust counts ({@code kafka.inputs[].mapping},
 * docs/configuration.md#kafkainputs-json-and-several-input-topics): the stream id, the device id,
 * the feature vector in a declared order and, optionally, the event time. Each is a {@link Source}:
 * a field by dotted path ({@code host.name}, {@code values.0} for an array element), the Kafka
 * record's key, or a constant. The features are either a list of numeric fields or one field
 * holding a numeric array.
 *
 * <p>The mapping only reads: what counts is decided afterwards exactly as for dpclust's own records
 * (a configured stream, the declared dimension, finite values clamped into the declared box,
 * inclusion by the record's own append time). Without an event-time field the record's event time
 * is its append time.
 *
 * @param streamId where the stream id is
 * @param deviceId where the device id is, or null (every record of a stream is then one device)
 * @param eventTime where the event time is, or null (the append time)
 * @param eventTimeUnit how the event time is written: millis, seconds (since the epoch) or iso
 *     (ISO-8601 instant text)
 * @param features the numeric fields, in order; empty when {@code featureArray} is set
 * @param featureArray the field holding the feature array, or null
 */
public record FieldMapping(
        Source streamId,
        Source deviceId,
        Source eventTime,
        String eventTimeUnit,
        List<String> features,
        String featureArray)
        implements Serializable {

    /**
     * The shape of dpclust's own records written as JSON ({@code dpclust generate --format json}).
     */
    public static final FieldMapping DEFAULT_JSON =
            new FieldMapping(
                    Source.field("stream_id"),
                    Source.field("device_id"),
                    Source.field("event_time"),
                    "millis",
                    List.of(),
                    "features");

    public FieldMapping {
        features = List.copyOf(features);
    }

    /** Where one value is: a field path, the Kafka key, or a constant. */
    public record Source(Kind kind, String value) implements Serializable {
        public enum Kind {
            FIELD,
            KEY,
            CONSTANT
        }

        public static Source field(String path) {
            return new Source(Kind.FIELD, path);
        }

        /** How the configuration writes it. */
        public String describe() {
            return switch (kind) {
                case FIELD -> value;
                case KEY -> "$key";
                case CONSTANT -> "=" + value;
            };
        }
    }
}
