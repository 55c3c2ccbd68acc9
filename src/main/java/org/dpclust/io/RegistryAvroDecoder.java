package org.dpclust.io;

import static org.dpclust.io.MappedFields.fail;
import static org.dpclust.io.MappedFields.identity;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.dpclust.config.FieldMapping;
import org.dpclust.config.InputTopic;
import org.dpclust.config.KafkaConnection;
import org.dpclust.io.MappedFields.Unreadable;

/**
 * Reads Avro records in the Confluent wire format (magic byte 0, a 4-byte big-endian schema id, the
 * Avro binary body) — what Confluent's and Apicurio's serializers and Kafka Connect's AvroConverter
 * write — resolving the writer schema by id in the topic's registry ({@link SchemaRegistryClient})
 * and finding the fields through the topic's {@link FieldMapping}, as {@link JsonRecordDecoder}
 * does for JSON (paths through nested records and arrays; numbers of any Avro numeric type;
 * strings, integers or enum symbols as ids). A record with another framing, an unknown id, a body
 * the schema does not read exactly, or a mapped field missing or of the wrong type is left
 * undecodable with the reason, and dead-lettered. A registry that cannot be asked fails the job
 * ({@link SchemaRegistryClient.RegistryUnavailable}): it restarts from its checkpoint and reads the
 * record again, so no record's fate depends on the schema cache.
 */
public final class RegistryAvroDecoder implements InputDecoder {
    private static final long serialVersionUID = 1L;

    private final InputTopic topic;
    private final KafkaConnection kafka;
    private transient SchemaRegistryClient registry;
    private transient Map<Schema, GenericDatumReader<Object>> readers;
    private transient Map<String, String[]> paths;

    /**
     * @param kafka the client properties, whose {@link KafkaConnection#REGISTRY_USER_INFO} (a value
     *     or a secret reference, resolved where the decoder runs) authenticates to the registry
     */
    public RegistryAvroDecoder(InputTopic topic, KafkaConnection kafka) {
        this.topic = topic;
        this.kafka = kafka;
    }

    @Override
    public void decode(RawRecord raw) {
        raw.decoded = true;
        try {
            read(raw);
            raw.undecodable = null;
        } catch (Unreadable e) {
            fail(raw, e.getMessage());
        } catch (SchemaRegistryClient.Unresolved e) {
            fail(raw, "avro-registry: " + e.getMessage());
        }
    }

    private void read(RawRecord raw) throws Unreadable, SchemaRegistryClient.Unresolved {
        byte[] v = raw.value;
        if (v == null || v.length < 5 || v[0] != 0) {
            throw new Unreadable(
                    "avro-registry: not the registry wire format (magic byte 0 and a 4-byte schema"
                            + " id)");
        }
        int id = ByteBuffer.wrap(v, 1, 4).getInt();
        if (registry == null) {
            registry =
                    new SchemaRegistryClient(
                            topic.registryUrl(),
                            kafka.resolved(KafkaConnection.REGISTRY_USER_INFO));
        }
        Schema writer = registry.schema(id);
        GenericRecord rec;
        try {
            BinaryDecoder check = DecoderFactory.get().binaryDecoder(v, 5, v.length - 5, null);
            AvroBoundsCheck.walk(writer, check); // every item read: no claimed counts
            if (!check.isEnd()) {
                throw new Unreadable("avro-registry: bytes left over after the record");
            }
            Object o =
                    reader(writer)
                            .read(
                                    null,
                                    DecoderFactory.get().binaryDecoder(v, 5, v.length - 5, null));
            if (!(o instanceof GenericRecord r)) {
                throw new Unreadable("avro-registry: schema id " + id + " is not a record schema");
            }
            rec = r;
        } catch (EOFException e) {
            throw new Unreadable("avro-registry: truncated body (schema id " + id + ")");
        } catch (IOException
                | AvroRuntimeException
                | IndexOutOfBoundsException
                | IllegalArgumentException
                | ArithmeticException
                | NegativeArraySizeException e) {
            throw new Unreadable("avro-registry: malformed body for schema id " + id);
        }
        FieldMapping m = topic.mapping();
        raw.streamId = text(rec, m.streamId(), raw, "stream_id");
        raw.deviceId = m.deviceId() == null ? "" : text(rec, m.deviceId(), raw, "device_id");
        raw.eventTime = m.eventTime() == null ? raw.appendTime : eventTime(rec, m);
        raw.features = features(rec, m);
    }

