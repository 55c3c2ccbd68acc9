package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.dpclust.config.FieldMapping;
import org.dpclust.config.FieldMapping.Source;
import org.junit.jupiter.api.Test;

class JsonRecordDecoderTest {
    private static final FieldMapping USER =
            new FieldMapping(
                    Source.field("site"),
                    Source.field("host.id"),
                    Source.field("ts"),
                    "iso",
                    List.of("cpu", "net.rx", "disks.1"),
                    null);

    private static RawRecord decode(FieldMapping m, String json) {
        return decode(m, json.getBytes(StandardCharsets.UTF_8), null);
    }

    private static RawRecord decode(FieldMapping m, byte[] value, String key) {
        RawRecord r = new RawRecord(value, "t", 0, 7);
        r.appendTime = 1_000;
        r.key = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        new JsonRecordDecoder(m).decode(r);
        assertTrue(r.decoded);
        return r;
    }

    private static String problem(FieldMapping m, String json) {
        RawRecord r = decode(m, json);
        assertNotNull(r.undecodable, "refused: " + json);
        assertNull(r.features);
        assertEquals(Long.MIN_VALUE, r.eventTime);
        assertTrue(!r.undecodable.contains("\n"), "one line: " + r.undecodable);
        return r.undecodable;
    }

    @Test
    void readsDpclustsOwnShapeWithTheDefaultMapping() {
        RawRecord r =
                decode(
                        FieldMapping.DEFAULT_JSON,
                        "{\"stream_id\":\"s\",\"device_id\":\"d\",\"event_time\":12345,"
                                + "\"features\":[0.25,1,-3e-2]}");
        assertNull(r.undecodable);
        assertEquals("s", r.streamId);
        assertEquals("d", r.deviceId);
        assertEquals(12345, r.eventTime);
        assertArrayEquals(new double[] {0.25, 1, -0.03}, r.features);
    }

    @Test
    void readsAUserShapeByPathsInTheDeclaredOrder() {
        RawRecord r =
                decode(
                        USER,
                        "{\"ts\":\"2026-11-28T10:00:00.250Z\",\"site\":\"berlin\",\"host\":{\"id\":42},"
                                + "\"net\":{\"rx\":7.5},\"cpu\":0.5,\"disks\":[9,8,7],\"extra\":\"x\"}");
        assertNull(r.undecodable, r.undecodable);
        assertEquals("berlin", r.streamId);
        assertEquals("42", r.deviceId, "an integer id reads as its digits");
        assertEquals(Instant.parse("2026-11-28T10:00:00.250Z").toEpochMilli(), r.eventTime);
        assertArrayEquals(new double[] {0.5, 7.5, 8}, r.features);
    }

    @Test
    void keyConstantSecondsAndAppendTime() {
        FieldMapping byKey =
                new FieldMapping(
                        new Source(Source.Kind.KEY, ""),
                        new Source(Source.Kind.CONSTANT, "fleet"),
                        Source.field("t"),
                        "seconds",
                        List.of(),
                        "v");
        RawRecord r =
                decode(byKey, "{\"t\":12.5,\"v\":[1,2]}".getBytes(StandardCharsets.UTF_8), "k1");
        assertNull(r.undecodable, r.undecodable);
        assertEquals("k1", r.streamId);
        assertEquals("fleet", r.deviceId);
        assertEquals(12_500, r.eventTime);
        assertTrue(
                decode(byKey, "{\"t\":1,\"v\":[1]}".getBytes(StandardCharsets.UTF_8), null)
                        .undecodable
                        .contains("record key"));
        FieldMapping noTime =
                new FieldMapping(Source.field("s"), null, null, "millis", List.of("x"), null);
        RawRecord a = decode(noTime, "{\"s\":\"a\",\"x\":3}");
        assertEquals(1_000, a.eventTime, "without an event-time field: the append time");
        assertEquals("", a.deviceId, "without a device field: one device per stream");
    }

