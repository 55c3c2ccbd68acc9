package org.dpclust.ledger;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.KafkaConnection;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;

/**
 * Reads the compacted budget topic from the beginning to its end offsets ({@code read_committed},
 * via {@link TopicReader}) and returns the latest charged total per (stream, interval). Start-up
 * fails with an exception if the topic cannot be read: a job that does not know its past spend must
 * not release anything.
 */
public final class BudgetTopicReader {
    private BudgetTopicReader() {}

    /** stream id → (interval key "start:end" → total epsilon). */
    public static Map<String, Map<String, Double>> read(
            String bootstrapServers, String topic, Duration timeout) {
        return read(KafkaConnection.plaintext(bootstrapServers), topic, timeout);
    }

    /** {@link #read(String, String, Duration)} connecting with {@code kafka}'s properties. */
    public static Map<String, Map<String, Double>> read(
            KafkaConnection kafka, String topic, Duration timeout) {
        AvroCodec<BudgetStatus> codec = AvroCodec.budget();
        Map<String, Map<String, Double>> out = new HashMap<>();
        try (TopicReader reader = new TopicReader(kafka, topic)) {
            for (ConsumerRecord<byte[], byte[]> r : reader.readToEnd(timeout)) {
                BudgetStatus s;
                try {
                    s = codec.decode(r.value());
                } catch (IOException e) {
                    throw new IllegalStateException(
                            "unreadable ledger entry at "
                                    + topic
                                    + "/"
                                    + r.partition()
                                    + "@"
                                    + r.offset()
                                    + ": "
                                    + e.getMessage(),
                            e);
                }
                if (s.getKind() == BudgetEventKind.CHARGE) {
                    out.computeIfAbsent(s.getStreamId(), x -> new HashMap<>())
                            .put(
                                    s.getWindowStart().toEpochMilli()
                                            + ":"
                                            + s.getWindowEnd().toEpochMilli(),
                                    s.getWindowTotal());
                }
            }
        } catch (KafkaException e) {
            throw new IllegalStateException(
                    "cannot read budget topic '" + topic + "': " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    "cannot read budget topic '"
                            + topic
                            + "' (create it compacted, or run "
                            + "`dpclust stream --create-topics`): "
                            + e.getMessage(),
                    e);
        }
        return out;
    }
}
