package org.dpclust.io;

import java.io.IOException;
import java.util.List;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.kafka.RawRecordDeserializer;

/**
 * One Kafka record as it arrived, before validation: the bytes and where they came from, so that
 * anything rejected can go to the dead-letter topic unchanged, and — once {@link #decode decoded},
 * which the {@link RawRecordDeserializer} does for the event time anyway — the payload's fields, so
 * the payload is decoded once per record, not again by the validator. Decoding only reads the
 * bytes: {@code value} stays the original. Operator-side (private) data. A Flink POJO (public
 * fields, no-arg constructor).
 */
public class RawRecord {
    public byte[] value;

    /**
     * The Kafka record's key (null if it had none): a field mapping may read the stream id there.
     */
    public byte[] key;

    public String topic;
    public int partition;
    public long offset;

    /**
     * Event time read from the payload (it places the record in a window; it never moves the
     * watermark), or {@link Long#MIN_VALUE} if undecodable.
     */
    public long eventTime;

    /**
     * The Kafka record's timestamp: the broker's log append time on a topic with {@code
     * message.timestamp.type=LogAppendTime} (see {@link #logAppendTime}). Flink time is this.
     */
    public long appendTime;

    /**
     * Whether {@link #appendTime} is the broker's log append time (not a producer's CreateTime).
     */
    public boolean logAppendTime;

    /**
     * Whether this is a tick of the job's release clock ({@link org.dpclust.kafka.ClockTick}), not
     * telemetry: it moves its partition's watermark and is then dropped, never decoded, counted or
     * dead-lettered.
     */
    public boolean tick;

    /**
     * Whether {@link #decode} has run: then either the fields below are set or {@link #undecodable}
     * is.
     */
    public boolean decoded;

    /** Why the payload could not be decoded (null if it was, or if it was not tried). */
    public String undecodable;

    public String streamId;
    public String deviceId;

    /** The payload's features as decoded (not validated: any length, any value). */
    public double[] features;

    public RawRecord() {}

    public RawRecord(byte[] value, String topic, int partition, long offset) {
        this.value = value;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.eventTime = Long.MIN_VALUE;
    }

    /**
     * Decodes {@code value} into the fields (stream, device, event time, features) or, if the bytes
     * are not a telemetry record, records why in {@link #undecodable} (event time {@link
     * Long#MIN_VALUE}). Never throws.
     */
    public void decode(AvroCodec<TelemetryRecord> codec) {
        decoded = true;
        try {
            TelemetryRecord t = codec.decode(value);
            List<Double> f = t.getFeatures();
            double[] x = new double[f.size()];
            for (int j = 0; j < x.length; j++) {
                x[j] = f.get(j);
            }
            eventTime = t.getEventTime().toEpochMilli();
            streamId = t.getStreamId();
            deviceId = t.getDeviceId();
            features = x;
            undecodable = null;
        } catch (IOException | RuntimeException e) {
            eventTime = Long.MIN_VALUE;
            streamId = null;
            deviceId = null;
            features = null;
            undecodable = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
    }
}
