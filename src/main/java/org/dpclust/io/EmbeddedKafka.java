package org.dpclust.io;

import java.nio.charset.StandardCharsets;
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
            // the test kit's formatter prints its bootstrap metadata (one line of ~700 characters)
            // and the directory it formats to stdout: keep it out of the command's output, and show
            // it only if formatting fails
            java.io.PrintStream stdout = System.out;
            java.io.ByteArrayOutputStream formatLog = new java.io.ByteArrayOutputStream();
            System.setOut(new java.io.PrintStream(formatLog, true, StandardCharsets.UTF_8));
            try {
                c.format();
            } catch (Exception e) {
                System.err.print(formatLog.toString(StandardCharsets.UTF_8));
                throw e;
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
        java.util.Properties admin = new java.util.Properties();
        admin.put("bootstrap.servers", bootstrap);
        try (org.apache.kafka.clients.admin.Admin a =
                org.apache.kafka.clients.admin.Admin.create(admin)) {
            a.createTopics(
                            java.util.List.of(
                                    new org.apache.kafka.clients.admin.NewTopic(
                                            "__dpclust_warmup", 1, (short) 1)))
                    .all()
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(3);
        Exception last = null;
        while (System.nanoTime() < deadline) {
            java.util.Properties p = new java.util.Properties();
            p.put("bootstrap.servers", bootstrap);
            p.put(
                    "key.serializer",
                    org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
            p.put(
                    "value.serializer",
                    org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
            p.put("acks", "all");
            p.put("request.timeout.ms", 5000);
            p.put("delivery.timeout.ms", 10000);
            p.put("max.block.ms", 10000);
            try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> producer =
                    new org.apache.kafka.clients.producer.KafkaProducer<>(p)) {
                producer.send(
                                new org.apache.kafka.clients.producer.ProducerRecord<>(
                                        "__dpclust_warmup", new byte[] {1}))
                        .get(15, java.util.concurrent.TimeUnit.SECONDS);
                return;
            } catch (java.util.concurrent.ExecutionException
                    | java.util.concurrent.TimeoutException
                    | org.apache.kafka.common.KafkaException e) {
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