    /** One reader per writer schema (as many as the registry client caches at most). */
    private GenericDatumReader<Object> reader(Schema writer) {
        if (readers == null) {
            readers = new HashMap<>();
        }
        if (readers.size() > SchemaRegistryClient.MAX_CACHED) {
            readers.clear();
        }
        return readers.computeIfAbsent(writer, GenericDatumReader::new);
    }

    private double[] features(GenericRecord rec, FieldMapping m) throws Unreadable {
        if (m.featureArray() != null) {
            Object a = at(rec, m.featureArray());
            if (!(a instanceof List<?> l)) {
                throw new Unreadable(
                        "avro-registry: field '" + m.featureArray() + "' is not an array");
            }
            double[] x = new double[l.size()];
            for (int j = 0; j < x.length; j++) {
                x[j] = number(l.get(j), m.featureArray() + "[" + j + "]");
            }
            return x;
        }
        List<String> names = m.features();
        double[] x = new double[names.size()];
        for (int j = 0; j < x.length; j++) {
            x[j] = number(at(rec, names.get(j)), names.get(j));
        }
        return x;
    }

    private String text(GenericRecord rec, FieldMapping.Source s, RawRecord raw, String what)
            throws Unreadable {
        String field = null;
        if (s.kind() == FieldMapping.Source.Kind.FIELD) {
            Object o = at(rec, s.value());
            if (!(o instanceof CharSequence
                    || o instanceof Integer
                    || o instanceof Long
                    || o instanceof org.apache.avro.generic.GenericEnumSymbol<?>)) {
                throw new Unreadable(
                        "avro-registry: field '" + s.value() + "' is not a string or an integer");
            }
            field = o.toString();
        }
        return identity(s, field, raw, what, "avro-registry");
    }

    private long eventTime(GenericRecord rec, FieldMapping m) throws Unreadable {
        String name = m.eventTime().value();
        Object o = at(rec, name);
        switch (m.eventTimeUnit()) {
            case "iso" -> {
                if (o instanceof CharSequence c) {
                    try {
                        return Instant.parse(c).toEpochMilli();
                    } catch (DateTimeParseException | ArithmeticException e) {
                        // below
                    }
                }
                throw new Unreadable(
                        "avro-registry: field '" + name + "' is not an ISO-8601 instant");
            }
            case "seconds" -> {
                double s = number(o, name);
                if (!Double.isFinite(s) || Math.abs(s) > 9.2e15) {
                    throw new Unreadable("avro-registry: field '" + name + "' is out of range");
                }
                return Math.round(s * 1000.0);
            }
            default -> {
                if (o instanceof Long || o instanceof Integer) {
                    return ((Number) o).longValue();
                }
                throw new Unreadable(
                        "avro-registry: field '" + name + "' is not a long of epoch milliseconds");
            }
        }
    }

    private static double number(Object o, String name) throws Unreadable {
        if (o instanceof Double
                || o instanceof Float
                || o instanceof Long
                || o instanceof Integer) {
            return ((Number) o).doubleValue();
        }
        throw new Unreadable(
                "avro-registry: field '"
                        + name
                        + "' is "
                        + (o == null
                                ? "null"
                                : o instanceof CharSequence ? "a string" : "not a number")
                        + ", expected a number");
    }

    /** The value at a dotted path of nested records and arrays, or a missing-field failure. */
    private Object at(GenericRecord rec, String path) throws Unreadable {
        if (paths == null) {
            paths = new HashMap<>();
        }
        Object n = rec;
        for (String seg : paths.computeIfAbsent(path, x -> x.split("\\."))) {
            if (n instanceof GenericRecord r && r.getSchema().getField(seg) != null) {
                n = r.get(seg);
            } else if (n instanceof List<?> l
                    && seg.matches("\\d{1,9}")
                    && Integer.parseInt(seg) < l.size()) {
                n = l.get(Integer.parseInt(seg));
            } else {
                throw new Unreadable("avro-registry: field '" + path + "' is missing");
            }
        }
        return n;
    }
}
