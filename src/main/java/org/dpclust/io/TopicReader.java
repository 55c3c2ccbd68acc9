package org.dpclust.io;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@code read_committed} reader of a whole topic (all partitions, from the beginning, no consumer group):
 * what a downstream service sees of dpclust's exactly-once output. Aborted transactions are invisible.
 */
public final class TopicReader implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();

    public TopicReader(String bootstrapServers, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer = new KafkaConsumer<>(p);
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
        if (infos == null || infos.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic '" + topic + "' does not exist on " + bootstrapServers);
        }
        infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Delivers what arrives within {@code wait}; returns the number of records delivered. */
    public int poll(Duration wait, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        int n = 0;
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(wait)) {
            sink.accept(r);
            n++;
        }
        return n;
    }

    /** Whether every partition has been read up to its current last stable offset. */
    public boolean atEnd() {
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        for (TopicPartition tp : partitions) {
            if (consumer.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }

    /** Reads everything currently committed, up to the end offsets at call time. */
    public List<ConsumerRecord<byte[], byte[]>> readToEnd(Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        while (true) {
            boolean done = true;
            for (TopicPartition tp : partitions) {
                done &= consumer.position(tp) >= end.get(tp);
            }
            if (done) {
                return out;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out reading " + partitions + " to its end");
            }
            poll(Duration.ofMillis(200), out::add);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
