package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.dpclust.config.FieldMapping;
import org.dpclust.config.FieldMapping.Source;
import org.dpclust.config.InputFormat;
import org.dpclust.config.InputTopic;
import org.dpclust.config.KafkaConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registry decoder against a stand-in registry (the JDK's HTTP server answering Confluent's
 * {@code GET /schemas/ids/<id>}; a real registry and a serializer nobody here wrote are in {@code
 * RegistryInputIT}): framing, schema lookup and caching, basic authentication, mapping over nested
 * records, and every failure as an undecodable record with its reason.
 */
class RegistryAvroDecoderTest {
    private static final Schema HOST =
            SchemaBuilder.record("Host").fields().requiredString("id").endRecord();
    private static final Schema SITE =
            SchemaBuilder.record("Site")
                    .fields()
                    .requiredString("site")
                    .name("host")
                    .type(HOST)
                    .noDefault()
                    .requiredLong("ts")
                    .requiredFloat("cpu")
                    .requiredInt("mem")
                    .name("extra")
                    .type()
                    .nullable()
                    .stringType()
                    .noDefault()
                    .endRecord();
    private static final FieldMapping MAPPING =
            new FieldMapping(
                    Source.field("site"),
                    Source.field("host.id"),
                    Source.field("ts"),
                    "millis",
                    List.of("cpu", "mem"),
                    null);

    private HttpServer server;
    private final AtomicInteger lookups = new AtomicInteger();
    private final Map<Integer, String> schemas = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile String requiredAuth;

    @BeforeEach
    void startRegistry() throws IOException {
        schemas.put(7, SITE.toString());
        schemas.put(8, "{\"type\":\"string\"}");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/schemas/ids/",
                ex -> {
                    lookups.incrementAndGet();
                    int id = Integer.parseInt(ex.getRequestURI().getPath().replaceAll(".*/", ""));
                    String auth = ex.getRequestHeaders().getFirst("Authorization");
                    byte[] body;
                    int code;
                    if (requiredAuth != null && !requiredAuth.equals(auth)) {
                        code = 401;
                        body = "{}".getBytes(StandardCharsets.UTF_8);
                    } else if (schemas.containsKey(id)) {
                        code = 200;
                        body =
                                new ObjectMapper()
                                        .writeValueAsBytes(Map.of("schema", schemas.get(id)));
                    } else {
                        code = 404;
                        body = "{\"error_code\":40403}".getBytes(StandardCharsets.UTF_8);
                    }
                    ex.sendResponseHeaders(code, body.length);
                    ex.getResponseBody().write(body);
                    ex.close();
                });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RegistryAvroDecoder decoder(KafkaConnection kafka) {
        return new RegistryAvroDecoder(
                new InputTopic(
                        "t",
                        InputFormat.AVRO_REGISTRY,
                        MAPPING,
                        "http://127.0.0.1:" + server.getAddress().getPort()),
                kafka);
    }

    private static byte[] framed(int id, GenericRecord r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(r.getSchema()).write(r, e);
        e.flush();
        return out.toByteArray();
    }

    private static GenericRecord site(String s, String host, long ts, float cpu, int mem) {
        GenericRecord h = new GenericData.Record(HOST);
        h.put("id", host);
        GenericRecord r = new GenericData.Record(SITE);
        r.put("site", s);
        r.put("host", h);
        r.put("ts", ts);
        r.put("cpu", cpu);
        r.put("mem", mem);
        return r;
    }

    private static RawRecord decode(RegistryAvroDecoder d, byte[] value) {
        RawRecord raw = new RawRecord(value, "t", 0, 1);
        d.decode(raw);
        assertTrue(raw.decoded);
        return raw;
    }

    @Test
    void readsMappedFieldsAndLooksEachSchemaUpOnce() throws IOException {
        RegistryAvroDecoder d = decoder(KafkaConnection.plaintext("b:9092"));
        for (int i = 0; i < 3; i++) {
            RawRecord r = decode(d, framed(7, site("berlin", "h" + i, 1_000 + i, 0.5f, 3)));
            assertNull(r.undecodable, r.undecodable);
            assertEquals("berlin", r.streamId);
            assertEquals("h" + i, r.deviceId);
            assertEquals(1_000 + i, r.eventTime);
            assertArrayEquals(new double[] {0.5, 3}, r.features);
        }
        assertEquals(1, lookups.get(), "the schema is cached");
    }

    @Test
    void authenticatesWithTheResolvedCredentials() throws IOException {
        requiredAuth =
                "Basic "
                        + java.util.Base64.getEncoder()
                                .encodeToString("reader:s3cret".getBytes(StandardCharsets.UTF_8));
        byte[] v = framed(7, site("a", "h", 1, 0, 0));
        RegistryAvroDecoder anonymous = decoder(KafkaConnection.plaintext("b:9092"));
        SchemaRegistryClient.RegistryUnavailable refused =
                assertThrows(
                        SchemaRegistryClient.RegistryUnavailable.class,
                        () -> anonymous.decode(new RawRecord(v, "t", 0, 1)));
        assertTrue(refused.getMessage().contains("refused the credentials"), refused.getMessage());
        KafkaConnection withSecret =
                new KafkaConnection(
                        "b:9092", Map.of(KafkaConnection.REGISTRY_USER_INFO, "reader:s3cret"));
        assertNull(decode(decoder(withSecret), v).undecodable);
        assertTrue(
                !withSecret
                        .clientProperties(Map.of())
                        .containsKey(KafkaConnection.REGISTRY_USER_INFO),
                "the registry's property is not given to Kafka clients");
    }

