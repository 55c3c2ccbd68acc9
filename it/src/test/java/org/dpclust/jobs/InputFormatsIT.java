package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.InputFormat;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.ApicurioRegistry;
import org.dpclust.io.InputDecoders;
import org.dpclust.io.SchemaRegistryClient;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.stream.LatenessFilter;
import org.dpclust.stream.RecordValidator;
import org.dpclust.stream.StreamClusteringFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every input format on the real broker, through the job on a MiniCluster (restarts disabled): the
 * same telemetry as dpclust's own Avro records on one topic, and split over an Avro topic, two JSON
 * topics of different shapes (dpclust's shape, and a user's shape mapped by configuration: stream
 * id from the Kafka key, nested device id, ISO-8601 time, named features) and two registry-framed
 * Avro topics on a real Apicurio Registry (dpclust's records registered by {@code generate}'s
 * producer; a user's own nested schema written by Apicurio's serializer and mapped by
 * configuration), with hostile records of each format mixed in, publishes byte-identical releases;
 * every hostile record is a dead letter with its reason and records in = windowed + rejected.
 */
class InputFormatsIT {
    private static final long W = StreamingRuns.W;
    private static final long START = StreamingRuns.START;
    private static final int WINDOWS = 3;
    private static final int PER_WINDOW = 600;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension static final MiniClusterExtension FLINK = StreamingRuns.miniCluster();

    private static EmbeddedKafka kafka;
    private static StreamingRuns runs;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
        runs = new StreamingRuns(kafka);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private static final String STREAMS =
            """
              - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT10S,
                 epsilon_per_release: 1.0, budget_cap: 100, public_seed: 1}
              - {id: b, dimension: 2, lower: [0, 0], upper: [1, 1], k: 2, window: PT10S,
                 epsilon_per_release: 1.0, budget_cap: 100, public_seed: 2,
                 privacy_unit: device, device_contribution_bound: 4}
            """;

    private static DpclustConfig avroOnly() {
        DpclustConfig c =
                ConfigLoader.parse(
                        runs.boundedYaml("json-ref", START, START + WINDOWS * W, STREAMS));
        TopicAdmin.ensureTopics(c, 1, 1);
        return c;
    }

    private static DpclustConfig mixed(String registryUrl) {
        String yaml =
                runs.boundedYaml("json-mix", START, START + WINDOWS * W, STREAMS)
                        .replace("input: json-mix.in, ", "")
                        .replace(
                                "  group_id: json-mix\n",
                                """
                                  group_id: json-mix
                                  inputs:
                                    - {topic: json-mix.avro}
                                    - {topic: json-mix.own, format: json}
                                    - topic: json-mix.sites
                                      format: json
                                      mapping:
                                        stream_id: $key
                                        device_id: host.id
                                        event_time: at
                                        event_time_unit: iso
                                        features: [load.cpu, load.mem]
                                    - {topic: json-mix.registry, format: avro-registry, registry_url: "%1$s"}
                                    - topic: json-mix.apicurio
                                      format: avro-registry
                                      registry_url: "%1$s"
                                      mapping:
                                        stream_id: site
                                        device_id: host.id
                                        event_time: ts
                                        features: [load.cpu, load.mem]
                                """
                                        .formatted(registryUrl));
        DpclustConfig c = ConfigLoader.parse(yaml);
        assertEquals(5, c.inputs().size(), yaml);
        TopicAdmin.ensureTopics(c, 2, 1);
        return c;
    }

    /** One record of the seeded telemetry. */
    private record Rec(String stream, String device, long time, double[] x) {}

    private static List<Rec> telemetry() {
        SplittableRandom r = new SplittableRandom(7);
        List<Rec> out = new ArrayList<>();
        for (int w = 0; w < WINDOWS; w++) {
            for (int i = 0; i < PER_WINDOW; i++) {
                long t = START + w * W + i * (W / PER_WINDOW);
                String s = i % 2 == 0 ? "a" : "b";
                double cx = (i % 3) / 3.0 + 0.1;
                out.add(
                        new Rec(
                                s,
                                "d" + (i % 40),
                                t,
                                new double[] {
                                    cx + 0.02 * r.nextGaussian(), 0.5 + 0.02 * r.nextGaussian()
                                }));
            }
        }
        return out;
    }

    /** A record in the user's shape: key = stream, host.id, ISO time, load.{cpu,mem}. */
    private static byte[] site(Rec r) throws Exception {
        ObjectNode o = JSON.createObjectNode();
        o.put("at", Instant.ofEpochMilli(r.time()).toString());
        o.putObject("host").put("id", r.device()).put("rack", 3);
        o.putObject("load").put("cpu", r.x()[0]).put("mem", r.x()[1]);
        o.put("note", "ignored");
        return JSON.writeValueAsBytes(o);
    }

