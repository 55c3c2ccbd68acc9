package org.dpclust.devkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.config.FieldMapping;
import org.dpclust.config.InputFormat;
import org.dpclust.config.KafkaConnection;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.SchemaRegistryClient;

/**
 * Writes telemetry (or deliberately malformed bytes) to the input topic, keyed by stream id.
 * Nothing is lost silently: a send that fails (e.g. its delivery timed out) is remembered, and
 * {@link #flush()} throws.
 */
public final class TelemetryProducer implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();
    private final AvroCodec<TelemetryRecord> codec = AvroCodec.telemetry();
    private final InputFormat format;
    private final int registryId;

    /** A producer to a PLAINTEXT broker without client properties (the in-process one). */
    public TelemetryProducer(String bootstrapServers, String topic) {
        this(KafkaConnection.plaintext(bootstrapServers), topic);
    }

    /** A producer connecting with {@code kafka}'s servers and client properties. */
    public TelemetryProducer(KafkaConnection kafka, String topic) {
        this(kafka, topic, InputFormat.AVRO_SINGLE_OBJECT);
    }

    /**
     * A producer writing {@code format}: Avro single-object {@code TelemetryRecord}s, or the same
     * fields as one JSON object per record ({@link FieldMapping#DEFAULT_JSON}'s shape: stream_id,
     * device_id, event_time in epoch milliseconds, features).
     */
    public TelemetryProducer(KafkaConnection kafka, String topic, InputFormat format) {
        this(kafka, topic, format, null);
    }

    /**
     * A producer writing {@code format}; with {@link InputFormat#AVRO_REGISTRY}, {@code
     * TelemetryRecord}'s schema is registered under {@code <topic>-value} in the registry at {@code
     * registryUrl} and every record framed with its id (magic byte 0, the 4-byte id, the Avro
     * binary body).
     */
    public TelemetryProducer(
            KafkaConnection kafka, String topic, InputFormat format, String registryUrl) {
        this.format = format;
        if (format == InputFormat.AVRO_REGISTRY) {
            try {
                this.registryId =
                        new SchemaRegistryClient(
                                        registryUrl,
                                        kafka.resolved(KafkaConnection.REGISTRY_USER_INFO))
                                .register(topic + "-value", TelemetryRecord.getClassSchema());
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        } else {
            this.registryId = -1;
        }
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // Ordered, acknowledged writes without the idempotent producer's per-partition sequence
        // state: with it,
        // a partition of a freshly created topic occasionally stalled until its batches expired
        // (120 s).
        // One request in flight keeps the order across retries; a lost response is retried after 10
        // s.
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        this.producer = new KafkaProducer<>(kafka.clientProperties(p));
        this.topic = topic;
    }

    public void send(String streamId, String deviceId, long eventTime, double[] features) {
        if (format == InputFormat.JSON) {
            sendRaw(streamId, json(streamId, deviceId, eventTime, features));
            return;
        }
        List<Double> f = new ArrayList<>(features.length);
        for (double x : features) {
            f.add(x);
        }
        TelemetryRecord r =
                TelemetryRecord.newBuilder()
                        .setStreamId(streamId)
                        .setDeviceId(deviceId)
                        .setEventTime(Instant.ofEpochMilli(eventTime))
                        .setFeatures(f)
                        .build();
        sendRaw(streamId, format == InputFormat.AVRO_REGISTRY ? framed(r) : codec.encode(r));
    }

    /** The registry wire format: magic byte 0, the schema id, the Avro binary body. */
    private byte[] framed(TelemetryRecord r) {
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            out.write(0);
            out.write(java.nio.ByteBuffer.allocate(4).putInt(registryId).array());
            org.apache.avro.io.BinaryEncoder e =
                    org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
            new org.apache.avro.specific.SpecificDatumWriter<>(TelemetryRecord.class).write(r, e);
            e.flush();
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One record as JSON in the default mapping's shape. */
    public static byte[] json(String streamId, String deviceId, long eventTime, double[] features) {
        ObjectNode o = JSON.createObjectNode();
        o.put("stream_id", streamId);
        o.put("device_id", deviceId);
        o.put("event_time", eventTime);
        ArrayNode f = o.putArray("features");
        for (double x : features) {
            f.add(x);
        }
        try {
            return JSON.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Sends arbitrary bytes (malformed-input tests and demos). */
    public void sendRaw(String key, byte[] value) {
        producer.send(
                new ProducerRecord<>(
                        topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value),
                (meta, e) -> {
                    if (e != null) {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, e);
                    }
                });
    }

    /**
     * Blocks until everything sent so far is acknowledged.
     *
     * @throws IllegalStateException if any record could not be written
     */
    public void flush() {
        producer.flush();
        if (failed.get() > 0) {
            throw new IllegalStateException(
                    failed.get()
                            + " record(s) could not be written to "
                            + topic
                            + ": "
                            + firstFailure.get().getMessage(),
                    firstFailure.get());
        }
    }

    @Override
    public void close() {
        try {
            flush();
        } finally {
            producer.close();
        }
    }
}