    @Test
    void everyFailureIsAReasonNeverAnException() throws IOException {
        RegistryAvroDecoder d = decoder(KafkaConnection.plaintext("b:9092"));
        byte[] ok = framed(7, site("a", "h", 1, 0, 0));
        assertTrue(decode(d, new byte[] {0, 0, 0}).undecodable.contains("wire format"), "short");
        byte[] magic = ok.clone();
        magic[0] = 1;
        assertTrue(decode(d, magic).undecodable.contains("wire format"), "magic byte");
        byte[] unknown = ok.clone();
        unknown[4] = 99;
        assertTrue(decode(d, unknown).undecodable.contains("schema id 99 is not in the registry"));
        byte[] truncated = java.util.Arrays.copyOf(ok, ok.length - 3);
        assertTrue(decode(d, truncated).undecodable.contains("truncated"), "truncated body");
        byte[] longer = java.util.Arrays.copyOf(ok, ok.length + 2);
        assertTrue(decode(d, longer).undecodable.contains("left over"), "trailing bytes");
        byte[] notRecord = ok.clone();
        notRecord[4] = 8;
        assertTrue(decode(d, notRecord).undecodable.startsWith("avro-registry:"), "string schema");
        RegistryAvroDecoder noHost =
                new RegistryAvroDecoder(
                        new InputTopic(
                                "t",
                                InputFormat.AVRO_REGISTRY,
                                new FieldMapping(
                                        Source.field("site"),
                                        Source.field("host.name"),
                                        null,
                                        "millis",
                                        List.of("cpu", "site"),
                                        null),
                                "http://127.0.0.1:" + server.getAddress().getPort()),
                        KafkaConnection.plaintext("b:9092"));
        assertTrue(decode(noHost, ok).undecodable.contains("'host.name' is missing"));
    }

    /**
     * An unreachable registry fails (the job restarts and reads the record again) instead of
     * dead-lettering: a decoder that cached the schema before the outage and a fresh one must not
     * treat the same record differently.
     */
    @Test
    void anUnreachableRegistryFailsInsteadOfDeadLettering() throws IOException {
        byte[] ok = framed(7, site("a", "h", 1, 0, 0));
        RegistryAvroDecoder warm = decoder(KafkaConnection.plaintext("b:9092"));
        assertNull(decode(warm, ok).undecodable);
        server.stop(0);
        assertNull(decode(warm, ok).undecodable, "cached: decoded");
        RegistryAvroDecoder fresh = decoder(KafkaConnection.plaintext("b:9092"));
        long t0 = System.nanoTime();
        SchemaRegistryClient.RegistryUnavailable e =
                assertThrows(
                        SchemaRegistryClient.RegistryUnavailable.class,
                        () -> fresh.decode(new RawRecord(ok, "t", 0, 1)));
        assertTrue(e.getMessage().contains("unreachable"), e.getMessage());
        assertTrue(System.nanoTime() - t0 < 30e9, "gives up in bounded time");
    }

    /**
     * Schemas whose records a few bytes could make unbounded are refused: recursive ones, arrays of
     * items that take no bytes. A block claiming 2^31 items is read without allocating for them.
     */
    @Test
    void schemasAndBlocksThatCouldBeUnboundedAreRefusedOrBounded() throws IOException {
        schemas.put(
                9,
                "{\"type\":\"record\",\"name\":\"Z\",\"fields\":[{\"name\":\"site\",\"type\":\"string\"},"
                        + "{\"name\":\"n\",\"type\":{\"type\":\"array\",\"items\":\"null\"}}]}");
        schemas.put(
                10,
                "{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"site\",\"type\":\"string\"},"
                        + "{\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}");
        schemas.put(
                11,
                "{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"site\",\"type\":\"string\"},"
                        + "{\"name\":\"v\",\"type\":{\"type\":\"array\",\"items\":\"double\"}}]}");
        RegistryAvroDecoder d = decoder(KafkaConnection.plaintext("b:9092"));
        ByteArrayOutputStream zero = new ByteArrayOutputStream();
        zero.write(new byte[] {0, 0, 0, 0, 9, 2, 'a'});
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(zero, null);
        e.writeLong(Long.MAX_VALUE);
        e.writeLong(0);
        e.flush();
        long t0 = System.nanoTime();
        String why = decode(d, zero.toByteArray()).undecodable;
        assertTrue(why.contains("take no bytes"), why);
        assertTrue(System.nanoTime() - t0 < 5e9, "refused at once");
        byte[] deep = new byte[7 + 200_001];
        System.arraycopy(new byte[] {0, 0, 0, 0, 10, 2, 'a'}, 0, deep, 0, 7);
        java.util.Arrays.fill(deep, 7, deep.length - 1, (byte) 2);
        why = decode(d, deep).undecodable;
        assertTrue(why.contains("recursive"), why);
        // a block of 2^31 - 9 doubles said to fill 8 bytes, then 8 bytes and the end: the skip
        // check passes it; the read allocates for what is there, not for what is claimed
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(new byte[] {0, 0, 0, 0, 11, 2, 'a'});
        BinaryEncoder b = EncoderFactory.get().binaryEncoder(block, null);
        b.writeLong(-(long) (Integer.MAX_VALUE - 8));
        b.writeLong(8);
        b.writeDouble(0.5);
        b.writeLong(0);
        b.flush();
        RawRecord r = decode(d, block.toByteArray()); // no OutOfMemoryError
        assertTrue(r.undecodable != null || r.features != null);
    }
}