    /** Hostile JSON values with the dead-letter reason each must get. */
    private static Map<String, String> hostile() {
        Map<String, String> m = new TreeMap<>();
        String ok =
                "{\"stream_id\":\"a\",\"device_id\":\"d\",\"event_time\":"
                        + (START + 5)
                        + ",\"features\":[0.5,0.5]}";
        m.put(ok.substring(0, 25), "undecodable"); // truncated
        m.put(ok.replace("\"device_id\":\"d\",", ""), "undecodable"); // a field missing
        m.put(ok.replace("[0.5,0.5]", "[0.5,\"0.5\"]"), "undecodable"); // a string for a number
        m.put(ok.replace("[0.5,0.5]", "[NaN,0.5]"), "undecodable"); // NaN
        m.put(ok.replace("[0.5,0.5]", "[1e999,0.5]"), "non_finite"); // overflows to infinity
        m.put(ok.replace("[0.5,0.5]", "[0.5,0.5,0.5]"), "wrong_dimension");
        m.put(ok.replace("\"a\"", "\"nobody\""), "unknown_stream");
        m.put("{\"x\":".repeat(200) + "1" + "}".repeat(200), "undecodable"); // deeply nested
        m.put("[1,2,3]", "undecodable"); // not an object
        StringBuilder big = new StringBuilder("[");
        for (int i = 0; i < 50_000; i++) {
            big.append(i == 0 ? "" : ",").append("0.5");
        }
        m.put(ok.replace("[0.5,0.5]", big.append("]")), "wrong_dimension");
        return m;
    }

    private static final org.apache.avro.Schema READING =
            new org.apache.avro.Schema.Parser()
                    .parse(
                            """
                            {"type": "record", "name": "Reading", "namespace": "user.telemetry", "fields": [
                              {"name": "site", "type": "string"},
                              {"name": "host", "type": {"type": "record", "name": "Host", "fields": [
                                {"name": "id", "type": "string"}, {"name": "rack", "type": "int"}]}},
                              {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                              {"name": "load", "type": {"type": "record", "name": "Load", "fields": [
                                {"name": "cpu", "type": "double"}, {"name": "mem", "type": "double"},
                                {"name": "net", "type": ["null", "double"], "default": null}]}}]}
                            """);

    /** A record in a user's own Avro schema (written by Apicurio's serializer). */
    private static GenericRecord reading(Rec r) {
        GenericRecord host = new GenericData.Record(READING.getField("host").schema());
        host.put("id", r.device());
        host.put("rack", 3);
        org.apache.avro.Schema loadSchema = READING.getField("load").schema();
        GenericRecord load = new GenericData.Record(loadSchema);
        load.put("cpu", r.x()[0]);
        load.put("mem", r.x()[1]);
        GenericRecord g = new GenericData.Record(READING);
        g.put("site", r.stream());
        g.put("host", host);
        g.put("ts", r.time());
        g.put("load", load);
        return g;
    }

    /** Hostile registry-framed values (ids of {@code registry}) with the reason each must get. */
    private static Map<byte[], String> hostileFramed(int telemetryId, int otherId) {
        Map<byte[], String> m = new java.util.LinkedHashMap<>();
        m.put(new byte[] {0, 0, 0}, "undecodable"); // shorter than the header
        m.put(new byte[] {1, 0, 0, 0, (byte) telemetryId, 2, 'a'}, "undecodable"); // wrong magic
        m.put(new byte[] {0, 0, 0, 0x7F, 0x7F, 2, 'a'}, "undecodable"); // unknown schema id
        m.put(new byte[] {0, 0, 0, 0, (byte) telemetryId, 2, 'a'}, "undecodable"); // truncated
        m.put(new byte[] {0, 0, 0, 0, (byte) otherId, 2, 'a'}, "undecodable"); // not the mapping's
        return m;
    }

