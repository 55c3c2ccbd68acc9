package org.dpclust.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.dpclust.io.InputDecoders;
import org.dpclust.io.RawRecord;

/**
 * Keeps the raw value, its coordinates and its Kafka timestamp (the broker's log append time, from
 * which the source generates watermarks per Kafka partition) and decodes the payload once ({@link
 * RawRecord#decode}, or its topic's {@link InputDecoders decoder}): the decoded fields travel on to
 * the validator, which does not decode again. A record that cannot be decoded passes with event
 * time {@link Long#MIN_VALUE} and its reason, and is routed to the dead-letter topic by the
 * validator; only an unreachable schema registry fails (the job restarts and reads it again). A
 * {@link ClockTick} passes undecoded, marked {@link RawRecord#tick}.
 */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
    private final InputDecoders decoders;

    /** dpclust's own Avro records on every topic. */
    public RawRecordDeserializer() {
        this(InputDecoders.avro());
    }

    /** Each topic decoded in its configured format ({@code kafka.inputs}). */
    public RawRecordDeserializer(InputDecoders decoders) {
        this.decoders = decoders;
    }

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
        raw.key = r.key();
        if (ClockTick.isTick(r.headers(), r.value())) {
            raw.tick = true; // the release clock's: moves time, never decoded
            out.collect(raw);
            return;
        }
        decoders.decode(raw);
        out.collect(raw);
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}
