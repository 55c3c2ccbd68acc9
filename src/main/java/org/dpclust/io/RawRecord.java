package org.dpclust.io;

/**
 * One Kafka record as it arrived, before validation: the bytes and where they came from, so that anything
 * rejected can go to the dead-letter topic unchanged. A Flink POJO (public fields, no-arg constructor).
 */
public class RawRecord {
    public byte[] value;
    public String topic;
    public int partition;
    public long offset;
    /** Event time read from the payload for watermarking, or {@link Long#MIN_VALUE} if undecodable. */
    public long eventTime;

    public RawRecord() {}

    public RawRecord(byte[] value, String topic, int partition, long offset) {
        this.value = value;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.eventTime = Long.MIN_VALUE;
    }
}
