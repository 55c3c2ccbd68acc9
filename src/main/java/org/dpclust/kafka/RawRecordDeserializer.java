package org.dpclust.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.RawRecord;

/**
 * Keeps the raw value, its coordinates and its Kafka timestamp (the broker's log append time, from
 * which the source generates watermarks per Kafka partition) and decodes the payload once ({@link
 * RawRecord#decode}): the decoded fields travel on to the validator, which does not decode again.
 * Never fails: a record that cannot be decoded passes with event time {@link Long#MIN_VALUE} and
 * its reason, and is routed to the dead-letter topic by the validator.
 */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
    private transient AvroCodec<TelemetryRecord> codec;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<RawRecord> out) {
        RawRecord raw =
                new RawRecord(
                        r.value() == null ? new byte[0] : r.value(),
                        r.topic(),
                        r.partition(),
                        r.offset());
        raw.appendTime = r.timestamp();
        raw.logAppendTime = r.timestampType() == TimestampType.LOG_APPEND_TIME;
        if (codec == null) {
            codec = AvroCodec.telemetry();
        }
        raw.decode(codec);
        out.collect(raw);
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}
