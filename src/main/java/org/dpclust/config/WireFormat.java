package org.dpclust.config;

import java.util.Locale;

/**
 * How a published topic's record values are encoded (docs/wire-format.md). AVRO: Avro single-object
 * encoding (marker {@code C3 01}, the writer schema's 8-byte CRC-64-AVRO fingerprint, the Avro
 * binary body). JSON: one UTF-8 JSON object per record, keyed by the schema's field names, for
 * consumers without an Avro library (kcat, ksqlDB, Kafka Connect's JsonConverter).
 */
public enum WireFormat {
    AVRO,
    JSON;

    /** The name in the configuration ({@code avro}, {@code json}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format named {@code value} in configuration option {@code option}. */
    static WireFormat parse(String option, String value) {
        for (WireFormat f : values()) {
            if (f.wireName().equals(value)) {
                return f;
            }
        }
        throw new ConfigException(option, "must be avro or json, was '" + value + "'");
    }
}
