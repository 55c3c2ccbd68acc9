package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InputsParserTest {
    private static final String STREAMS =
            """
            streams:
              - {id: s1, dimension: 2, lower: [0, 0], upper: [1, 1], k: 2, window: PT10S,
                 epsilon_per_release: 0.5, budget_cap: 10}
            """;

    private static DpclustConfig parse(String kafka) {
        return ConfigLoader.parse("kafka:\n" + kafka + STREAMS);
    }

    private static ConfigException error(String kafka) {
        return assertThrows(ConfigException.class, () -> parse(kafka));
    }

    @Test
    void withoutInputsTheJobReadsTheInputTopicAsItsOwnAvro() {
        DpclustConfig c = parse("  topics: {input: in.v1}\n");
        assertEquals(List.of(InputTopic.avro("in.v1")), c.inputs());
        assertEquals(List.of("in.v1"), c.inputTopicNames());
    }

    @Test
    void readsTopicsFormatsAndMappings() {
        DpclustConfig c =
                parse(
                        """
                          inputs:
                            - {topic: own.v1}
                            - {topic: plain.json, format: json}
                            - topic: sites.json
                              format: json
                              mapping:
                                stream_id: $key
                                device_id: host.id
                                event_time: ts
                                event_time_unit: iso
                                features: [cpu, net.rx]
                            - topic: fleet.json
                              format: json
                              mapping: {stream_id: "=s1", features: values}
                        """);
        List<InputTopic> in = c.inputs();
        assertEquals(4, in.size());
        assertEquals(InputTopic.avro("own.v1"), in.get(0));
        assertEquals(FieldMapping.DEFAULT_JSON, in.get(1).mapping());
        FieldMapping m = in.get(2).mapping();
        assertEquals(FieldMapping.Source.Kind.KEY, m.streamId().kind());
        assertEquals("host.id", m.deviceId().value());
        assertEquals("ts", m.eventTime().value());
        assertEquals("iso", m.eventTimeUnit());
        assertEquals(List.of("cpu", "net.rx"), m.features());
        assertNull(m.featureArray());
        FieldMapping f = in.get(3).mapping();
        assertEquals(
                new FieldMapping.Source(FieldMapping.Source.Kind.CONSTANT, "s1"), f.streamId());
        assertNull(f.deviceId());
        assertNull(f.eventTime(), "no event-time field: the append time");
        assertEquals("values", f.featureArray());
        assertEquals(
                List.of("own.v1", "plain.json", "sites.json", "fleet.json"), c.inputTopicNames());
    }

    @Test
    void everyMistakeNamesItsOption() {
        assertEquals(
                "kafka.inputs", error("  topics: {input: x}\n  inputs: [{topic: y}]\n").option());
        assertEquals("kafka.inputs", error("  inputs: []\n").option());
        assertEquals("kafka.inputs[0].topic", error("  inputs: [{format: json}]\n").option());
        assertEquals(
                "kafka.inputs[1].topic", error("  inputs: [{topic: a}, {topic: a}]\n").option());
        assertEquals(
                "kafka.inputs[0].registry_url",
                error(
                                "  inputs: [{topic: a, format: avro-registry, registry_url:"
                                        + " \"http://u:secret@r:8080\"}]\n")
                        .option());
        assertEquals(
                "kafka.inputs[0].mapping",
                error(
                                "  inputs: [{topic: a, format: json, mapping: {device_id: v.0,"
                                        + " features: v}}]\n")
                        .option());
        ConfigException registry = error("  inputs: [{topic: a, format: avro-registry}]\n");
        assertEquals("kafka.inputs[0].registry_url", registry.option());
        assertTrue(registry.getMessage().contains("registry_url"), registry.getMessage());
        assertEquals(
                "kafka.inputs[0].format", error("  inputs: [{topic: a, format: xml}]\n").option());
        assertEquals(
                "kafka.inputs[0].mapping",
                error("  inputs: [{topic: a, mapping: {features: x}}]\n").option());
        assertEquals(
                "kafka.inputs[0].mapping.features",
                error("  inputs: [{topic: a, format: json, mapping: {stream_id: s}}]\n").option());
        assertEquals(
                "kafka.inputs[0].mapping.features",
                error("  inputs: [{topic: a, format: json, mapping: {features: [a..b]}}]\n")
                        .option());
        assertEquals(
                "kafka.inputs[0].mapping.event_time",
                error(
                                "  inputs: [{topic: a, format: json, mapping: {event_time: $key, features: x}}]\n")
                        .option());
        assertEquals(
                "kafka.inputs[0].mapping.event_time_unit",
                error(
                                "  inputs: [{topic: a, format: json, mapping: {event_time_unit: ns,"
                                        + " features: x}}]\n")
                        .option());
        assertEquals(
                "kafka.inputs[0].mapping.device",
                error("  inputs: [{topic: a, format: json, mapping: {device: d, features: x}}]\n")
                        .option());
        assertEquals(
                "kafka.inputs[0].mapping.stream_id",
                error(
                                "  inputs: [{topic: a, format: json, mapping: {stream_id: \"=\", features: x}}]\n")
                        .option());
    }
}
