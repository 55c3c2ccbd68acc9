package org.dpclust.devkit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.scram.ScramLoginModule;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker in this JVM: one combined KRaft broker + controller on loopback, from Kafka's
 * own test kit (Maven Central). Used by {@code dpclust demo}, {@code dpclust local} and the
 * integration tests — it is the real broker code, not a mock. Replication settings are those a
 * single node can satisfy. {@link #start()} takes a free port and a temporary directory deleted on
 * close; {@link #start(int, Path)} a given port on 127.0.0.1 and, optionally, a data directory that
 * is kept (a second start on it finds the topics and offsets of the first). {@link #startSecured}
 * adds a SASL_SSL listener (SCRAM-SHA-512 over TLS) for clients, next to the PLAINTEXT listeners
 * the broker and its controller use among themselves, for the tests of secured clusters.
 */
public final class EmbeddedKafka implements AutoCloseable {
    /** Written into a kept data directory: the cluster id it was formatted with. */
    static final String CLUSTER_ID_FILE = "dpclust-cluster.id";

    /** The listener of a broker started on a given port. */
    private static final String FIXED_LISTENER = "LOCAL";

    /** The SASL_SSL listener of {@link #startSecured}. */
    private static final String SECURE_LISTENER = "SECURE";

    /** The SASL mechanism of the SASL_SSL listener. */
    public static final String SCRAM = "SCRAM-SHA-512";

    private final KafkaClusterTestKit cluster;
    private final String bootstrapServers;
    private final String secureBootstrapServers;

    private EmbeddedKafka(
            KafkaClusterTestKit cluster, String bootstrapServers, String secureBootstrapServers) {
        this.cluster = cluster;
        this.bootstrapServers = bootstrapServers;
        this.secureBootstrapServers = secureBootstrapServers;
    }

    /**
     * The SASL_SSL listener of {@link #startSecured}: the broker's TLS key and certificate and the
     * one SCRAM-SHA-512 user it accepts.
     *
     * @param keystore a PKCS12 keystore holding the broker's key and a certificate valid for {@code
     *     localhost} (the host the listener advertises)
     * @param truststore a PKCS12 truststore that trusts that certificate (for the start-up check of
     *     the SCRAM user)
     * @param keystorePassword the password of both stores and of the key
     * @param user the SCRAM user created at start-up
     * @param password that user's password
     */
    public record SecureListener(
            Path keystore, Path truststore, String keystorePassword, String user, String password) {
        /** Never the passwords. */
        @Override
        public String toString() {
            return "SecureListener[" + keystore + ", user " + user + "]";
        }
    }

    /**
     * A broker on free ports of localhost that also accepts clients over SASL_SSL ({@link
     * #secureBootstrapServers()}): TLS with {@code secure}'s keystore, SASL {@value #SCRAM} with
     * its one user, created through the Admin API on the PLAINTEXT listener once the broker is up.
     * Returns once that user can authenticate.
     */
    public static EmbeddedKafka startSecured(SecureListener secure) {
        return start(0, null, secure, Map.of());
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
        return start(port, dataDir, null, Map.of());
    }

    /**
     * As {@link #start(int, Path)}, with further broker settings (e.g. an authorizer for tests that
     * take a topic's access away).
     */
    public static EmbeddedKafka start(int port, Path dataDir, Map<String, String> brokerConfig) {
        return start(port, dataDir, null, brokerConfig);
    }

    private static EmbeddedKafka start(
            int port, Path dataDir, SecureListener secure, Map<String, String> brokerConfig) {
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
            if (secure != null) {
                secureListener(b, secure);
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
            String secureBootstrap = null;
            if (secure != null) {
                secureBootstrap =
                        "localhost:"
                                + c.brokers()
                                        .values()
                                        .iterator()
                                        .next()
                                        .boundPort(new ListenerName(SECURE_LISTENER));
                createScramUser(bootstrap, secureBootstrap, secure);
            }
            return new EmbeddedKafka(c, bootstrap, secureBootstrap);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot start the in-process Kafka broker: " + e.getMessage(), e);
        }
    }

    /**
     * The client-facing SASL_SSL listener on a free port of localhost; the test kit's EXTERNAL
     * (inter-broker) and CONTROLLER listeners stay PLAINTEXT.
     */
    private static void secureListener(KafkaClusterTestKit.Builder b, SecureListener secure) {
        String prefix = "listener.name." + SECURE_LISTENER.toLowerCase(java.util.Locale.ROOT) + ".";
        b.setConfigProp(
                "listeners",
                "EXTERNAL://localhost:0,CONTROLLER://localhost:0,"
                        + SECURE_LISTENER
                        + "://localhost:0");
        b.setConfigProp(
                "listener.security.protocol.map",
                "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT," + SECURE_LISTENER + ":SASL_SSL");
        b.setConfigProp(prefix + "sasl.enabled.mechanisms", SCRAM);
        b.setConfigProp(
                prefix + SCRAM.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config",
                ScramLoginModule.class.getName() + " required;");
        b.setConfigProp(prefix + "ssl.keystore.type", "PKCS12");
        b.setConfigProp(prefix + "ssl.keystore.location", secure.keystore().toString());
        b.setConfigProp(prefix + "ssl.keystore.password", secure.keystorePassword());
        b.setConfigProp(prefix + "ssl.key.password", secure.keystorePassword());
    }

    /**
     * Creates the SCRAM user through the PLAINTEXT listener, then waits (up to 60 s) until it can
     * authenticate on the SASL_SSL one: the credential reaches the broker through the metadata log.
     */
    private static void createScramUser(
            String plaintext, String secureBootstrap, SecureListener secure) throws Exception {
        try (Admin a = Admin.create(Map.of("bootstrap.servers", plaintext))) {
            a.alterUserScramCredentials(
                            List.of(
                                    new UserScramCredentialUpsertion(
                                            secure.user(),
                                            new ScramCredentialInfo(
                                                    ScramMechanism.SCRAM_SHA_512, 4096),
                                            secure.password())))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> client = new HashMap<>();
        client.put("bootstrap.servers", secureBootstrap);
        client.put("security.protocol", "SASL_SSL");
        client.put("sasl.mechanism", SCRAM);
        client.put(
                "sasl.jaas.config",
                ScramLoginModule.class.getName()
                        + " required username=\""
                        + secure.user()
                        + "\" password=\""
                        + secure.password()
                        + "\";");
        client.put("ssl.truststore.type", "PKCS12");
        client.put("ssl.truststore.location", secure.truststore().toString());
        client.put("ssl.truststore.password", secure.keystorePassword());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Admin a = Admin.create(client)) {
                a.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof AuthenticationException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
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

    /** The PLAINTEXT listener (the only one of a broker not started with {@link #startSecured}). */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * The SASL_SSL listener, {@code localhost:PORT}, of a broker started with {@link
     * #startSecured}; null otherwise.
     */
    public String secureBootstrapServers() {
        return secureBootstrapServers;
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
