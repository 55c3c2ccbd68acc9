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
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.window.Rejections;
import org.dpclust.window.ValidRecord;
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
            var v = new RecordValidator(List.of(StreamTestRecords.spec("")));
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
            for (StreamRecord<Publication> r : h.getSideOutput(RecordValidator.DEAD_LETTERS)) {
                RejectedRecord rej =
                        AvroCodec.rejected().decode(StreamTestRecords.bytes(r.getValue()));
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
        var v = new RecordValidator(List.of(StreamTestRecords.spec("")));
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
}