    @Test
    void everyFormatOfTheSameTelemetryPublishesTheSameReleases() throws Exception {
        List<Rec> data = telemetry();
        DpclustConfig ref = avroOnly();
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), ref.kafka().inputTopic())) {
            data.forEach(r -> p.send(r.stream(), r.device(), r.time(), r.x()));
        }
        runs.runBounded(ref, new RawRecordDeserializer(), "none");
        Map<String, byte[]> reference = runs.byWindow(ref);
        assertEquals(2 * WINDOWS, reference.size(), "one release per stream and window");

        try (ApicurioRegistry registry =
                ApicurioRegistry.start(Files.createTempFile("apicurio", ".log"))) {
            mixedRun(data, reference, registry);
        }
    }

    private static void mixedRun(
            List<Rec> data, Map<String, byte[]> reference, ApicurioRegistry registry)
            throws Exception {
        DpclustConfig c = mixed(registry.ccompatUrl());
        var conn = c.kafka().connection();
        int otherId =
                new SchemaRegistryClient(registry.ccompatUrl(), null)
                        .register(
                                "other-value",
                                new org.apache.avro.Schema.Parser()
                                        .parse(
                                                "{\"type\":\"record\",\"name\":\"O\",\"fields\":"
                                                        + "[{\"name\":\"s\",\"type\":\"string\"}]}"));
        Map<String, String> hostile = hostile();
        byte[] invalidUtf8 =
                ("{\"stream_id\":\"a\",\"device_id\":\"dX\",\"event_time\":1,\"features\":[0,0]}")
                        .getBytes(StandardCharsets.UTF_8);
        invalidUtf8[invalidUtf8.length - 34] = (byte) 0xC3; // 'X' → a lead byte before '"'
        int telemetryId; // the producer's registration, looked up by registering again
        try (TelemetryProducer avro = new TelemetryProducer(conn, "json-mix.avro");
                TelemetryProducer own =
                        new TelemetryProducer(conn, "json-mix.own", InputFormat.JSON);
                TelemetryProducer sites =
                        new TelemetryProducer(conn, "json-mix.sites", InputFormat.JSON);
                TelemetryProducer framed =
                        new TelemetryProducer(
                                conn,
                                "json-mix.registry",
                                InputFormat.AVRO_REGISTRY,
                                registry.ccompatUrl());
                TelemetryProducer apicurio = new TelemetryProducer(conn, "json-mix.apicurio");
                AvroKafkaSerializer<GenericRecord> serializer = new AvroKafkaSerializer<>()) {
            serializer.configure(registry.serializerConfig(), false);
            for (int i = 0; i < data.size(); i++) {
                Rec r = data.get(i);
                switch (i % 5) {
                    case 0 -> avro.send(r.stream(), r.device(), r.time(), r.x());
                    case 1 -> own.send(r.stream(), r.device(), r.time(), r.x());
                    case 2 -> sites.sendRaw(r.stream(), site(r));
                    case 3 -> framed.send(r.stream(), r.device(), r.time(), r.x());
                    default ->
                            apicurio.sendRaw(
                                    r.stream(),
                                    serializer.serialize("json-mix.apicurio", reading(r)));
                }
            }
            telemetryId =
                    new SchemaRegistryClient(registry.ccompatUrl(), null)
                            .register(
                                    "json-mix.registry-value",
                                    org.dpclust.avro.TelemetryRecord.getClassSchema());
            hostileFramed(telemetryId, otherId).keySet().forEach(v -> framed.sendRaw("a", v));
            hostile.keySet().forEach(v -> own.sendRaw("a", v.getBytes(StandardCharsets.UTF_8)));
            own.sendRaw("a", invalidUtf8);
            sites.sendRaw(null, site(data.get(0))); // the stream id is the key, which is absent
        }
        JobExecutionResult result =
                runs.runBounded(c, new RawRecordDeserializer(InputDecoders.of(c)), "none");

        Map<String, Long> expected = new TreeMap<>();
        hostile.values().forEach(reason -> expected.merge(reason, 1L, Long::sum));
        expected.merge("undecodable", 2L, Long::sum); // invalid UTF-8, the absent key
        expected.merge("undecodable", 5L, Long::sum); // the registry-framed ones
        Map<String, Long> reasons = new TreeMap<>();
        List<String> details = new ArrayList<>();
        for (RejectedRecord d : runs.deadLetters(c)) {
            reasons.merge(d.getReason(), 1L, Long::sum);
            details.add(d.getDetail());
            assertFalse(d.getDetail().contains("\n"), "one line: " + d.getDetail());
            assertTrue(d.getSourceTopic().startsWith("json-mix."), d.getSourceTopic());
        }
        assertEquals(expected, reasons, "every hostile record a dead letter, with its reason");
        assertTrue(
                details.stream().anyMatch(x -> x.contains("'device_id' is missing")), "" + details);
        assertTrue(
                details.stream().anyMatch(x -> x.contains("'features[1]' is a string")),
                "" + details);
        assertTrue(details.stream().anyMatch(x -> x.contains("record key")), "" + details);
        assertTrue(
                details.stream()
                        .anyMatch(x -> x.contains("schema id 32639 is not in the registry")),
                "" + details);
        assertTrue(details.stream().anyMatch(x -> x.contains("truncated body")), "" + details);

        long in = result.<Long>getAccumulatorResult(RecordValidator.ACC_RECORDS_IN);
        long windowed = result.<Long>getAccumulatorResult(StreamClusteringFunction.ACC_WINDOWED);
        long invalid = result.<Long>getAccumulatorResult(RecordValidator.ACC_REJECTED);
        long late = result.<Long>getAccumulatorResult(LatenessFilter.ACC_LATE);
        long rejected = expected.values().stream().mapToLong(Long::longValue).sum();
        assertEquals(data.size() + rejected, in, "records in");
        assertEquals(in, windowed + invalid + late, "records in = windowed + rejected");
        assertEquals(rejected, invalid + late, "rejected = hostile");

        Map<String, byte[]> got = runs.byWindow(c);
        assertEquals(reference.keySet(), got.keySet());
        for (String k : reference.keySet()) {
            assertArrayEquals(reference.get(k), got.get(k), "release " + k);
        }
        System.out.printf(
                "InputFormatsIT: %d records over Avro, 2 JSON and 2 registry topics (+%d hostile: %s);"
                        + " %d releases"
                        + " byte-identical to the Avro-only run%n",
                data.size(), rejected, reasons, got.size());
    }
}
