package org.dpclust.io;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker in this JVM: one combined KRaft broker + controller on loopback, from Kafka's
 * own test kit (Maven Central). Used by {@code dpclust demo}, {@code dpclust local} and the
 * integration tests — it is the real broker code, not a mock. Replication settings are those a
 * single node can satisfy. {@link #start()} takes a free port and a temporary directory deleted on
 * close; {@link #start(int, Path)} a given port on 127.0.0.1 and, optionally, a data directory that
 * is kept (a second start on it finds the topics and offsets of the first).
 */
public final class EmbeddedKafka implements AutoCloseable {
    /** Written into a kept data directory: the cluster id it was formatted with. */
    static final String CLUSTER_ID_FILE = "dpclust-cluster.id";

    /** The listener of a broker started on a given port. */
    private static final String FIXED_LISTENER = "LOCAL";

    private final KafkaClusterTestKit cluster;
    private final String bootstrapServers;

    private EmbeddedKafka(KafkaClusterTestKit cluster, String bootstrapServers) {
        this.cluster = cluster;
        this.bootstrapServers = bootstrapServers;
    }

    /** A broker on a free port of localhost, its data in a temporary directory. */
    public static EmbeddedKafka start() {
        return start(0, null);
    }

    /**
     * A broker on {@code 127.0.0.1:port} (0: a free port of localhost).
     *
     * @param dataDir where the broker keeps its logs and metadata, kept after {@link #close()};
     *     null for a temporary directory deleted on close
     */
    public static EmbeddedKafka start(int port, Path dataDir) {
        return start(port, dataDir, Map.of());
    }

    /**
     * As {@link #start(int, Path)}, with further broker settings (e.g. an authorizer for tests that
     * take a topic's access away).
     */
    public static EmbeddedKafka start(int port, Path dataDir, Map<String, String> brokerConfig) {
        try {
            TestKitNodes.Builder nodes =
                    new TestKitNodes.Builder()
                            .setCombined(true)
                            .setNumBrokerNodes(1)
                            .setNumControllerNodes(1);
            Path idFile = dataDir == null ? null : dataDir.resolve(CLUSTER_ID_FILE);
            boolean formatted = idFile != null && Files.exists(idFile);
            String clusterId =
                    formatted ? Files.readString(idFile).trim() : Uuid.randomUuid().toString();
            if (dataDir != null) {
                Files.createDirectories(dataDir);
                nodes.setBaseDirectory(dataDir).setClusterId(clusterId);
            }
            KafkaClusterTestKit.Builder b =
                    new KafkaClusterTestKit.Builder(nodes.build())
                            .setDeleteOnClose(dataDir == null)
                            .setConfigProp("offsets.topic.replication.factor", "1")
                            .setConfigProp("offsets.topic.num.partitions", "1")
                            .setConfigProp("transaction.state.log.replication.factor", "1")
                            .setConfigProp("transaction.state.log.min.isr", "1")
                            .setConfigProp("transaction.state.log.num.partitions", "1")
                            .setConfigProp("min.insync.replicas", "1")
                            .setConfigProp("group.initial.rebalance.delay.ms", "0")
                            .setConfigProp("log.cleaner.backoff.ms", "1000");
            brokerConfig.forEach(b::setConfigProp);
            if (port > 0) {
                // The test kit binds its EXTERNAL and CONTROLLER listeners to free ports of its own
                // choosing; clients get a third listener on the requested port.
                b.setConfigProp(
                        "listeners",
                        "EXTERNAL://localhost:0,CONTROLLER://localhost:0,"
                                + FIXED_LISTENER
                                + "://127.0.0.1:"
                                + port);
                b.setConfigProp(
                        "listener.security.protocol.map",
                        "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT," + FIXED_LISTENER + ":PLAINTEXT");
            }
            KafkaClusterTestKit c = b.build();
            if (!formatted) {
                // the test kit's formatter prints its bootstrap metadata (one line of ~700
                // characters) and the directory it formats to stdout: keep it out of the command's
                // output, and show it only if formatting fails
                PrintStream stdout = System.out;
                ByteArrayOutputStream formatLog = new ByteArrayOutputStream();
                System.setOut(new PrintStream(formatLog, true, StandardCharsets.UTF_8));
                try {
                    c.format();
                } catch (Exception e) {
                    System.err.print(formatLog.toString(StandardCharsets.UTF_8));
                    throw e;
                } finally {
                    System.setOut(stdout);
                }
                if (idFile != null) {
                    Files.writeString(idFile, clusterId);
                }
            }
            c.startup();
            c.waitForReadyBrokers();
            String bootstrap = port > 0 ? "127.0.0.1:" + port : c.bootstrapServers();
            warmUp(bootstrap);
            return new EmbeddedKafka(c, bootstrap);
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
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw e; // it exists when a kept data directory is started again
            }
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
        return bootstrapServers;
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
