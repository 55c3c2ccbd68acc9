package org.dpclust.io;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Routes each {@link OutboundRecord} to its topic; the key decides the partition (stream id, or
 * ledger key).
 */
public final class OutboundSerializer implements KafkaRecordSerializationSchema<OutboundRecord> {
    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            OutboundRecord r, KafkaSinkContext context, Long timestamp) {
        return new ProducerRecord<>(r.topic, null, null, r.key, r.value);
    }
}
