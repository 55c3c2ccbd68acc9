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
import org.junit.jupiter.api.Test;

/** Allowed lateness 0: a record whose window the watermark has closed is a dead letter. */
class LatenessFilterTest {
    private static OneInputStreamOperatorTestHarness<ValidRecord, ValidRecord> harness()
            throws Exception {
        return ProcessFunctionTestHarnesses.forProcessFunction(
                new LatenessFilter(List.of(StreamTestRecords.spec(""))));
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
}
