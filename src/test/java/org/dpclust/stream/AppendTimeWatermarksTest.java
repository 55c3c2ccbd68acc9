package org.dpclust.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.RawRecord;
import org.dpclust.window.EventTimePolicy;
import org.junit.jupiter.api.Test;

/**
 * Only records that count (and, with the release clock, its ticks) move a partition's append-time
 * watermark; payload times never do.
 */
class AppendTimeWatermarksTest {
    private static final StreamSpec S = StreamTestRecords.spec("");
    private static final EventTimePolicy P = new EventTimePolicy(0, Long.MAX_VALUE, 5_000, 1_000);

    private static RawRecord raw(String stream, long eventTime, long appendTime, double... x) {
        RawRecord r = new RawRecord();
        r.value = new byte[0];
        r.decoded = true;
        r.streamId = stream;
        r.deviceId = "d";
        r.eventTime = eventTime;
        r.appendTime = appendTime;
        r.logAppendTime = true;
        r.features = x;
        return r;
    }

    private static final class Out implements WatermarkOutput {
        final List<Long> marks = new ArrayList<>();

        @Override
        public void emitWatermark(Watermark w) {
            marks.add(w.getTimestamp());
        }

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }

    private static long watermarkAfter(List<RawRecord> records) {
        return watermarkAfter(records, true);
    }

    private static long watermarkAfter(List<RawRecord> records, boolean ticks) {
        AppendTimeWatermarks g = new AppendTimeWatermarks(List.of(S), P, 1_000, ticks);
        Out out = new Out();
        for (RawRecord r : records) {
            g.onEvent(r, r.appendTime, out);
        }
        g.onPeriodicEmit(out);
        return out.marks.get(out.marks.size() - 1);
    }

    @Test
    void theWatermarkIsTheLargestCountedAppendTimeMinusTheLag() {
        List<RawRecord> d =
                List.of(raw("s", 10_000, 10_500, 0.5, 0.5), raw("s", 11_000, 12_000, 0.5, 0.5));
        assertEquals(12_000 - 1_000 - 1, watermarkAfter(d));
    }

    @Test
    void recordsThatDoNotCountLeaveTheWatermarkWhereItWas() {
        List<RawRecord> d = new ArrayList<>(List.of(raw("s", 10_000, 10_500, 0.5, 0.5)));
        long expected = watermarkAfter(d);
        RawRecord undecodable = raw("s", 0, 90_000);
        undecodable.undecodable = "not avro";
        List<RawRecord> extras =
                List.of(
                        raw("s", 90_000 + 50_000, 90_000, 0.5, 0.5), // future
                        raw("s", 90_000 - 50_000, 90_000, 0.5, 0.5), // late
                        raw("nope", 90_000, 90_000, 0.5, 0.5), // unknown stream
                        raw("s", 90_000, 90_000, 0.5), // wrong dimension
                        raw("s", 90_000, 90_000, Double.NaN, 0.5), // non-finite
                        undecodable);
        for (RawRecord extra : extras) {
            List<RawRecord> dPrime = new ArrayList<>(d);
            dPrime.add(extra);
            assertEquals(expected, watermarkAfter(dPrime), "after " + extra.streamId);
        }
        RawRecord createTime = raw("s", 90_000, 90_000, 0.5, 0.5);
        createTime.logAppendTime = false;
        assertEquals(expected, watermarkAfter(List.of(d.get(0), createTime)));
        // a record the source has not decoded is decoded here, and counts like any other
        RawRecord bytes = new RawRecord(AvroCodec.telemetry().encode(telemetry()), "t", 0, 0);
        bytes.appendTime = 20_000;
        bytes.logAppendTime = true;
        assertEquals(20_000 - 1_000 - 1, watermarkAfter(List.of(d.get(0), bytes)));
    }

    private static RawRecord tick(long appendTime) {
        RawRecord t = new RawRecord(new byte[0], "t", 0, 0);
        t.tick = true;
        t.appendTime = appendTime;
        t.logAppendTime = true;
        return t;
    }

    /** With the release clock a tick moves the watermark like a record that counts, alone too. */
    @Test
    void aTickMovesTheWatermarkByItsAppendTimeWithTheClockOnly() {
        assertEquals(30_000 - 1_000 - 1, watermarkAfter(List.of(tick(30_000)), true));
        List<RawRecord> d = List.of(raw("s", 10_000, 10_500, 0.5, 0.5), tick(30_000));
        assertEquals(30_000 - 1_000 - 1, watermarkAfter(d, true));
        // without the clock (release_clock: records) a tick is nothing
        assertEquals(10_500 - 1_000 - 1, watermarkAfter(d, false));
        // a tick whose timestamp is not a log append time is nothing either
        RawRecord createTime = tick(40_000);
        createTime.logAppendTime = false;
        assertEquals(
                10_500 - 1_000 - 1,
                watermarkAfter(List.of(raw("s", 10_000, 10_500, 0.5, 0.5), createTime), true));
    }

    private static org.dpclust.avro.TelemetryRecord telemetry() {
        return org.dpclust.avro.TelemetryRecord.newBuilder()
                .setStreamId("s")
                .setDeviceId("d")
                .setEventTime(java.time.Instant.ofEpochMilli(19_000))
                .setFeatures(List.of(0.5, 0.5))
                .build();
    }
}
