package org.dpclust.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.RawRecord;
import org.junit.jupiter.api.Test;

/** The source's deserializer decodes each payload once and keeps the original bytes. */
class RawRecordDeserializerTest {
    private static RawRecord deserialized(byte[] value) {
        List<RawRecord> out = new ArrayList<>();
        new RawRecordDeserializer()
                .deserialize(
                        new ConsumerRecord<>("in", 2, 7, null, value), new ListCollector<>(out));
        assertEquals(1, out.size());
        return out.get(0);
    }

    /** A valid single-object telemetry record: stream s, device d, event time 5, (0.5, 0.25). */
    private static byte[] goodRecord() {
        return AvroCodec.telemetry()
                .encode(
                        TelemetryRecord.newBuilder()
                                .setStreamId("s")
                                .setDeviceId("d")
                                .setEventTime(Instant.ofEpochMilli(5))
                                .setFeatures(List.of(0.5, 0.25))
                                .build());
    }

    @Test
    void aTelemetryRecordIsDecodedOnceWithItsBytesAndCoordinates() {
        byte[] good = goodRecord();
        RawRecord r = deserialized(good);
        assertTrue(r.decoded);
        assertNull(r.undecodable);
        assertEquals("s", r.streamId);
        assertEquals("d", r.deviceId);
        assertEquals(5L, r.eventTime);
        assertArrayEquals(new double[] {0.5, 0.25}, r.features, 0.0);
        assertArrayEquals(good, r.value);
        assertEquals("in", r.topic);
        assertEquals(2, r.partition);
        assertEquals(7L, r.offset);
    }

    @Test
    void aTickPassesUndecodedMarkedAsATick() {
        var tick = ClockTick.to("in", 3);
        List<RawRecord> out = new ArrayList<>();
        new RawRecordDeserializer()
                .deserialize(
                        new ConsumerRecord<>(
                                "in",
                                3,
                                9,
                                1_000L,
                                org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME,
                                0,
                                0,
                                tick.key(),
                                tick.value(),
                                tick.headers(),
                                java.util.Optional.empty()),
                        new ListCollector<>(out));
        RawRecord r = out.get(0);
        assertTrue(r.tick);
        assertTrue(r.logAppendTime);
        assertEquals(1_000L, r.appendTime);
        assertEquals(false, r.decoded, "never decoded: it is not telemetry");
        assertEquals(false, deserialized("garbage".getBytes()).tick);
    }

    /**
     * Adversarial: a record carrying the tick header but a payload (a producer copying headers, or
     * forging the clock's) is telemetry, not a tick: valid, it is decoded and counts; invalid, it
     * keeps its reason for the dead-letter topic. Only an empty record with the header is a tick.
     */
    @Test
    void aRecordWithTheTickHeaderAndAPayloadIsTelemetryNotATick() {
        var header = ClockTick.to("in", 0).headers();
        byte[] good = goodRecord();
        RawRecord valid = withHeaders(good, header);
        assertEquals(false, valid.tick);
        assertTrue(valid.decoded);
        assertNull(valid.undecodable);
        assertEquals("s", valid.streamId);
        RawRecord garbage = withHeaders("garbage".getBytes(), header);
        assertEquals(false, garbage.tick);
        assertTrue(garbage.undecodable.startsWith("not Avro single-object encoding"));
        assertTrue(withHeaders(new byte[0], header).tick);
        assertTrue(withHeaders(null, header).tick);
    }

    private static RawRecord withHeaders(
            byte[] value, org.apache.kafka.common.header.Headers headers) {
        List<RawRecord> out = new ArrayList<>();
        new RawRecordDeserializer()
                .deserialize(
                        new ConsumerRecord<>(
                                "in",
                                0,
                                1,
                                1_000L,
                                org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME,
                                0,
                                value == null ? 0 : value.length,
                                null,
                                value,
                                headers,
                                java.util.Optional.empty()),
                        new ListCollector<>(out));
        return out.get(0);
    }

    @Test
    void undecodableBytesPassWithTheirReasonAndNoEventTime() {
        RawRecord bad = deserialized("garbage".getBytes());
        assertTrue(bad.decoded);
        assertEquals(
                Long.MIN_VALUE,
                bad.eventTime,
                "no event time: the validator routes it to the dead letters");
        assertTrue(bad.undecodable.startsWith("not Avro single-object encoding"), bad.undecodable);
        assertNull(bad.features);
        assertArrayEquals(
                "garbage".getBytes(), bad.value, "original bytes kept for the dead-letter topic");
        RawRecord empty = deserialized(null);
        assertTrue(empty.undecodable != null);
        assertArrayEquals(new byte[0], empty.value);
    }

    @Test
    void theKafkaTimestampAndWhetherItIsTheLogAppendTimeAreKept() {
        byte[] value = "x".getBytes();
        for (var type : org.apache.kafka.common.record.TimestampType.values()) {
            List<RawRecord> out = new ArrayList<>();
            new RawRecordDeserializer()
                    .deserialize(
                            new ConsumerRecord<>(
                                    "in",
                                    0,
                                    1,
                                    1_234L,
                                    type,
                                    0,
                                    value.length,
                                    null,
                                    value,
                                    new org.apache.kafka.common.header.internals.RecordHeaders(),
                                    java.util.Optional.empty()),
                            new ListCollector<>(out));
            assertEquals(1_234L, out.get(0).appendTime);
            assertEquals(
                    type == org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME,
                    out.get(0).logAppendTime,
                    type.toString());
        }
    }
}
