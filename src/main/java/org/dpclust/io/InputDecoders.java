package org.dpclust.io;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.InputTopic;
import org.dpclust.config.KafkaConnection;

/**
 * The decoder of each input topic ({@code kafka.inputs}): {@link JsonRecordDecoder} for JSON
 * topics, dpclust's own Avro single-object records for the others (and for a topic not listed).
 */
public final class InputDecoders implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, InputDecoder> byTopic;
    private transient AvroCodec<TelemetryRecord> avro;

    private InputDecoders(Map<String, InputDecoder> byTopic) {
        this.byTopic = byTopic;
    }

    /** Avro single-object records on every topic. */
    public static InputDecoders avro() {
        return new InputDecoders(Map.of());
    }

    /** The decoders of {@code config}'s input topics. */
    public static InputDecoders of(DpclustConfig config) {
        return of(config.inputs(), config.kafka().connection());
    }

    /**
     * The decoders of {@code inputs}; a registry's credentials come from {@code kafka}'s client
     * property {@link #REGISTRY_USER_INFO} (resolved where the decoder runs).
     */
    public static InputDecoders of(List<InputTopic> inputs, KafkaConnection kafka) {
        Map<String, InputDecoder> m = new HashMap<>();
        for (InputTopic t : inputs) {
            switch (t.format()) {
                case JSON -> m.put(t.topic(), new JsonRecordDecoder(t.mapping()));
                case AVRO_REGISTRY -> m.put(t.topic(), new RegistryAvroDecoder(t, kafka));
                case AVRO_SINGLE_OBJECT -> {} // the default
            }
        }
        return new InputDecoders(m);
    }

    /** The client property holding the schema registry's {@code user:password}. */
    public static final String REGISTRY_USER_INFO = KafkaConnection.REGISTRY_USER_INFO;

    /** Decodes {@code raw} by its topic's format (see {@link RawRecord#decode}). */
    public void decode(RawRecord raw) {
        InputDecoder d = raw.topic == null ? null : byTopic.get(raw.topic);
        if (d != null) {
            d.decode(raw);
            return;
        }
        if (avro == null) {
            avro = AvroCodec.telemetry();
        }
        raw.decode(avro);
    }
}
