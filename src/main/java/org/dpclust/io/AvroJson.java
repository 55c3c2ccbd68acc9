package org.dpclust.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * dpclust's JSON form of its Avro records: what {@code dpclust consume} and the dashboard print,
 * and the record value of a published topic in the {@code json} format
 * (docs/wire-format.md#the-json-format). One JSON object keyed by the schema's field names, in
 * schema order; {@code timestamp-millis} as an ISO-8601 UTC string ({@link Instant#toString()}:
 * {@code 2026-01-01T00:00:10Z}, {@code .SSS} only when the milliseconds are not 0); other longs and
 * ints as JSON integers; doubles as JSON numbers (Java's shortest round-trip form), non-finite ones
 * as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}; bytes as standard base64
 * with padding; enums as their symbol; a union {@code [null, X]} as {@code null} or the bare X;
 * maps with their keys sorted. Rendering is deterministic (the same record always gives the same
 * bytes), and {@link #fromJson} reads it back to an equal record.
 */
public final class AvroJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AvroJson() {}

    public static Map<String, Object> toMap(SpecificRecordBase r) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Schema.Field f : r.getSchema().getFields()) {
            out.put(f.name(), convert(r.get(f.pos())));
        }
        return out;
    }

    /** The record's JSON form as UTF-8 bytes (deterministic). */
    public static byte[] toJson(SpecificRecordBase r) {
        try {
            return MAPPER.writeValueAsBytes(toMap(r));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a record of {@code type} from its JSON form. Fields the JSON lacks take the reader
     * schema's default (a record written by an older schema version); fields the reader schema does
     * not know are ignored (a newer one).
     *
     * @throws IOException with a readable reason when the bytes are not such an object
     */
    public static <T extends SpecificRecordBase> T fromJson(byte[] json, Class<T> type)
            throws IOException {
        JsonNode n;
        try {
            n = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IOException("not JSON: " + e.getOriginalMessage(), e);
        }
        SpecificData data = SpecificData.getForClass(type);
        return type.cast(record(n, data.getSchema(type), data, ""));
    }

    private static Object record(JsonNode n, Schema s, SpecificData data, String path)
            throws IOException {
        if (n == null || !n.isObject()) {
            throw new IOException(where(path) + "expected a JSON object for " + s.getName());
        }
        SpecificRecordBase r = (SpecificRecordBase) data.newRecord(null, s);
        for (Schema.Field f : s.getFields()) {
            JsonNode v = n.get(f.name());
            String at = path.isEmpty() ? f.name() : path + "." + f.name();
            if (v == null) {
                if (!f.hasDefaultValue()) {
                    throw new IOException("missing field " + at);
                }
                r.put(f.pos(), data.deepCopy(f.schema(), data.getDefaultValue(f)));
            } else {
                r.put(f.pos(), value(v, f.schema(), data, at));
            }
        }
        return r;
    }

    private static Object value(JsonNode v, Schema s, SpecificData data, String at)
            throws IOException {
        switch (s.getType()) {
            case UNION -> {
                if (v.isNull()
                        && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL)) {
                    return null;
                }
                for (Schema branch : s.getTypes()) {
                    if (branch.getType() != Schema.Type.NULL) {
                        try {
                            return value(v, branch, data, at);
                        } catch (IOException e) {
                            // try the next branch
                        }
                    }
                }
                throw new IOException(where(at) + "matches no branch of " + s);
            }
            case RECORD -> {
                return record(v, s, data, at);
            }
            case ENUM -> {
                if (!v.isTextual() || !s.getEnumSymbols().contains(v.textValue())) {
                    throw new IOException(where(at) + "expected one of " + s.getEnumSymbols());
                }
                return data.createEnum(v.textValue(), s);
            }
            case ARRAY -> {
                if (!v.isArray()) {
                    throw new IOException(where(at) + "expected an array");
                }
                List<Object> out = new ArrayList<>(v.size());
                for (JsonNode x : v) {
                    out.add(value(x, s.getElementType(), data, at + "[]"));
                }
                return out;
            }
            case MAP -> {
                if (!v.isObject()) {
                    throw new IOException(where(at) + "expected an object");
                }
                Map<String, Object> out = new TreeMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    out.put(e.getKey(), value(e.getValue(), s.getValueType(), data, at + "{}"));
                }
                return out;
            }
            case STRING -> {
                return text(v, at);
            }
            case BYTES -> {
                try {
                    return ByteBuffer.wrap(Base64.getDecoder().decode(text(v, at)));
                } catch (IllegalArgumentException e) {
                    throw new IOException(where(at) + "not base64: " + e.getMessage(), e);
                }
            }
            case INT -> {
                if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                    throw new IOException(where(at) + "expected an int");
                }
                return v.intValue();
            }
            case LONG -> {
                if (s.getLogicalType() instanceof LogicalTypes.TimestampMillis) {
                    try {
                        return Instant.parse(text(v, at));
                    } catch (DateTimeParseException e) {
                        throw new IOException(where(at) + "not an ISO-8601 instant", e);
                    }
                }
                if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                    throw new IOException(where(at) + "expected a long");
                }
                return v.longValue();
            }
            case DOUBLE, FLOAT -> {
                double d;
                if (v.isNumber()) {
                    d = v.doubleValue();
                } else if (v.isTextual()
                        && List.of("NaN", "Infinity", "-Infinity").contains(v.textValue())) {
                    d = Double.parseDouble(v.textValue());
                } else {
                    throw new IOException(where(at) + "expected a number");
                }
                return s.getType() == Schema.Type.FLOAT ? (Object) (float) d : (Object) d;
            }
            case BOOLEAN -> {
                if (!v.isBoolean()) {
                    throw new IOException(where(at) + "expected true or false");
                }
                return v.booleanValue();
            }
            case NULL -> {
                if (!v.isNull()) {
                    throw new IOException(where(at) + "expected null");
                }
                return null;
            }
            default -> throw new IOException(where(at) + "unsupported Avro type " + s.getType());
        }
    }

    private static String text(JsonNode v, String at) throws IOException {
        if (!v.isTextual()) {
            throw new IOException(where(at) + "expected a string");
        }
        return v.textValue();
    }

    private static String where(String at) {
        return at.isEmpty() ? "" : at + ": ";
    }

    private static Object convert(Object v) {
        if (v instanceof SpecificRecordBase r) {
            return toMap(r);
        }
        if (v instanceof Instant i) {
            return i.toString();
        }
        if (v instanceof ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            byte[] bytes = new byte[d.remaining()];
            d.get(bytes);
            return Base64.getEncoder().encodeToString(bytes);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(x -> out.add(convert(x)));
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new TreeMap<>();
            m.forEach((k, x) -> out.put(k.toString(), convert(x)));
            return out;
        }
        if (v instanceof Enum<?> e) {
            return e.name();
        }
        if (v instanceof CharSequence s) {
            return s.toString();
        }
        return v;
    }
}
