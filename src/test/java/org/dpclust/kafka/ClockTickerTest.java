package org.dpclust.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The tick writer's own logic (a broker runs it in {@code ReleaseClockIT}): one tick per partition
 * of every input topic per element, failures counted and reported.
 */
class ClockTickerTest {
    private static final Node NODE = new Node(0, "h", 1);

    private static MockProducer<byte[], byte[]> producer(boolean autoComplete) {
        Cluster cluster =
                new Cluster(
                        "c",
                        List.of(NODE),
                        List.of(
                                new PartitionInfo("a", 0, NODE, null, null),
                                new PartitionInfo("a", 1, NODE, null, null),
                                new PartitionInfo("b", 0, NODE, null, null)),
                        java.util.Set.of(),
                        java.util.Set.of());
        return new MockProducer<>(
                cluster, autoComplete, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Test
    void everyPartitionOfEveryInputTopicGetsATickPerElement() {
        MockProducer<byte[], byte[]> p = producer(true);
        SimpleCounter ticks = new SimpleCounter();
        ClockTicker.Writer w =
                new ClockTicker.Writer(p, List.of("a", "b"), ticks, new SimpleCounter());
        w.write(0L, null);
        w.write(1L, null);
        assertEquals(6, p.history().size());
        assertEquals(6, ticks.getCount());
        assertEquals(
                List.of("a-0", "a-1", "b-0", "a-0", "a-1", "b-0"),
                p.history().stream().map(r -> r.topic() + "-" + r.partition()).toList());
        assertTrue(p.history().stream().allMatch(r -> ClockTick.isTick(r.headers())));
    }

    @Test
    void aFailedTickIsCountedAndReportedOnce() {
        MockProducer<byte[], byte[]> p = producer(false);
        SimpleCounter failures = new SimpleCounter();
        ClockTicker.Writer w =
                new ClockTicker.Writer(p, List.of("a"), new SimpleCounter(), failures);
        w.write(0L, null);
        p.errorNext(new org.apache.kafka.common.errors.TopicAuthorizationException("denied"));
        p.errorNext(new org.apache.kafka.common.errors.TopicAuthorizationException("denied"));
        assertEquals(2, failures.getCount());
        w.warnOfFailure();
        assertEquals(1, w.warnings(), "the first failure is logged at once");
        w.write(1L, null);
        p.errorNext(new org.apache.kafka.common.errors.TopicAuthorizationException("denied"));
        w.warnOfFailure();
        assertEquals(1, w.warnings(), "at most one line a minute");
        assertEquals(3, failures.getCount());
    }
}
