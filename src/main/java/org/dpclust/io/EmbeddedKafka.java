package org.dpclust.io;

import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker in this JVM: one combined KRaft broker + controller on loopback with a free port,
 * from Kafka's own test kit (Maven Central). Used by {@code dpclust demo} and the integration tests — it is
 * the real broker code, not a mock. Replication settings are those a single node can satisfy.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private final KafkaClusterTestKit cluster;

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static EmbeddedKafka start() {
        try {
            KafkaClusterTestKit c = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                            .setCombined(true)
                            .setNumBrokerNodes(1)
                            .setNumControllerNodes(1)
                            .build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("transaction.state.log.num.partitions", "1")
                    .setConfigProp("min.insync.replicas", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("log.cleaner.backoff.ms", "1000")
                    .build();
            // the test kit's formatter prints to stdout; keep stdout for the command's own output
            java.io.PrintStream stdout = System.out;
            System.setOut(System.err);
            try {
                c.format();
            } finally {
                System.setOut(stdout);
            }
            c.startup();
            c.waitForReadyBrokers();
            return new EmbeddedKafka(c);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the in-process Kafka broker: " + e.getMessage(), e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("error stopping the in-process Kafka broker", e);
        }
    }
}
