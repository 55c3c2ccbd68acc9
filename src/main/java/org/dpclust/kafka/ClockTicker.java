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
 * every partition of every input topic, partitions as the producer's metadata knows them (refreshed
 * every 10 s, so new partitions get ticks). Ticks need no exactly-once: a tick only says "the
 * broker's clock has passed this append time here", so duplicates and gaps only change how soon a
 * window closes, never what it counts. A failed send is counted ({@code
 * dpclust.clock_tick_failures}) and logged (at most once a minute), and the next tick catches up;
 * if ticks stop, releases wait (the watermark never passes unread ticks), they never come early.
 * {@link #probe} checks at start-up that ticks can be written at all. One producer per writer (the
 * sink runs at parallelism 1): connections and threads do not grow with the number of streams.
 * Writes nothing private.
 */
public final class ClockTicker implements Sink<Long> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ClockTicker.class);

    /** At most one WARN line per this long. */
    static final Duration WARN_EVERY = Duration.ofMinutes(1);

    private final KafkaConnection connection;
    private final List<String> topics;

    public ClockTicker(KafkaConnection connection, List<String> topics) {
        this.connection = connection;
        this.topics = List.copyOf(topics);
    }

    public static ClockTicker of(DpclustConfig config) {
        return new ClockTicker(config.kafka().connection(), config.inputTopicNames());
    }

    private Producer<byte[], byte[]> producer() {
        return new KafkaProducer<>(
                connection.clientProperties(
                        Map.of(
                                ProducerConfig.ACKS_CONFIG, "all",
                                ProducerConfig.LINGER_MS_CONFIG, 0,
                                ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000,
                                // new input partitions get ticks within 10 s
                                ProducerConfig.METADATA_MAX_AGE_CONFIG, 10_000,
                                ProducerConfig.CLIENT_ID_CONFIG, "dpclust-release-clock")),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    /**
     * Appends one tick to partition 0 of every input topic and waits for it: throws with the
     * broker's reason (e.g. no Write ACL on the topic) if a tick cannot be written, so a job that
     * could never release fails at start-up instead of waiting silently.
     */
    public void probe(Duration timeout) {
        try (Producer<byte[], byte[]> p = producer()) {
            for (String topic : topics) {
                try {
                    p.send(ClockTick.to(topic, 0))
                            .get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(
                            "cannot append a release-clock tick to input topic '"
                                    + topic
                                    + "': "
                                    + e.getCause().getMessage(),
                            e.getCause());
                } catch (java.util.concurrent.TimeoutException e) {
                    throw new IllegalStateException(
                            "cannot append a release-clock tick to input topic '"
                                    + topic
                                    + "' within "
                                    + timeout,
                            e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while probing the clock", e);
                }
            }
        }
    }

    @Override
    public SinkWriter<Long> createWriter(WriterInitContext context) throws IOException {
        var g = context.metricGroup().addGroup("dpclust");
        return new Writer(
                producer(), topics, g.counter("clock_ticks"), g.counter("clock_tick_failures"));
    }

    /** Sends one tick per input partition per element. */
    static final class Writer implements SinkWriter<Long> {
        private final Producer<byte[], byte[]> producer;
        private final List<String> topics;
        private final Counter ticks;
        private final Counter failures;
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private long lastWarning;
        private long warnings;

        Writer(
                Producer<byte[], byte[]> producer,
                List<String> topics,
                Counter ticks,
                Counter failures) {
            this.producer = producer;
            this.topics = topics;
            this.ticks = ticks;
            this.failures = failures;
            this.lastWarning = System.currentTimeMillis() - WARN_EVERY.toMillis();
        }

        @Override
        public void write(Long element, Context context) {
            warnOfFailure();
            for (String topic : topics) {
                List<PartitionInfo> partitions;
                try {
                    partitions = producer.partitionsFor(topic);
                } catch (RuntimeException e) {
                    failed(e);
                    continue;
                }
                for (PartitionInfo p : partitions) {
                    try {
                        producer.send(
                                ClockTick.to(topic, p.partition()),
                                (metadata, e) -> {
                                    if (e != null) {
                                        failed(e);
                                    } else {
                                        ticks.inc();
                                    }
                                });
                    } catch (RuntimeException e) {
                        failed(e);
                    }
                }
            }
        }

        private void failed(Exception e) {
            failures.inc();
            failure.compareAndSet(null, e);
        }

        /** Logs the first failure kept since the last WARN line, at most once a minute. */
        void warnOfFailure() {
            long now = System.currentTimeMillis();
            if (now - lastWarning < WARN_EVERY.toMillis()) {
                return; // the failure waits for the next line
            }
            Exception e = failure.getAndSet(null);
            if (e != null) {
                lastWarning = now;
                warnings++;
                LOG.warn(
                        "release clock: could not append a tick to the input topics {} ({});"
                                + " releases wait until ticks are appended again",
                        topics,
                        e.getMessage());
            }
        }

        /** WARN lines logged so far. */
        long warnings() {
            return warnings;
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
