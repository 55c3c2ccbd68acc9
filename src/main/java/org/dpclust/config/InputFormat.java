package org.dpclust.config;

import java.util.Locale;

/**
 * How an input topic's record values are encoded ({@code kafka.inputs[].format},
 * docs/wire-format.md#input-formats). AVRO_SINGLE_OBJECT: dpclust's own {@code TelemetryRecord} in
 * Avro single-object encoding (the default, no mapping). JSON: one UTF-8 JSON object per record,
 * read through a {@link FieldMapping}. AVRO_REGISTRY: Avro in the Confluent wire format (magic byte
 * 0, a 4-byte schema id, the body), the writer schema looked up in a schema registry, read through
 * a {@link FieldMapping}.
 */
public enum InputFormat {
    AVRO_SINGLE_OBJECT,
    JSON,
    AVRO_REGISTRY;

    /** The name in the configuration ({@code avro-single-object}, {@code json}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The format named {@code value} by command-line option {@code option}. */
    public static InputFormat fromOption(String option, String value) {
        return parse(option, value);
    }

    /** The format named {@code value} in configuration option {@code option}. */
    static InputFormat parse(String option, String value) {
        for (InputFormat f : values()) {
            if (f.wireName().equals(value)) {
                return f;
            }
        }
        throw new ConfigException(
                option, "must be avro-single-object, json or avro-registry, was '" + value + "'");
    }
}
