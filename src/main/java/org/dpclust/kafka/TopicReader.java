package org.dpclust.kafka;

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
import org.dpclust.config.KafkaConnection;

/**
 * A {@code read_committed} reader of a whole topic (all partitions, from the beginning, no consumer
 * group): what a downstream service sees of dpclust's exactly-once output. Aborted transactions are
 * invisible.
 *
 * <p>"The end" is taken after in-flight transactions have settled: a producer's {@code
 * commitTransaction()} returns once the coordinator has logged the decision, and the commit markers
 * reach the partitions a little later, so right after a job has finished the last stable offset can
 * still lag behind its last transaction. {@link #readToEnd} and {@link #atEnd} therefore first wait
 * (briefly) until each partition's last stable offset has caught up with its high watermark.
 */
public final class TopicReader implements AutoCloseable {
    private static final Duration SETTLE = Duration.ofSeconds(10);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaConsumer<byte[], byte[]> uncommitted;
    private final List<TopicPartition> partitions = new ArrayList<>();

    /** A reader on a PLAINTEXT broker without client properties (the in-process one). */
    public TopicReader(String bootstrapServers, String topic) {
        this(KafkaConnection.plaintext(bootstrapServers), topic);
    }

    /** A reader connecting with {@code kafka}'s servers and client properties. */
    public TopicReader(KafkaConnection kafka, String topic) {
        Properties p =
                kafka.clientProperties(
                        Map.of(
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                                "read_committed",
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                "false",
                                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                                ByteArrayDeserializer.class.getName(),
                                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                                ByteArrayDeserializer.class.getName()));
        consumer = new KafkaConsumer<>(p);
        Properties hw = new Properties();
        hw.putAll(p);
        hw.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        uncommitted = new KafkaConsumer<>(hw);
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
        if (infos == null || infos.isEmpty()) {
            close();
            throw new IllegalStateException(
                    "topic '" + topic + "' does not exist on " + kafka.bootstrapServers());
        }
        infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads partition {@code partition} on from {@code offset} instead of its beginning. */
    public void seek(int partition, long offset) {
        for (TopicPartition tp : partitions) {
            if (tp.partition() == partition) {
                consumer.seek(tp, offset);
                return;
            }
        }
        throw new IllegalArgumentException("no partition " + partition + " in " + partitions);
    }

    /** The topic's partition count. */
    public int partitionCount() {
        return partitions.size();
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

    /**
     * Waits until no transaction is in flight on the topic (last stable offset = high watermark on
     * every partition), or until {@code timeout}; returns the last stable offsets then. A
     * transaction left open by a crashed producer keeps them apart until the broker aborts it; the
     * wait then ends at the timeout.
     */
    public Map<TopicPartition, Long> settledEndOffsets(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<TopicPartition, Long> stable = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> high = uncommitted.endOffsets(partitions);
            if (stable.equals(high) || System.nanoTime() > deadline) {
                return stable;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return stable;
            }
        }
    }

    /** Whether every partition has been read up to its (settled) last stable offset. */
    public boolean atEnd() {
        Map<TopicPartition, Long> end = settledEndOffsets(SETTLE);
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
        readToEnd(timeout, out::add);
        return out;
    }

    /**
     * Delivers everything currently committed, up to the end offsets at call time, to {@code sink}
     * as it is read (nothing is held); returns the number of records delivered.
     */
    public long readToEnd(Duration timeout, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> end =
                settledEndOffsets(timeout.compareTo(SETTLE) < 0 ? timeout : SETTLE);
        long n = 0;
        while (true) {
            boolean done = true;
            for (TopicPartition tp : partitions) {
                done &= consumer.position(tp) >= end.get(tp);
            }
            if (done) {
                return n;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out reading " + partitions + " to its end");
            }
            n += poll(Duration.ofMillis(200), sink);
        }
    }

    @Override
    public void close() {
        consumer.close();
        uncommitted.close();
    }
}
