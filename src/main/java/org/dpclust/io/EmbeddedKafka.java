package org.dpclust.io;

import java.io.PrintStream;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker in this JVM: one combined KRaft broker + controller on loopback with a free
 * port, from Kafka's own test kit (Maven Central). Used by {@code dpclust demo} and the integration
 * tests — it is the real broker code, not a mock. Replication settings are those a single node can
 * satisfy.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private final KafkaClusterTestKit cluster;

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static EmbeddedKafka start() {
        try {
            KafkaClusterTestKit c =
                    new KafkaClusterTestKit.Builder(
                                    new TestKitNodes.Builder()
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
            PrintStream stdout = System.out;
            System.setOut(System.err);
            try {
                c.format();
            } finally {
                System.setOut(stdout);
            }
            c.startup();
            c.waitForReadyBrokers();
            warmUp(c.bootstrapServers());
            return new EmbeddedKafka(c);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot start the in-process Kafka broker: " + e.getMessage(), e);
        }
    }

    /**
     * Right after start-up the first produce to a fresh broker occasionally never completes (its
     * batch expires after the producer's 120 s delivery timeout), which would silently lose the
     * first records written. So start() only returns once an idempotent producer has had one record
     * acknowledged: each attempt uses a fresh producer with short timeouts, for up to 3 minutes.
     */
    private static void warmUp(String bootstrap) throws Exception {
        Properties admin = new Properties();
        admin.put("bootstrap.servers", bootstrap);
        try (Admin a = Admin.create(admin)) {
            a.createTopics(List.of(new NewTopic("__dpclust_warmup", 1, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        Exception last = null;
        while (System.nanoTime() < deadline) {
            Properties p = new Properties();
            p.put("bootstrap.servers", bootstrap);
            p.put("key.serializer", ByteArraySerializer.class.getName());
            p.put("value.serializer", ByteArraySerializer.class.getName());
            p.put("acks", "all");
            p.put("request.timeout.ms", 5000);
            p.put("delivery.timeout.ms", 10000);
            p.put("max.block.ms", 10000);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
                producer.send(new ProducerRecord<>("__dpclust_warmup", new byte[] {1}))
                        .get(15, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | TimeoutException | KafkaException e) {
                last = e;
            }
        }
        throw new IllegalStateException(
                "the in-process broker accepted no record within 3 minutes", last);
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
