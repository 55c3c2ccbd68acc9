package org.dpclust.io;

import static org.dpclust.io.MappedFields.fail;
import static org.dpclust.io.MappedFields.identity;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.dpclust.config.FieldMapping;
import org.dpclust.io.MappedFields.Unreadable;

/**
 * Reads one UTF-8 JSON object per record through a {@link FieldMapping} in one streaming pass
 * (Jackson's parser; fields the mapping does not name are skipped, never built)
 * (docs/wire-format.md#input-formats). Anything the mapping cannot read — malformed or non-UTF-8
 * JSON, a value that is not an object, nesting deeper than {@link #MAX_DEPTH}, a missing field, a
 * string or boolean where a number is expected, an event time that is not one — leaves the record
 * undecodable with a reason naming the field, so it is dead-lettered. A key that appears twice in
 * an object on a mapped path (a mapped field, or an object holding one) is refused: JSON readers
 * disagree on which of the two values counts. Duplicates elsewhere are skipped with the rest of
 * what the mapping does not read (checking every object's keys took 12 % of the decode's samples in
 * a JFR profile). Numbers that overflow a double read as ±∞ and are refused by the validator as
 * non-finite; JSON has no NaN literal (Jackson refuses the token).
 */
public final class JsonRecordDecoder implements InputDecoder {
    private static final long serialVersionUID = 1L;

    /** The deepest nesting read (deeper documents are refused as they are read). */
    public static final int MAX_DEPTH = 64;

    private static final int STREAM = -1, DEVICE = -2, TIME = -3, ARRAY = -4;

    private final FieldMapping mapping;
    private transient JsonFactory factory;
    private transient Node root;
    private transient int nodes;

    public JsonRecordDecoder(FieldMapping mapping) {
        this.mapping = mapping;
    }

    /** A node of the mapped paths' trie: its children by field name (or array index). */
    private static final class Node {
        final Map<String, Node> children = new HashMap<>();
        int[] targets = new int[0]; // STREAM, DEVICE, TIME, ARRAY or a feature's index
        final String path; // dotted, from the root ("" for the root)
        final int index; // 0.. in creation order: Found.visited

        Node(String path, int index) {
            this.path = path;
            this.index = index;
        }

        /** The child at {@code seg}, created with index {@code next} if it is new. */
        Node child(String seg, java.util.function.IntSupplier next) {
            return children.computeIfAbsent(
                    seg, k -> new Node(path.isEmpty() ? k : path + "." + k, next.getAsInt()));
        }
    }

    /** What one record's pass has found. */
    private static final class Found {
        final boolean[] visited;
        String stream, device;
        long time = Long.MIN_VALUE;
        boolean timeSet;
        double[] x;
        boolean[] set;
        int setCount;

        Found(int nodes) {
            visited = new boolean[nodes];
        }
    }

    @Override
    public void decode(RawRecord raw) {
        raw.decoded = true;
        try {
            read(raw);
            raw.undecodable = null;
        } catch (Unreadable e) {
            fail(raw, e.getMessage());
        } catch (IOException | RuntimeException e) {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            int nl = m.indexOf('\n');
            fail(raw, "json: malformed (" + (nl < 0 ? m : m.substring(0, nl)) + ")");
        }
    }