    @Test
    void aKeyTwiceOnAMappedPathIsRefusedAndElsewhereSkipped() {
        String host = "\"host\":{\"id\":\"h\"}";
        String ok =
                "{\"site\":\"a\","
                        + host
                        + ",\"ts\":\"1970-01-01T00:00:01Z\",\"cpu\":1,"
                        + "\"net\":{\"rx\":2},\"disks\":[0,3],\"tags\":{\"k\":1}}";
        assertNull(decode(USER, ok).undecodable);
        assertEquals(
                "json: field 'host' appears twice",
                problem(USER, ok.replace(host, host + ",\"host\":{\"name\":\"x\"}")),
                "an object on a mapped path, even if the second holds no mapped field");
        assertEquals(
                "json: field 'net.rx' appears twice",
                problem(USER, ok.replace("{\"rx\":2}", "{\"rx\":2,\"rx\":5}")));
        RawRecord r = decode(USER, ok.replace("{\"k\":1}", "{\"k\":1,\"k\":2}"));
        assertNull(r.undecodable, "a key twice where the mapping reads nothing is skipped");
        assertArrayEquals(new double[] {1, 2, 3}, r.features);
    }

    @Test
    void everyHostileShapeIsRefusedNamingWhatIsWrong() {
        FieldMapping d = FieldMapping.DEFAULT_JSON;
        String ok = "{\"stream_id\":\"s\",\"device_id\":\"d\",\"event_time\":1,\"features\":[1,2]}";
        assertTrue(problem(d, ok.substring(0, 30)).startsWith("json: malformed"), "truncated");
        assertTrue(problem(d, "[1,2]").contains("not a JSON object"));
        assertTrue(problem(d, "42").contains("not a JSON object"));
        assertTrue(problem(d, "").contains("not a JSON object"), "empty value");
        assertTrue(
                problem(d, ok.replace("\"device_id\":\"d\",", ""))
                        .contains("'device_id' is missing"));
        assertTrue(
                problem(d, ok.replace("[1,2]", "[1,\"2\"]"))
                        .contains("'features[1]' is a string, expected a number"));
        assertTrue(problem(d, ok.replace("[1,2]", "[1,NaN]")).startsWith("json: malformed"));
        assertTrue(problem(d, ok.replace("[1,2]", "[1,true]")).contains("a boolean"));
        assertTrue(problem(d, ok.replace("[1,2]", "{\"a\":1}")).contains("not an array"));
        assertTrue(
                problem(d, ok.replace("1,\"features\"", "\"x\",\"features\"")).contains("epoch"));
        assertTrue(problem(d, ok.replace("\"s\"", "[\"s\"]")).contains("not a string"));
        assertTrue(problem(d, ok.replace("\"s\"", "\"\"")).contains("is empty"));
        assertTrue(
                problem(d, ok.replace("{\"stream_id\"", "{\"features\":[0],\"stream_id\""))
                        .contains("field 'features' appears twice"),
                "a duplicated field is refused, not read as one of its values");
        assertTrue(problem(d, ok + " {}").contains("content after the object"), "trailing");
        assertTrue(
                problem(d, ok.replace("}", ",\"x\":" + "[".repeat(80) + "]".repeat(80) + "}"))
                        .startsWith("json: malformed"),
                "nesting deeper than 64 in a field the mapping does not read");
        String deep = "{\"a\":".repeat(100) + "1" + "}".repeat(100);
        assertTrue(problem(d, deep).startsWith("json: malformed"), "nesting deeper than 64");
        byte[] bad = ok.replace("\"d\"", "\"dX\"").getBytes(StandardCharsets.UTF_8);
        bad[ok.indexOf("dX") + 1] = (byte) 0xC3; // a lead byte followed by '"': invalid UTF-8
        RawRecord r = decode(d, bad, null);
        assertTrue(r.undecodable.startsWith("json: malformed"), r.undecodable);
    }

    @Test
    void valuesTheValidatorJudgesPassThrough() {
        FieldMapping d = FieldMapping.DEFAULT_JSON;
        StringBuilder big =
                new StringBuilder(
                        "{\"stream_id\":\"s\",\"device_id\":\"d\",\"event_time\":1,\"features\":[");
        for (int i = 0; i < 50_000; i++) {
            big.append(i == 0 ? "" : ",").append(i % 7);
        }
        RawRecord r = decode(d, big.append("]}").toString());
        assertNull(r.undecodable);
        assertEquals(50_000, r.features.length, "the validator refuses the dimension");
        RawRecord inf =
                decode(
                        d,
                        "{\"stream_id\":\"s\",\"device_id\":\"d\",\"event_time\":1,\"features\":[1e400,0]}");
        assertNull(inf.undecodable);
        assertEquals(Double.POSITIVE_INFINITY, inf.features[0], "refused as non_finite later");
    }
}
