package org.dpclust.io;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Converts dpclust's Avro records to JSON-ready maps keyed by the schema's (snake_case) field
 * names, in schema order: timestamps as ISO-8601 strings, bytes as base64, enums as their symbol.
 */
public final class AvroJson {
    private AvroJson() {}

    public static Map<String, Object> toMap(SpecificRecordBase r) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Schema.Field f : r.getSchema().getFields()) {
            out.put(f.name(), convert(r.get(f.pos())));
        }
        return out;
    }

    private static Object convert(Object v) {
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
