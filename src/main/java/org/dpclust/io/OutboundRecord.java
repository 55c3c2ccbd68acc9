package org.dpclust.io;

/**
 * One record for the single exactly-once sink: topic, key and value bytes. Releases, budget entries
 * and dead letters of a checkpoint are committed in the same Kafka transactions. A Flink POJO.
 */
public class OutboundRecord {
    public String topic;
    public byte[] key;
    public byte[] value;

    public OutboundRecord() {}

    public OutboundRecord(String topic, byte[] key, byte[] value) {
        this.topic = topic;
        this.key = key;
        this.value = value;
    }
}
