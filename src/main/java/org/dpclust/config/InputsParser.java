package org.dpclust.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads {@code kafka.inputs} (docs/configuration.md#kafkainputs-json-and-several-input-topics): a
 * list of input topics, each with its {@code format} and, for JSON, its {@code mapping}. Every
 * problem fails naming the option.
 */
final class InputsParser {
    /** The most input topics one job reads. */
    static final int MAX_INPUTS = 64;

    /** The most mapped features (the largest dimension the streams accept is checked later). */
    static final int MAX_FEATURES = 4_096;

    private InputsParser() {}

    /** The declared inputs, or an empty list when {@code kafka.inputs} is absent. */
    static List<InputTopic> parse(JsonNode n, boolean inputTopicSet) {
        String p = "kafka.inputs";
        if (n.isMissingNode() || n.isNull()) {
            return List.of();
        }
        if (inputTopicSet) {
            throw new ConfigException(
                    p, "declare input topics in kafka.inputs or kafka.topics.input, not both");
        }
        if (!n.isArray() || n.isEmpty() || n.size() > MAX_INPUTS) {
            throw new ConfigException(
                    p, "expected a list of 1 to " + MAX_INPUTS + " input topics (topic, format)");
        }
        List<InputTopic> out = new ArrayList<>();
        Set<String> topics = new HashSet<>();
        for (int i = 0; i < n.size(); i++) {
            InputTopic t = input(n.get(i), p + "[" + i + "]");
            if (!topics.add(t.topic())) {
                throw new ConfigException(
                        p + "[" + i + "].topic", "topic '" + t.topic() + "' is listed twice");
            }
            out.add(t);
        }
        return out;
    }

    private static InputTopic input(JsonNode n, String p) {
        ConfigLoader.allowOnly(n, p, Set.of("topic", "format", "mapping", "registry_url"));
        if (!n.isObject()) {
            throw new ConfigException(p, "expected a mapping with topic and format");
        }
        String topic = text(n.path("topic"), p + ".topic", null);
        InputFormat format =
                InputFormat.parse(
                        p + ".format", text(n.path("format"), p + ".format", "avro-single-object"));
        JsonNode m = n.path("mapping");
        if (format == InputFormat.AVRO_SINGLE_OBJECT) {
            if (!m.isMissingNode()) {
                throw new ConfigException(
                        p + ".mapping",
                        "avro-single-object records have dpclust's own fields; a mapping is for"
                                + " json and avro-registry");
            }
            return InputTopic.avro(topic);
        }
        String registry = null;
        if (format == InputFormat.AVRO_REGISTRY) {
            registry = text(n.path("registry_url"), p + ".registry_url", null);
            if (!registry.startsWith("http://") && !registry.startsWith("https://")) {
                throw new ConfigException(
                        p + ".registry_url", "must be an http:// or https:// URL");
            }
            try {
                if (java.net.URI.create(registry).getUserInfo() != null) {
                    throw new ConfigException(
                            p + ".registry_url",
                            "holds credentials, and the configuration is public: put them in the"
                                    + " client property "
                                    + KafkaConnection.REGISTRY_USER_INFO
                                    + " (--kafka-properties)");
                }
            } catch (IllegalArgumentException e) {
                if (e instanceof ConfigException) {
                    throw e;
                }
                throw new ConfigException(p + ".registry_url", "not a URL");
            }
        } else if (n.has("registry_url")) {
            throw new ConfigException(p + ".registry_url", "only for format avro-registry");
        }
        return new InputTopic(topic, format, mapping(m, p + ".mapping"), registry);
    }

    private static FieldMapping mapping(JsonNode n, String p) {
        if (n.isMissingNode() || n.isNull()) {
            return FieldMapping.DEFAULT_JSON;
        }
        ConfigLoader.allowOnly(
                n,
                p,
                Set.of("stream_id", "device_id", "event_time", "event_time_unit", "features"));
        FieldMapping d = FieldMapping.DEFAULT_JSON;
        FieldMapping.Source stream = source(n.path("stream_id"), p + ".stream_id", d.streamId());
        FieldMapping.Source device = source(n.path("device_id"), p + ".device_id", null);
        FieldMapping.Source time = source(n.path("event_time"), p + ".event_time", null);
        if (time != null && time.kind() != FieldMapping.Source.Kind.FIELD) {
            throw new ConfigException(p + ".event_time", "must name a field (or be left out)");
        }
        String unit = text(n.path("event_time_unit"), p + ".event_time_unit", "millis");
        if (!Set.of("millis", "seconds", "iso").contains(unit)) {
            throw new ConfigException(
                    p + ".event_time_unit", "must be millis, seconds or iso, was '" + unit + "'");
        }
        JsonNode f = n.path("features");
        if (f.isMissingNode() || f.isNull()) {
            throw new ConfigException(
                    p + ".features",
                    "required: a list of numeric fields in order, or one field holding an array");
        }
        if (f.isTextual()) {
            return nested(
                    new FieldMapping(
                            stream,
                            device,
                            time,
                            unit,
                            List.of(),
                            path(f.asText(), p + ".features")),
                    p);
        }
        if (!f.isArray() || f.isEmpty() || f.size() > MAX_FEATURES) {
            throw new ConfigException(
                    p + ".features",
                    "expected 1 to " + MAX_FEATURES + " field names, or one array field's name");
        }
        List<String> fields = new ArrayList<>();
        for (int j = 0; j < f.size(); j++) {
            fields.add(path(text(f.get(j), p + ".features[" + j + "]", null), p + ".features"));
        }
        return nested(new FieldMapping(stream, device, time, unit, fields, null), p);
    }

    /**
     * Refuses a mapping where one field's path lies inside another's ({@code v} and {@code v.0}): a
     * value cannot be both a number or id and the container of another mapped value.
     */
    private static FieldMapping nested(FieldMapping m, String p) {
        List<String> paths = new ArrayList<>(m.features());
        for (FieldMapping.Source s :
                new FieldMapping.Source[] {m.streamId(), m.deviceId(), m.eventTime()}) {
            if (s != null && s.kind() == FieldMapping.Source.Kind.FIELD) {
                paths.add(s.value());
            }
        }
        if (m.featureArray() != null) {
            paths.add(m.featureArray());
        }
        for (String a : paths) {
            for (String b : paths) {
                if (b.startsWith(a + ".")) {
                    throw new ConfigException(
                            p, "field '" + b + "' lies inside mapped field '" + a + "'");
                }
            }
        }
        return m;
    }

    /** A field path, {@code $key}, or {@code =constant}. */
    private static FieldMapping.Source source(JsonNode v, String p, FieldMapping.Source dflt) {
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        String s = text(v, p, null);
        if (s.equals("$key")) {
            return new FieldMapping.Source(FieldMapping.Source.Kind.KEY, "");
        }
        if (s.startsWith("=")) {
            if (s.length() == 1) {
                throw new ConfigException(p, "a constant needs a value after '='");
            }
            return new FieldMapping.Source(FieldMapping.Source.Kind.CONSTANT, s.substring(1));
        }
        return FieldMapping.Source.field(path(s, p));
    }

    private static String path(String s, String p) {
        for (String seg : s.split("\\.", -1)) {
            if (seg.isEmpty()) {
                throw new ConfigException(p, "'" + s + "' is not a field path (a.b.c)");
            }
        }
        return s;
    }

    private static String text(JsonNode v, String p, String dflt) {
        if (v.isMissingNode() || v.isNull()) {
            if (dflt == null) {
                throw new ConfigException(p, "required");
            }
            return dflt;
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw new ConfigException(p, "must be a non-empty string");
        }
        return v.asText();
    }
}
