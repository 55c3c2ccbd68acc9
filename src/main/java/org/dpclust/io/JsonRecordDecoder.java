package org.dpclust.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.dpclust.config.FieldMapping;

/**
 * Reads one UTF-8 JSON object per record through a {@link FieldMapping} (docs/wire-format.md#json-
 * input). Anything the mapping cannot read — malformed or non-UTF-8 JSON, a value that is not an
 * object, nesting deeper than {@link #MAX_DEPTH}, a missing field, a string or boolean where a
 * number is expected, an event time that is not one — leaves the record undecodable with a reason
 * naming the field, so it is dead-lettered. Numbers that overflow a double read as ±∞ and are
 * refused by the validator as non-finite; JSON has no NaN literal (Jackson refuses the token).
 */
public final class JsonRecordDecoder implements InputDecoder {
    private static final long serialVersionUID = 1L;

    /** The deepest nesting read (deeper documents are refused before they are built). */
    public static final int MAX_DEPTH = 64;

    private final FieldMapping mapping;
    private transient ObjectMapper json;
    private transient String[][] featurePaths;
    private transient String[] arrayPath, streamPath, devicePath, timePath;

    public JsonRecordDecoder(FieldMapping mapping) {
        this.mapping = mapping;
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

    private static void fail(RawRecord raw, String why) {
        raw.eventTime = Long.MIN_VALUE;
        raw.streamId = null;
        raw.deviceId = null;
        raw.features = null;
        raw.undecodable = why;
    }

    private void read(RawRecord raw) throws IOException, Unreadable {
        if (json == null) {
            open();
        }
        JsonNode root = json.readTree(raw.value);
        if (root == null || !root.isObject()) {
            throw new Unreadable("json: the value is not a JSON object");
        }
        String stream = text(root, mapping.streamId(), streamPath, raw, "stream_id");
        String device =
                mapping.deviceId() == null
                        ? ""
                        : text(root, mapping.deviceId(), devicePath, raw, "device_id");
        long time = mapping.eventTime() == null ? raw.appendTime : eventTime(root);
        double[] x;
        if (arrayPath != null) {
            JsonNode a = at(root, arrayPath, mapping.featureArray());
            if (!a.isArray()) {
                throw new Unreadable(
                        "json: field '" + mapping.featureArray() + "' is not an array of numbers");
            }
            x = new double[a.size()];
            for (int j = 0; j < x.length; j++) {
                x[j] = number(a.get(j), mapping.featureArray() + "[" + j + "]");
            }
        } else {
            List<String> names = mapping.features();
            x = new double[names.size()];
            for (int j = 0; j < x.length; j++) {
                x[j] = number(at(root, featurePaths[j], names.get(j)), names.get(j));
            }
        }
        raw.streamId = stream;
        raw.deviceId = device;
        raw.eventTime = time;
        raw.features = x;
    }

    private void open() {
        json = JsonMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
        json.getFactory()
                .setStreamReadConstraints(
                        StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
        streamPath = split(mapping.streamId());
        devicePath = mapping.deviceId() == null ? null : split(mapping.deviceId());
        timePath = mapping.eventTime() == null ? null : split(mapping.eventTime());
        arrayPath = mapping.featureArray() == null ? null : mapping.featureArray().split("\\.");
        featurePaths = new String[mapping.features().size()][];
        for (int j = 0; j < featurePaths.length; j++) {
            featurePaths[j] = mapping.features().get(j).split("\\.");
        }
    }

    private static String[] split(FieldMapping.Source s) {
        return s.kind() == FieldMapping.Source.Kind.FIELD ? s.value().split("\\.") : null;
    }

    private static String text(
            JsonNode root, FieldMapping.Source s, String[] path, RawRecord raw, String what)
            throws Unreadable {
        String v =
                switch (s.kind()) {
                    case CONSTANT -> s.value();
                    case KEY -> {
                        if (raw.key == null) {
                            throw new Unreadable(
                                    "json: " + what + " is the record key, which is absent");
                        }
                        yield new String(raw.key, StandardCharsets.UTF_8);
                    }
                    case FIELD -> {
                        JsonNode n = at(root, path, s.value());
                        if (!n.isTextual() && !n.isIntegralNumber()) {
                            throw new Unreadable(
                                    "json: field '"
                                            + s.value()
                                            + "' is not a string or an integer");
                        }
                        yield n.asText();
                    }
                };
        if (v.isEmpty()) {
            throw new Unreadable("json: " + what + " ('" + s.describe() + "') is empty");
        }
        return v;
    }

    private long eventTime(JsonNode root) throws Unreadable {
        String name = mapping.eventTime().value();
        JsonNode n = at(root, timePath, name);
        switch (mapping.eventTimeUnit()) {
            case "iso" -> {
                if (!n.isTextual()) {
                    throw new Unreadable("json: field '" + name + "' is not an ISO-8601 instant");
                }
                try {
                    return Instant.parse(n.asText()).toEpochMilli();
                } catch (DateTimeParseException | ArithmeticException e) {
                    throw new Unreadable("json: field '" + name + "' is not an ISO-8601 instant");
                }
            }
            case "seconds" -> {
                double s = number(n, name);
                if (!Double.isFinite(s) || Math.abs(s) > 9.2e15) {
                    throw new Unreadable("json: field '" + name + "' is out of range");
                }
                return Math.round(s * 1000.0);
            }
            default -> {
                if (!n.isIntegralNumber() || !n.canConvertToLong()) {
                    throw new Unreadable(
                            "json: field '" + name + "' is not an integer of epoch milliseconds");
                }
                return n.asLong();
            }
        }
    }

    private static double number(JsonNode n, String name) throws Unreadable {
        if (!n.isNumber()) {
            throw new Unreadable(
                    "json: field '" + name + "' is " + kind(n) + ", expected a number");
        }
        return n.doubleValue();
    }

    private static String kind(JsonNode n) {
        return switch (n.getNodeType()) {
            case STRING -> "a string";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            default -> n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** The node at {@code path} (object fields, or array indices), or a missing-field failure. */
    private static JsonNode at(JsonNode root, String[] path, String name) throws Unreadable {
        JsonNode n = root;
        for (String seg : path) {
            if (n.isObject()) {
                n = n.get(seg);
            } else if (n.isArray() && isIndex(seg)) {
                n = n.get(Integer.parseInt(seg));
            } else {
                n = null;
            }
            if (n == null) {
                throw new Unreadable("json: field '" + name + "' is missing");
            }
        }
        return n;
    }

    private static boolean isIndex(String seg) {
        if (seg.isEmpty() || seg.length() > 9) {
            return false;
        }
        for (int i = 0; i < seg.length(); i++) {
            if (!Character.isDigit(seg.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** A mapped value is missing or of the wrong type (the message names the field). */
    private static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }
}
