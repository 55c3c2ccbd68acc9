package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.kafka.PublicationSerializerTest;
import org.junit.jupiter.api.Test;

/** The JSON form: documented rendering, deterministic, and read back to an equal record. */
class AvroJsonTest {
    private static CentroidRelease release() {
        TreeMap<String, Double> params = new TreeMap<>();
        params.put("sum_noise_scale", 1e-7);
        params.put("count_noise_scale", Double.POSITIVE_INFINITY);
        return CentroidRelease.newBuilder(PublicationSerializerTest.centroids())
                .setWindowStart(Instant.ofEpochMilli(1_767_225_600_123L))
                .setCentroids(List.of(List.of(0.1, -2.0), List.of(Double.NaN, 3e300)))
                .setMechanismParams(params)
                .build();
    }

    @Test
    void rendersTheDocumentedFormAndReadsItBack() throws Exception {
        CentroidRelease r = release();
        byte[] json = AvroJson.toJson(r);
        JsonNode n = new ObjectMapper().readTree(json);
        assertEquals("schema_version", n.fieldNames().next(), "schema order, schema names");
        assertEquals("2026-01-01T00:00:00.123Z", n.get("window_start").asText());
        assertEquals("1970-01-01T00:00:00.010Z", n.get("window_end").asText());
        assertEquals("NaN", n.get("centroids").get(1).get(0).asText());
        assertEquals(3e300, n.get("centroids").get(1).get(1).asDouble());
        assertEquals(
                List.of("count_noise_scale", "sum_noise_scale"),
                List.copyOf(
                        new ObjectMapper()
                                .convertValue(n.get("mechanism_params"), TreeMap.class)
                                .keySet()));
        assertEquals("Infinity", n.get("mechanism_params").get("count_noise_scale").asText());
        assertEquals(r, AvroJson.fromJson(json, CentroidRelease.class));
        assertArrayEquals(json, AvroJson.toJson(AvroJson.fromJson(json, CentroidRelease.class)));
    }

    @Test
    void unionsBytesEnumsAndLongsRenderAsDocumented() throws Exception {
        RejectedRecord rej =
                RejectedRecord.newBuilder(PublicationSerializerTest.rejected(null))
                        .setSourceOffset(Long.MAX_VALUE)
                        .build();
        String s = new String(AvroJson.toJson(rej), StandardCharsets.UTF_8);
        assertTrue(s.contains("\"stream_id\":null"), s);
        assertTrue(s.contains("\"original\":\"AQI=\""), s);
        assertTrue(s.contains("\"source_offset\":9223372036854775807"), s);
        RejectedRecord back =
                AvroJson.fromJson(s.getBytes(StandardCharsets.UTF_8), RejectedRecord.class);
        assertEquals(rej, back);
        RejectedRecord withStream =
                RejectedRecord.newBuilder(rej)
                        .setStreamId("s")
                        .setEventTime(Instant.ofEpochMilli(5))
                        .setOriginal(ByteBuffer.wrap(new byte[0]))
                        .build();
        assertEquals(
                withStream, AvroJson.fromJson(AvroJson.toJson(withStream), RejectedRecord.class));

        BudgetStatus b =
                BudgetStatus.newBuilder()
                        .setStreamId("s")
                        .setKind(BudgetEventKind.MARKER)
                        .setSource("stream")
                        .setAlgorithm("stats")
                        .setWindowStart(Instant.EPOCH)
                        .setWindowEnd(Instant.EPOCH)
                        .setEpsilon(0)
                        .setWindowTotal(0)
                        .setSpent(0)
                        .setCap(1)
                        .setPeriodStart(Instant.EPOCH)
                        .setPeriodEnd(Instant.EPOCH)
                        .setPrivacyUnit("record")
                        .build();
        assertTrue(new String(AvroJson.toJson(b), StandardCharsets.UTF_8).contains("\"MARKER\""));
        assertEquals(b, AvroJson.fromJson(AvroJson.toJson(b), BudgetStatus.class));
    }

    @Test
    void missingFieldsTakeTheirDefaultsAndUnknownOnesAreIgnored() throws Exception {
        ObjectMapper m = new ObjectMapper();
        var tree =
                (com.fasterxml.jackson.databind.node.ObjectNode)
                        m.readTree(AvroJson.toJson(release()));
        tree.remove(List.of("rho", "accounting", "mechanism_params"));
        tree.put("a_field_of_a_newer_version", 1);
        CentroidRelease back = AvroJson.fromJson(m.writeValueAsBytes(tree), CentroidRelease.class);
        assertEquals(0.0, back.getRho());
        assertEquals("pure", back.getAccounting());
        assertTrue(back.getMechanismParams().isEmpty());
        assertEquals(release().getCentroids().get(0), back.getCentroids().get(0));
    }

    @Test
    void malformedJsonNamesTheProblem() {
        byte[] noStream = "{\"schema_version\":1}".getBytes(StandardCharsets.UTF_8);
        IOException e =
                assertThrows(
                        IOException.class,
                        () -> AvroJson.fromJson(noStream, CentroidRelease.class));
        assertTrue(e.getMessage().contains("missing field stream_id"), e.getMessage());
        String wrongType =
                new String(AvroJson.toJson(release()), StandardCharsets.UTF_8)
                        .replace("\"k\":1", "\"k\":\"one\"");
        e =
                assertThrows(
                        IOException.class,
                        () ->
                                AvroCodec.centroids()
                                        .decodePublished(
                                                wrongType.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().startsWith("k: expected an int"), e.getMessage());
        assertThrows(
                IOException.class,
                () ->
                        AvroCodec.centroids()
                                .decodePublished("{not json".getBytes(StandardCharsets.UTF_8)));
    }
}
