package org.dpclust.io;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;

/**
 * Reads the compacted budget topic from the beginning to its end offsets ({@code read_committed}) and
 * returns the latest charged total per (stream, interval). Start-up fails with an exception if the topic
 * cannot be read: a job that does not know its past spend must not release anything.
 */
public final class BudgetTopicReader {
    private BudgetTopicReader() {}

    /** stream id → (interval key "start:end" → total epsilon). */
    public static Map<String, Map<String, Double>> read(String bootstrapServers, String topic, Duration timeout) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        AvroCodec<BudgetStatus> codec = AvroCodec.budget();
        Map<String, Map<String, Double>> out = new HashMap<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<PartitionInfo> infos = c.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("budget topic '" + topic + "' does not exist on " + bootstrapServers
                        + "; create it (compacted) or run `dpclust stream --create-topics`");
            }
            List<TopicPartition> parts = new ArrayList<>();
            infos.forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, timeout);
            while (!reached(c, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out reading budget topic '" + topic + "' to its end");
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    BudgetStatus s;
                    try {
                        s = codec.decode(r.value());
                    } catch (IOException e) {
                        throw new IllegalStateException("unreadable ledger entry at " + topic + "/" + r.partition()
                                + "@" + r.offset() + ": " + e.getMessage(), e);
                    }
                    if (s.getKind() == BudgetEventKind.CHARGE) {
                        out.computeIfAbsent(s.getStreamId(), x -> new HashMap<>())
                                .put(s.getWindowStart().toEpochMilli() + ":" + s.getWindowEnd().toEpochMilli(),
                                        s.getWindowTotal());
                    }
                }
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException("cannot read budget topic '" + topic + "': " + e.getMessage(), e);
        }
        return out;
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> c, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (c.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
