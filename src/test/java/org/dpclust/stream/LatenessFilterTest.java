package org.dpclust.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.io.AvroCodec;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.Rejections;
import org.dpclust.window.ValidRecord;
import org.junit.jupiter.api.Test;

/**
 * Per-record inclusion: a record outside the bounds of its own append time, or whose window is not
 * scheduled, is a dead letter with that reason; with lateness 0 (the test policy), a record whose
 * window the watermark has closed is a {@code late} dead letter too.
 */
class LatenessFilterTest {
    private static OneInputStreamOperatorTestHarness<ValidRecord, ValidRecord> harness()
            throws Exception {
        return ProcessFunctionTestHarnesses.forProcessFunction(
                new LatenessFilter(
                        List.of(StreamTestRecords.spec("")), StreamTestRecords.policy(3)));
    }

    private static ValidRecord record(long t, int original) {
        ValidRecord r = StreamTestRecords.record("d", t, 0.1, 0.1);
        r.original = new byte[] {(byte) original};
        r.topic = "in";
        r.partition = 3;
        r.offset = 42;
        return r;
    }

    @Test
    void recordsBehindTheWatermarkAreLate() throws Exception {
        var h = harness();
        h.processElement(record(9_000, 1), 9_000);
        h.processWatermark(9_999); // window [0, 10s) is closed
        h.processElement(record(9_500, 2), 9_500);
        h.processElement(record(10_000, 3), 10_000);
        assertEquals(2, h.extractOutputValues().size());
        var lateOut = new ArrayList<>(h.getSideOutput(LatenessFilter.LATE));
        assertEquals(1, lateOut.size());
        RejectedRecord rej =
                AvroCodec.rejected().decode(StreamTestRecords.bytes(lateOut.get(0).getValue()));
        assertEquals(Rejections.LATE, rej.getReason());
        assertEquals(9_500L, rej.getEventTime().toEpochMilli());
        assertArrayEquals(new byte[] {2}, rej.getOriginal().array(), "the original bytes");
        assertEquals("in", rej.getSourceTopic());
        assertEquals(3, rej.getSourcePartition());
        assertEquals(42, rej.getSourceOffset());
        h.close();
    }

    @Test
    void theLastMillisecondOfAnOpenWindowIsOnTime() throws Exception {
        var h = harness();
        h.processWatermark(9_998); // window [0, 10s) still open: its last millisecond is 9 999
        h.processElement(record(9_999, 1), 9_999);
        assertEquals(1, h.extractOutputValues().size());
        assertNull(h.getSideOutput(LatenessFilter.LATE), "nothing is late");
        h.close();
    }

    @Test
    void recordsThatPassLeaveTheirOriginalBytesAndCoordinatesBehind() throws Exception {
        var h = harness();
        h.processElement(record(5, 1), 5);
        ValidRecord out = h.extractOutputValues().get(0);
        assertNull(out.original, "the original bytes do not travel past the filter");
        assertNull(out.topic);
        h.close();
    }

    @Test
    void recordsOutsideTheBoundsOfTheirOwnAppendTimeAreDeadLetteredWithTheReason()
            throws Exception {
        var f =
                new LatenessFilter(
                        List.of(StreamTestRecords.spec("")),
                        new EventTimePolicy(0, 100_000, 1_000, 1_000));
        OneInputStreamOperatorTestHarness<ValidRecord, ValidRecord> h =
                ProcessFunctionTestHarnesses.forProcessFunction(f);
        long[][] cases = { // event time, append time
            {5_000, 5_500}, {5_000, 6_001}, {8_000, 6_999}, {150_000, 150_000}, {5_000, 5_000}
        };
        for (long[] c : cases) {
            ValidRecord r = record(c[0], (int) c[0]);
            r.appendTime = c[1];
            h.processElement(r, r.appendTime);
        }
        ValidRecord createTime = record(5_000, 0);
        createTime.logAppendTime = false;
        h.processElement(createTime, 5_000);
        assertEquals(2, h.extractOutputValues().size(), "the first and the fifth count");
        List<String> reasons = new ArrayList<>();
        for (var o : h.getSideOutput(LatenessFilter.LATE)) {
            reasons.add(
                    AvroCodec.rejected().decode(StreamTestRecords.bytes(o.getValue())).getReason());
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
