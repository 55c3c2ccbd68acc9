package org.dpclust.config;

import java.io.Serializable;

/**
 * The value format of each topic the jobs publish through their exactly-once sink ({@code
 * kafka.formats} in docs/configuration.md#kafka; default Avro everywhere). The budget topic has no
 * entry: it is the fenced ledger's own log and always Avro (docs/wire-format.md#budget-topic).
 */
public record TopicFormats(
        WireFormat centroids,
        WireFormat sketches,
        WireFormat dlq,
        WireFormat cells,
        WireFormat running)
        implements Serializable {
    /** Avro single-object encoding on every published topic. */
    public static final TopicFormats AVRO = all(WireFormat.AVRO);

    /** Formats with the cells and running topics in Avro. */
    public TopicFormats(WireFormat centroids, WireFormat sketches, WireFormat dlq) {
        this(centroids, sketches, dlq, WireFormat.AVRO, WireFormat.AVRO);
    }

    /** Formats with the running topic in Avro. */
    public TopicFormats(
            WireFormat centroids, WireFormat sketches, WireFormat dlq, WireFormat cells) {
        this(centroids, sketches, dlq, cells, WireFormat.AVRO);
    }

    /** The same format on every published topic. */
    public static TopicFormats all(WireFormat f) {
        return new TopicFormats(f, f, f, f, f);
    }
}
