package org.dpclust.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.OutboundRecord;
import org.dpclust.io.RawRecord;
import org.dpclust.io.RawRecordDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Dead-letter routing: every bad record reaches the dead-letter output with its reason and original
 * bytes.
 */
class RecordValidatorTest {
    private static byte[] telemetry(String stream, double... f) {
        List<Double> l = new ArrayList<>();
        for (double x : f) {
            l.add(x);
        }
        return AvroCodec.telemetry()
                .encode(
                        TelemetryRecord.newBuilder()
                                .setStreamId(stream)
                                .setDeviceId("d")
                                .setEventTime(Instant.ofEpochMilli(5))
                                .setFeatures(l)
                                .build());
    }

    /** The record as the Kafka source hands it on: decoded once by the deserializer. */
    private static RawRecord deserialized(byte[] value, long offset) {
        List<RawRecord> out = new ArrayList<>();
        new RawRecordDeserializer()
                .deserialize(
                        new ConsumerRecord<>("in", 0, offset, null, value),
                        new ListCollector<>(out));
        assertEquals(1, out.size());
        return out.get(0);
    }

    @Test
    void routesBadRecordsWithReasonsAndClampsTheRest() throws Exception {
        for (boolean decodedUpstream : new boolean[] {true, false}) {
            var v = new RecordValidator(List.of(StreamTestRecords.spec("")), StreamTestRecords.DLQ);
            OneInputStreamOperatorTestHarness<RawRecord, ValidRecord> h =
                    ProcessFunctionTestHarnesses.forProcessFunction(v);
            byte[][] inputs = {
                telemetry("s", 0.5, 0.5),
                "garbage".getBytes(),
                telemetry("s", 0.5),
                telemetry("s", 0.5, Double.NaN),
                telemetry("other", 0.5, 0.5),
                telemetry("s", 7.0, -3.0),
            };
            for (int i = 0; i < inputs.length; i++) {
                h.processElement(
                        decodedUpstream
                                ? deserialized(inputs[i], i)
                                : new RawRecord(inputs[i], "in", 0, i),
                        0);
            }
            List<ValidRecord> ok = h.extractOutputValues();
            assertEquals(2, ok.size());
            assertArrayEquals(
                    new double[] {1.0, 0.0}, ok.get(1).features, 0.0, "clamped into the bounds");
            assertEquals(5L, ok.get(1).eventTime);
            assertEquals("d", ok.get(1).deviceId);
            Map<Long, String> reasons = new TreeMap<>();
            for (StreamRecord<OutboundRecord> r : h.getSideOutput(RecordValidator.DEAD_LETTERS)) {
                RejectedRecord rej = AvroCodec.rejected().decode(r.getValue().value);
                reasons.put(rej.getSourceOffset(), rej.getReason());
                byte[] original = new byte[rej.getOriginal().remaining()];
                rej.getOriginal().duplicate().get(original);
                assertArrayEquals(
                        inputs[(int) rej.getSourceOffset()], original, "original bytes kept");
                if (rej.getReason().equals(Rejections.UNDECODABLE)) {
                    assertTrue(
                            rej.getDetail().startsWith("not Avro single-object encoding"),
                            rej.getDetail());
                }
            }
            assertEquals(
                    Map.of(
                            1L,
                            Rejections.UNDECODABLE,
                            2L,
                            Rejections.WRONG_DIMENSION,
                            3L,
                            Rejections.NON_FINITE,
                            4L,
                            Rejections.UNKNOWN_STREAM),
                    reasons);
            h.close();
        }
    }

    @Test
    void theValidatorUsesTheDecodedFieldsAndDoesNotDecodeAgain() throws Exception {
        var v = new RecordValidator(List.of(StreamTestRecords.spec("")), StreamTestRecords.DLQ);
        OneInputStreamOperatorTestHarness<RawRecord, ValidRecord> h =
                ProcessFunctionTestHarnesses.forProcessFunction(v);
        RawRecord r = deserialized(telemetry("s", 0.5, 0.5), 0);
        r.features =
                new double[] {
                    0.125, 0.75
                }; // differs from the bytes: only a second decode would see 0.5
        h.processElement(r, 0);
        assertArrayEquals(new double[] {0.125, 0.75}, h.extractOutputValues().get(0).features, 0.0);
        h.close();
    }

    @Test
    void recordsBehindTheWatermarkAreLate() throws Exception {
        var f =
                new LatenessFilter(
                        List.of(StreamTestRecords.spec("")),
                        StreamTestRecords.policy(3),
                        StreamTestRecords.DLQ);
        OneInputStreamOperatorTestHarness<ValidRecord, ValidRecord> h =
                ProcessFunctionTestHarnesses.forProcessFunction(f);
        ValidRecord early = StreamTestRecords.record("d", 9_000, 0.1, 0.1);
        early.original = new byte[] {1};
        h.processElement(early, early.eventTime);
        h.processWatermark(9_999); // window [0, 10s) is closed
        ValidRecord late = StreamTestRecords.record("d", 9_500, 0.1, 0.1);
        late.original = new byte[] {2};
        h.processElement(late, late.eventTime);
        ValidRecord next = StreamTestRecords.record("d", 10_000, 0.1, 0.1);
        next.original = new byte[] {3};
        h.processElement(next, next.eventTime);
        assertEquals(2, h.extractOutputValues().size());
        var lateOut = new ArrayList<>(h.getSideOutput(LatenessFilter.LATE));
        assertEquals(1, lateOut.size());
        RejectedRecord rej = AvroCodec.rejected().decode(lateOut.get(0).getValue().value);
        assertEquals(Rejections.LATE, rej.getReason());
        assertEquals(9_500L, rej.getEventTime().toEpochMilli());
        h.close();
    }

    @Test
    void recordsOutsideTheBoundsOfTheirOwnAppendTimeAreDeadLetteredWithTheReason()
            throws Exception {
        var f =
                new LatenessFilter(
                        List.of(StreamTestRecords.spec("")),
                        new EventTimePolicy(0, 100_000, 1_000, 1_000),
                        StreamTestRecords.DLQ);
        OneInputStreamOperatorTestHarness<ValidRecord, ValidRecord> h =
                ProcessFunctionTestHarnesses.forProcessFunction(f);
        long[][] cases = { // event time, append time
            {5_000, 5_500}, {5_000, 6_001}, {8_000, 6_999}, {150_000, 150_000}, {5_000, 5_000}
        };
        for (long[] c : cases) {
            ValidRecord r = StreamTestRecords.record("d", c[0], 0.1, 0.1);
            r.appendTime = c[1];
            r.original = new byte[] {(byte) c[0]};
            h.processElement(r, r.appendTime);
        }
        ValidRecord createTime = StreamTestRecords.record("d", 5_000, 0.1, 0.1);
        createTime.logAppendTime = false;
        createTime.original = new byte[0];
        h.processElement(createTime, 5_000);
        assertEquals(2, h.extractOutputValues().size(), "the first and the fifth count");
        List<String> reasons = new ArrayList<>();
        for (var o : h.getSideOutput(LatenessFilter.LATE)) {
            reasons.add(AvroCodec.rejected().decode(o.getValue().value).getReason());
        }
        assertEquals(
                List.of(
                        Rejections.LATE,
                        Rejections.FUTURE,
                        Rejections.AFTER_END,
                        Rejections.NOT_APPEND_TIME),
                reasons);
        h.close();
    }
}