    private void read(RawRecord raw) throws IOException, Unreadable {
        if (factory == null) {
            open();
        }
        Found f = new Found(nodes);
        if (mapping.featureArray() == null) {
            f.x = new double[mapping.features().size()];
            f.set = new boolean[f.x.length];
        }
        try (JsonParser p = factory.createParser(raw.value)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT) {
                throw new Unreadable("json: the value is not a JSON object");
            }
            walk(p, root, t, f);
            if (p.nextToken() != null) {
                throw new Unreadable("json: malformed (content after the object)");
            }
        }
        raw.streamId = identity(mapping.streamId(), f.stream, raw, "stream_id", "json");
        raw.deviceId =
                mapping.deviceId() == null
                        ? ""
                        : identity(mapping.deviceId(), f.device, raw, "device_id", "json");
        if (mapping.eventTime() == null) {
            raw.eventTime = raw.appendTime;
        } else if (!f.timeSet) {
            throw new Unreadable("json: field '" + mapping.eventTime().value() + "' is missing");
        } else {
            raw.eventTime = f.time;
        }
        if (f.x == null) {
            throw new Unreadable("json: field '" + mapping.featureArray() + "' is missing");
        }
        if (f.set != null && f.setCount < f.set.length) {
            for (int j = 0; j < f.set.length; j++) {
                if (!f.set[j]) {
                    throw new Unreadable(
                            "json: field '" + mapping.features().get(j) + "' is missing");
                }
            }
        }
        raw.features = f.x;
    }

    /** Reads the value starting at token {@code t} against trie node {@code n} (null: skip it). */
    private void walk(JsonParser p, Node n, JsonToken t, Found f) throws IOException, Unreadable {
        if (n == null) {
            p.skipChildren();
            return;
        }
        if (f.visited[n.index]) {
            throw new Unreadable("json: field '" + n.path + "' appears twice");
        }
        f.visited[n.index] = true;
        if (n.targets.length > 0) {
            for (int target : n.targets) {
                take(p, n.path, target, t, f);
            }
            if (t.isStructStart()) {
                if (n.targets[0] != ARRAY) {
                    p.skipChildren();
                }
            }
            return;
        }
        if (t == JsonToken.START_OBJECT) {
            for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                Node c = n.children.get(p.currentName());
                walk(p, c, p.nextToken(), f);
            }
        } else if (t == JsonToken.START_ARRAY) {
            int i = 0;
            for (JsonToken v = p.nextToken(); v != JsonToken.END_ARRAY; v = p.nextToken()) {
                walk(p, n.children.get(Integer.toString(i++)), v, f);
            }
        } // a scalar where the mapping goes deeper: its fields are missing (reported after)
    }

    private void take(JsonParser p, String path, int target, JsonToken t, Found f)
            throws IOException, Unreadable {
        switch (target) {
            case STREAM, DEVICE -> {
                if (t != JsonToken.VALUE_STRING && t != JsonToken.VALUE_NUMBER_INT) {
                    throw new Unreadable(
                            "json: field '" + path + "' is not a string or an integer");
                }
                if (target == STREAM) {
                    f.stream = p.getText();
                } else {
                    f.device = p.getText();
                }
            }
            case TIME -> {
                f.time = time(p, path, t);
                f.timeSet = true;
            }
            case ARRAY -> {
                if (t != JsonToken.START_ARRAY) {
                    throw new Unreadable("json: field '" + path + "' is not an array of numbers");
                }
                double[] x = new double[16];
                int size = 0;
                for (JsonToken v = p.nextToken(); v != JsonToken.END_ARRAY; v = p.nextToken()) {
                    if (size == x.length) {
                        x = Arrays.copyOf(x, size * 2);
                    }
                    x[size] = number(p, v, path, size);
                    size++;
                }
                f.x = Arrays.copyOf(x, size);
            }
            default -> {
                f.x[target] = number(p, t, path, -1);
                if (!f.set[target]) {
                    f.set[target] = true;
                    f.setCount++;
                }
            }
        }
    }

    private long time(JsonParser p, String name, JsonToken t) throws IOException, Unreadable {
        switch (mapping.eventTimeUnit()) {
            case "iso" -> {
                if (t != JsonToken.VALUE_STRING) {
                    throw new Unreadable("json: field '" + name + "' is not an ISO-8601 instant");
                }
                try {
                    return Instant.parse(p.getText()).toEpochMilli();
                } catch (DateTimeParseException | ArithmeticException e) {
                    throw new Unreadable("json: field '" + name + "' is not an ISO-8601 instant");
                }
            }
            case "seconds" -> {
                double s = number(p, t, name, -1);
                if (!Double.isFinite(s) || Math.abs(s) > 9.2e15) {
                    throw new Unreadable("json: field '" + name + "' is out of range");
                }
                return Math.round(s * 1000.0);
            }
            default -> {
                if (t != JsonToken.VALUE_NUMBER_INT
                        || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw new Unreadable(
                            "json: field '" + name + "' is not an integer of epoch milliseconds");
                }
                return p.getLongValue();
            }
        }
    }

    /** The number at {@code t}: field {@code name}, or its element {@code at} if at ≥ 0. */
    private static double number(JsonParser p, JsonToken t, String name, int at)
            throws IOException, Unreadable {
        if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
            if (t.isStructStart()) {
                p.skipChildren();
            }
            String field = at < 0 ? name : name + "[" + at + "]";
            throw new Unreadable(
                    "json: field '" + field + "' is " + kind(t) + ", expected a number");
        }
        return p.getDoubleValue();
    }

    private static String kind(JsonToken t) {
        return switch (t) {
            case VALUE_STRING -> "a string";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            case START_ARRAY -> "an array";
            case START_OBJECT -> "an object";
            default -> t.name().toLowerCase(Locale.ROOT);
        };
    }

    private void open() {
        nodes = 0;
        Node r = new Node("", nodes++);
        add(r, mapping.streamId(), STREAM);
        add(r, mapping.deviceId(), DEVICE);
        add(r, mapping.eventTime(), TIME);
        if (mapping.featureArray() != null) {
            add(r, FieldMapping.Source.field(mapping.featureArray()), ARRAY);
        }
        for (int j = 0; j < mapping.features().size(); j++) {
            add(r, FieldMapping.Source.field(mapping.features().get(j)), j);
        }
        root = r;
        factory =
                JsonFactory.builder()
                        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                        .streamReadConstraints(
                                StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                        .build();
    }

    private void add(Node root, FieldMapping.Source s, int target) {
        if (s == null || s.kind() != FieldMapping.Source.Kind.FIELD) {
            return;
        }
        Node n = root;
        for (String seg : s.value().split("\\.")) {
            n = n.child(seg, () -> nodes++);
        }
        n.targets = Arrays.copyOf(n.targets, n.targets.length + 1);
        n.targets[n.targets.length - 1] = target;
    }
}
