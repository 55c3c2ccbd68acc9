package org.dpclust.kafka;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release clock's writer (docs/event-time.md#the-release-clock): each element it receives (one
 * per {@code job.tick_interval}, from a rate-limited generator) appends a {@link ClockTick} to
 * every partition of every input topic, partitions as the producer's metadata knows them (new
 * partitions are picked up). Ticks need no exactly-once: a tick only says "the broker's clock has
 * passed this append time here", so duplicates and gaps only change how soon a window closes, never
 * what it counts. A failed send is logged (at most once a minute) and the next tick catches up; if
 * ticks stop, releases wait (the watermark never passes unread ticks), they are never released
 * early. One producer per writer (the sink runs at parallelism 1): connections and threads do not
 * grow with the number of streams. Writes nothing private.
 */
public final class ClockTicker implements Sink<Long> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ClockTicker.class);

    private final KafkaConnection connection;
    private final List<String> topics;

    public ClockTicker(KafkaConnection connection, List<String> topics) {
        this.connection = connection;
        this.topics = List.copyOf(topics);
    }

    public static ClockTicker of(DpclustConfig config) {
        return new ClockTicker(config.kafka().connection(), config.inputTopicNames());
    }

    @Override
    public SinkWriter<Long> createWriter(WriterInitContext context) throws IOException {
        Producer<byte[], byte[]> producer =
                new KafkaProducer<>(
                        connection.clientProperties(
                                Map.of(
                                        ProducerConfig.ACKS_CONFIG, "all",
                                        ProducerConfig.LINGER_MS_CONFIG, 0,
                                        ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000)),
                        new ByteArraySerializer(),
                        new ByteArraySerializer());
        Counter ticks = context.metricGroup().addGroup("dpclust").counter("clock_ticks");
        return new Writer(producer, topics, ticks);
    }

    /** Sends one tick per input partition per element. */
    static final class Writer implements SinkWriter<Long> {
        private final Producer<byte[], byte[]> producer;
        private final List<String> topics;
        private final Counter ticks;
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private long lastWarning = Long.MIN_VALUE;

        Writer(Producer<byte[], byte[]> producer, List<String> topics, Counter ticks) {
            this.producer = producer;
            this.topics = topics;
            this.ticks = ticks;
        }

        @Override
        public void write(Long element, Context context) {
            warnOfFailure();
            for (String topic : topics) {
                List<PartitionInfo> partitions;
                try {
                    partitions = producer.partitionsFor(topic);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                    continue;
                }
                for (PartitionInfo p : partitions) {
                    producer.send(
                            ClockTick.to(topic, p.partition()),
                            (metadata, e) -> {
                                if (e != null) {
                                    failure.compareAndSet(null, e);
                                } else {
                                    ticks.inc();
                                }
                            });
                }
            }
        }

        private void warnOfFailure() {
            Exception e = failure.getAndSet(null);
            long now = System.currentTimeMillis();
            if (e != null && now - lastWarning >= Duration.ofMinutes(1).toMillis()) {
                lastWarning = now;
                LOG.warn(
                        "release clock: could not append a tick to the input topics {} ({}); releases"
                                + " wait until ticks are appended again",
                        topics,
                        e.getMessage());
            }
        }

        @Override
        public void flush(boolean endOfInput) {
            // ticks need no delivery before a checkpoint: a lost one only delays releases
        }

        @Override
        public void close() {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
