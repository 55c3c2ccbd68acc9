package org.dpclust.window;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A decoded, validated record whose features are already clamped into the stream's declared bounds.
 * Operator-side (private) data. {@code original} and the Kafka coordinates are kept only until the
 * lateness check (so a late record reaches the dead-letter topic unchanged) and are dropped before
 * keyBy. A Flink POJO.
 */
public class ValidRecord {
    public String streamId;
    public String deviceId;
    public long eventTime;

    /** The record's Kafka timestamp (Flink time) and whether it is the log append time. */
    public long appendTime;

    public boolean logAppendTime;

    public double[] features;
    public byte[] original;
    public String topic;
    public int partition;
    public long offset;

    public ValidRecord() {}

    /** Adds this record to a window's summaries (its identity only if they need it). */
    public void addTo(WindowSummaries w) {
        w.add(features, w.needsIdentity() ? identity() : null);
    }

    /** Identity bytes for keyed hashing: stream, device, event time and the exact feature bits. */
    public byte[] identity() {
        return identity(streamId, deviceId, eventTime, features);
    }

    /** The identity of a record with these fields (also of a kept record rebuilt from state). */
    public static byte[] identity(
            String streamId, String deviceId, long eventTime, double[] features) {
        byte[] s = streamId.getBytes(StandardCharsets.UTF_8);
        byte[] d = deviceId.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + s.length + d.length + 8 + 8 * features.length);
        b.putInt(s.length).put(s).putInt(d.length).put(d).putLong(eventTime);
        for (double f : features) {
            b.putLong(Double.doubleToRawLongBits(f));
        }
        return b.array();
    }
}
