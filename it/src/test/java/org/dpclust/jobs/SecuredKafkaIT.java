package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.cli.CliRun;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaConnection;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.TestTls;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.kafka.TopicReader;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * dpclust against a secured cluster: the in-process broker with a SASL_SSL listener (SCRAM-SHA-512
 * over TLS, certificates made in the test), every client configured only through {@code
 * kafka.properties}, the secrets given as references to files ({@code ${dir:DIR:FILE}}, Kafka's
 * DirectoryConfigProvider). The streaming job runs end to end over that listener (source, sink,
 * fenced ledger, topic admin, budget reader) and its releases and budget are read back over it; a
 * wrong password fails {@code dpclust stream} at start-up with one line and exit code 2; and no
 * secret appears in anything logged or printed meanwhile (every logger at INFO, where Kafka prints
 * each client's configuration).
 */
class SecuredKafkaIT {
    private static final long START = StreamingRuns.START;
    private static final long W = StreamingRuns.W;
    private static final String USER = "dpclust-job";
    private static final String PASSWORD = "Scram-Pa55word-of-the-test-7d1f";
    private static final String WRONG = "Not-The-Pa55word-3c9a";
    private static final String STORE_PASSWORD = "Store-Pa55word-5e2b";

    @RegisterExtension static final MiniClusterExtension FLINK = StreamingRuns.miniCluster();

    @TempDir static Path dir;

    private static TestTls tls;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startSecuredBroker() throws Exception {
        tls = TestTls.generate(dir, STORE_PASSWORD);
        kafka = EmbeddedKafka.startSecured(tls.listener(USER, PASSWORD));
        Path secrets = Files.createDirectories(dir.resolve("secrets"));
        Files.writeString(secrets.resolve("kafka-password"), PASSWORD);
        Files.writeString(secrets.resolve("wrong-password"), WRONG);
        Files.writeString(secrets.resolve("truststore-password"), STORE_PASSWORD);
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /**
     * The client properties of the SASL_SSL listener as YAML lines (indented {@code indent}) or as
     * a properties file ({@code indent} null); the SCRAM password is {@code password}, a reference
     * ({@link #secretFile}, or {@code ${env:NAME}}), the truststore's password a file reference
     * too.
     */
    private static String clientProperties(String password, String indent) {
        Path secrets = dir.resolve("secrets");
        String sep = indent == null ? "=" : ": ";
        String q = indent == null ? "" : "'";
        String lines =
                String.join(
                        "\n",
                        "security.protocol" + sep + "SASL_SSL",
                        "sasl.mechanism" + sep + "SCRAM-SHA-512",
                        "sasl.jaas.config"
                                + sep
                                + q
                                + "org.apache.kafka.common.security.scram.ScramLoginModule"
                                + " required username=\""
                                + USER
                                + "\" password=\""
                                + password
                                + "\";"
                                + q,
                        "ssl.truststore.type" + sep + "PKCS12",
                        "ssl.truststore.location" + sep + tls.truststore(),
                        "ssl.truststore.password"
                                + sep
                                + q
                                + "${dir:"
                                + secrets
                                + ":truststore-password}"
                                + q);
        return indent == null ? lines + "\n" : lines.indent(indent.length()).stripTrailing();
    }

    /**
     * A reference to file {@code name} of the secrets directory (Kafka's DirectoryConfigProvider).
     */
    private static String secretFile(String name) {
        return "${dir:" + dir.resolve("secrets") + ":" + name + "}";
    }

    /**
     * The configuration of a one-stream bounded run over the SASL_SSL listener, with {@link
     * #clientProperties} of {@code password} as {@code kafka.properties} (none if null).
     */
    private static String yaml(String name, String password) {
        return """
                kafka:
                  bootstrap_servers: "%s"
                  topics: {input: %s.in, centroids: %s.centroids, sketches: %s.sketches, budget: %s.budget, dlq: %s.dlq}
                  group_id: %s
                  transactional_id_prefix: %s
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                %s
                job:
                  checkpoint_interval: PT0.3S
                  max_out_of_orderness: PT1S
                  idle_timeout: PT2S
                  bounded_input: true
                  parallelism: 1
                  max_lateness: PT1H
                  start: "%s"
                  end: "%s"
                streams:
                  - id: a
                    dimension: 2
                    lower: [0, 0]
                    upper: [1, 1]
                    k: 3
                    window: PT10S
                    epsilon_per_release: 1.0
                    budget_cap: 100
                    public_seed: 1
                """
                .formatted(
                        kafka.secureBootstrapServers(),
                        name,
                        name,
                        name,
                        name,
                        name,
                        name,
                        name,
                        password == null
                                ? ""
                                : "  properties:\n" + clientProperties(password, "    "),
                        Instant.ofEpochMilli(START),
                        Instant.ofEpochMilli(START + 3 * W));
    }

    @Test
    void theStreamingJobRunsEndToEndOverSaslSsl() throws Exception {
        DpclustConfig c = ConfigLoader.parse(yaml("sasl", secretFile("kafka-password")));
        assertFalse(c.kafka().bootstrapServers().equals(kafka.bootstrapServers()));
        String logged =
                capturingLogs(
                        () -> {
                            TopicAdmin.ensureTopics(c.kafka(), 1);
                            try (TelemetryProducer p =
                                    new TelemetryProducer(
                                            c.kafka().connection(), c.kafka().inputTopic())) {
                                new SyntheticTelemetry(c.streams(), START, 3, 2000, 0, 50, 7)
                                        .write(p);
                            }
                            StreamingRuns runs = new StreamingRuns(c.kafka().connection());
                            runs.runBounded(c, new RawRecordDeserializer(), "none");
                            List<CentroidRelease> releases = runs.releases(c);
                            Set<Long> windows = new HashSet<>();
                            for (CentroidRelease r : releases) {
                                assertEquals("a", r.getStreamId());
                                assertTrue(
                                        windows.add(r.getWindowStart().toEpochMilli()),
                                        "each window once");
                            }
                            assertEquals(Set.of(START, START + W, START + 2 * W), windows);
                            List<BudgetStatus> budget = runs.budget(c);
                            assertEquals(
                                    3,
                                    budget.stream()
                                            .filter(b -> b.getKind() == BudgetEventKind.CHARGE)
                                            .count(),
                                    "one charge per release, read over SASL_SSL");
                            return null;
                        });
        assertTrue(
                logged.contains("sasl.jaas.config = [hidden]"),
                "Kafka logged its client configuration, masking the JAAS entry");
        assertNoSecret(logged);
    }

    @Test
    void wrongCredentialsFailStartUpWithOneLine() throws Exception {
        Path config = dir.resolve("wrong.yaml");
        Files.writeString(config, yaml("wrong", secretFile("wrong-password")));
        Path secret = dir.resolve("secret.hex");
        Files.writeString(secret, TestRandoms.SECRET_HEX);
        CliRun[] run = new CliRun[1];
        String logged =
                capturingLogs(
                        () -> {
                            run[0] =
                                    CliRun.of(
                                            "stream",
                                            "--config",
                                            config.toString(),
                                            "--secret-file",
                                            secret.toString());
                            return null;
                        });
        String err = run[0].err().strip();
        assertEquals(2, run[0].exit(), err);
        assertEquals(1, err.lines().count(), "one line:\n" + err);
        assertTrue(
                err.startsWith(
                        "dpclust stream: Kafka authentication failed at "
                                + kafka.secureBootstrapServers()
                                + " (security.protocol SASL_SSL, sasl.mechanism SCRAM-SHA-512): "),
                err);
        assertTrue(err.contains("invalid credentials"), err);
        assertFalse(err.contains("Exception"), err);
        assertNoSecret(err);
        assertTrue(
                logged.contains("sasl.jaas.config = [hidden]"),
                "the start-up check's Kafka client logged its configuration, masked");
        assertNoSecret(logged);
    }

    /**
     * The commands without a configuration's client properties: {@code --kafka-properties FILE}
     * alone connects {@code generate}, {@code consume} and {@code ledger} over SASL_SSL.
     */
    @Test
    void theCommandsConnectThroughAKafkaPropertiesFile() throws Exception {
        Path props = dir.resolve("client.properties");
        Files.writeString(props, clientProperties(secretFile("kafka-password"), null));
        Path config = dir.resolve("cli.yaml");
        Files.writeString(config, yaml("cli", null));
        String secure = kafka.secureBootstrapServers();
        CliRun generate =
                CliRun.of(
                        "generate",
                        "--config",
                        config.toString(),
                        "--kafka-properties",
                        props.toString(),
                        "--windows",
                        "1",
                        "--records-per-window",
                        "25",
                        "--devices",
                        "5");
        assertEquals(0, generate.exit(), generate.err());
        KafkaConnection sameProperties =
                ConfigLoader.parse(yaml("cli", secretFile("kafka-password"))).kafka().connection();
        try (TopicReader in = new TopicReader(sameProperties, "cli.in")) {
            assertEquals(25, in.readToEnd(Duration.ofSeconds(30)).size());
        }
        CliRun consume =
                CliRun.of(
                        "consume",
                        "--bootstrap-servers",
                        secure,
                        "--kafka-properties",
                        props.toString(),
                        "--kind",
                        "dead_letters",
                        "--topic",
                        "cli.dlq");
        assertEquals(0, consume.exit(), consume.err());
        CliRun ledger =
                CliRun.of(
                        "ledger",
                        "verify",
                        "--stream",
                        "a",
                        "--topic",
                        "cli.budget",
                        "--bootstrap-servers",
                        secure,
                        "--kafka-properties",
                        props.toString());
        assertEquals(0, ledger.exit(), ledger.err());
    }

    /**
     * The real command line (target/dpclust.jar, its bundled logging: dpclust at INFO, libraries at
     * WARN, all on stderr) with the password in an environment variable: a wrong one leaves exactly
     * one line on stderr and exit code 2.
     */
    @Test
    void theCliJarPrintsExactlyOneLineForWrongCredentials() throws Exception {
        Path jar = Path.of("target", "dpclust.jar");
        assertTrue(Files.exists(jar), "run after `mvn package`");
        Path config = dir.resolve("env.yaml");
        Files.writeString(config, yaml("env", "${env:KAFKA_PASSWORD}"));
        Path err = dir.resolve("stream.err");
        ProcessBuilder pb =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xmx256m",
                                "-XX:+UseSerialGC",
                                "-jar",
                                jar.toString(),
                                "stream",
                                "--config",
                                config.toString())
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(err.toFile());
        pb.environment().put("KAFKA_PASSWORD", WRONG);
        pb.environment().put("DPCLUST_SECRET", TestRandoms.SECRET_HEX);
        Process stream = pb.start();
        assertTrue(stream.waitFor(2, TimeUnit.MINUTES), "dpclust stream did not exit");
        List<String> lines = Files.readAllLines(err).stream().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), "one line on stderr: " + lines);
        assertTrue(
                lines.get(0)
                        .startsWith(
                                "dpclust stream: Kafka authentication failed at "
                                        + kafka.secureBootstrapServers()),
                lines.get(0));
        assertNoSecret(lines.get(0));
        assertEquals(2, stream.exitValue());
    }

    private static void assertNoSecret(String text) {
        for (String s : new String[] {PASSWORD, WRONG, STORE_PASSWORD}) {
            assertFalse(text.contains(s), "a secret was printed");
        }
    }

    /**
     * Runs {@code body} with every logger at INFO (Kafka logs each client's configuration there)
     * into a buffer instead of the console; returns what was logged.
     */
    private static String capturingLogs(Callable<Void> body) throws Exception {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration cfg = ctx.getConfiguration();
        LoggerConfig root = cfg.getRootLogger();
        StringWriter sink = new StringWriter();
        WriterAppender capture =
                WriterAppender.newBuilder()
                        .setName("secured-kafka-it")
                        .setTarget(sink)
                        .setLayout(PatternLayout.newBuilder().withPattern("%c{1}: %m%n").build())
                        .build();
        capture.start();
        Map<String, Appender> before = Map.copyOf(root.getAppenders());
        Level rootLevel = root.getLevel();
        Level dpclustLevel = LogManager.getLogger("org.dpclust").getLevel();
        before.keySet().forEach(root::removeAppender);
        root.addAppender(capture, Level.INFO, null);
        Configurator.setRootLevel(Level.INFO);
        Configurator.setLevel("org.dpclust", Level.INFO);
        try {
            body.call();
        } finally {
            Configurator.setLevel("org.dpclust", dpclustLevel);
            Configurator.setRootLevel(rootLevel);
            root.removeAppender(capture.getName());
            before.values().forEach(a -> root.addAppender(a, null, null));
            ctx.updateLoggers();
            capture.stop();
        }
        return sink.toString();
    }
}
