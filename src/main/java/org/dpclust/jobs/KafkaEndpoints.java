package org.dpclust.jobs;

import java.util.Map;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaSettings;
import org.dpclust.io.InputDecoders;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.PublicationSerializer;
import org.dpclust.kafka.RawRecordDeserializer;

/**
 * Builds the job's Kafka source and its single exactly-once sink from the configuration, both with
 * the user's client properties ({@link org.dpclust.config.KafkaConnection}).
 */
public final class KafkaEndpoints {
    private KafkaEndpoints() {}

    public static KafkaSource<RawRecord> source(DpclustConfig config) {
        return source(config, new RawRecordDeserializer(InputDecoders.of(config)));
    }

    /**
     * The source with another deserializer (tests inject failures through it). Flink's {@link
     * OffsetsInitializer#committedOffsets} still takes Kafka's deprecated {@code
     * OffsetResetStrategy} and has no replacement, hence the suppressed deprecation.
     */
    @SuppressWarnings("deprecation")
    public static KafkaSource<RawRecord> source(
            DpclustConfig config, KafkaRecordDeserializationSchema<RawRecord> deserializer) {
        KafkaSettings k = config.kafka();
        OffsetsInitializer start =
                switch (k.startingOffsets()) {
                    case "earliest" -> OffsetsInitializer.earliest();
                    case "latest" -> OffsetsInitializer.latest();
                    default -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
                };
        var b =
                KafkaSource.<RawRecord>builder()
                        .setProperties(k.connection().clientProperties(Map.of()))
                        .setBootstrapServers(k.bootstrapServers())
                        .setTopics(config.inputTopicNames())
                        .setGroupId(k.groupId())
                        .setStartingOffsets(start)
                        .setDeserializer(deserializer)
                        .setProperty("isolation.level", "read_committed");
        if (config.job().boundedInput()) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }

    public static KafkaSink<Publication> sink(DpclustConfig config) {
        KafkaSettings k = config.kafka();
        Properties p =
                k.connection()
                        .clientProperties(
                                Map.of(
                                        "transaction.timeout.ms",
                                        Long.toString(k.transactionTimeout().toMillis())));
        return KafkaSink.<Publication>builder()
                .setBootstrapServers(k.bootstrapServers())
                .setRecordSerializer(PublicationSerializer.of(config))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(k.transactionalIdPrefix())
                .setKafkaProducerConfig(p)
                .build();
    }
}
