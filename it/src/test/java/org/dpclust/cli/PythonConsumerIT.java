package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpclust.config.WireFormat;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.kafka.TopicReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped Python consumer ({@code clients/python/dpclust_consume.py}, on Debian's
 * python3-confluent-kafka and python3-avro) reads every topic the streaming job publishes, in both
 * wire formats, exactly as the Java consumer ({@code dpclust consume}) does: generate → stream (the
 * real job on a MiniCluster, on the in-process broker) once per format → both consumers on each
 * topic, compared record by record (parsed JSON, all fields). Its CRC-64-AVRO and Parsing Canonical
 * Form are checked against Avro's Java {@link SchemaNormalization} on every schema file. Fails,
 * never skips, when no python3 with both modules is found ({@code -Ddpclust.python=...} names one).
 */
class PythonConsumerIT {
    private static final Path SCRIPT = Path.of("clients/python/dpclust_consume.py");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    @Test
    @Timeout(600)
    void pythonReadsEveryPublishedTopicInBothFormatsAsTheJavaConsumerDoes() throws Exception {
        String python = python();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            Path secret = CliRun.secretFile(dir);
            String base =
                    CliRun.demoConfig(kafka.bootstrapServers())
                            .replace(
                                    "summaries: [stats]\n    public_seed: 11",
                                    "summaries: [stats, ckm]\n    public_seed: 11");
            assertTrue(base.contains("[stats, ckm]"), "one stream also releases sketches");
            Path generateConfig = dir.resolve("generate.yaml");
            Files.writeString(generateConfig, base);
            run(
                    "generate",
                    "--config",
                    generateConfig.toString(),
                    "--windows",
                    "3",
                    "--records-per-window",
                    "500",
                    "--malformed-per-window",
                    "2");

            Map<String, List<JsonNode>> avroRun = new HashMap<>();
            for (WireFormat format : WireFormat.values()) {
                String f = format.wireName();
                Map<String, String> topics = new HashMap<>();
                for (String kind : List.of("centroids", "sketches", "budget", "dlq")) {
                    topics.put(kind, "dpclust." + kind + "." + f);
                }
                Path config = dir.resolve(f + ".yaml");
                Files.writeString(
                        config,
                        base.replace("group_id: dpclust-demo", "group_id: dpclust-" + f)
                                .replace(
                                        "transactional_id_prefix: dpclust-demo",
                                        "transactional_id_prefix: dpclust-"
                                                + f
                                                + "\n  formats: {centroids: "
                                                + f
                                                + ", sketches: "
                                                + f
                                                + ", dlq: "
                                                + f
                                                + "}\n  topics: {centroids: "
                                                + topics.get("centroids")
                                                + ", sketches: "
                                                + topics.get("sketches")
                                                + ", budget: "
                                                + topics.get("budget")
                                                + ", dlq: "
                                                + topics.get("dlq")
                                                + "}"));
                run(CliRun.stream(config, secret));

                Map<String, String> kinds =
                        Map.of(
                                "centroids", "releases",
                                "sketches", "sketches",
                                "budget", "budget",
                                "dlq", "dead_letters");
                for (var e : kinds.entrySet()) {
                    String topic = topics.get(e.getKey());
                    byte first = firstValueByte(kafka, topic);
                    boolean json = format == WireFormat.JSON && !e.getKey().equals("budget");
                    assertEquals(
                            json ? (byte) '{' : (byte) 0xC3,
                            first,
                            topic + " is written in " + (json ? "json" : "avro"));
                    List<JsonNode> java = javaConsumer(kafka, topic, e.getValue());
                    List<JsonNode> py =
                            lines(
                                    runPython(
                                            python,
                                            "-b",
                                            kafka.bootstrapServers(),
                                            "-t",
                                            topic,
                                            "-X",
                                            "client.id=python-consumer-it"));
                    assertFalse(java.isEmpty(), topic + " has records");
                    assertEquals(java.size(), py.size(), topic + ": as many records");
                    for (int i = 0; i < java.size(); i++) {
                        assertEquals(java.get(i), py.get(i), topic + " record " + i);
                    }
                    if (format == WireFormat.AVRO) {
                        avroRun.put(e.getKey(), java);
                    } else if (!e.getKey().equals("budget")) {
                        // the same input, secret and schedule: the same releases, now as JSON
                        // (as a multiset: the order across streams and subtasks is not fixed)
                        assertEquals(
                                sorted(avroRun.get(e.getKey())),
                                sorted(java),
                                topic + " = the avro run's");
                    }
                    System.out.printf(
                            "PythonConsumerIT: %s (%s): %d records equal%n",
                            topic, json ? "json" : "avro", java.size());
                }
            }
            refusesWhatItCannotVerify(kafka, python, "dpclust.centroids.avro");
        }
    }

    @Test
    @Timeout(120)
    void pythonFingerprintsEverySchemaAsAvroJavaDoes() throws Exception {
        String python = python();
        Map<String, JsonNode> byFile = new HashMap<>();
        for (JsonNode n : lines(runPython(python, "--fingerprints"))) {
            byFile.put(n.get("file").asText(), n);
        }
        List<Path> files = new ArrayList<>();
        for (Path d : List.of(Path.of("avro"), Path.of("src/main/resources/avro-history"))) {
            try (Stream<Path> s = Files.list(d)) {
                s.filter(p -> p.toString().endsWith(".avsc")).forEach(files::add);
            }
        }
        assertTrue(files.size() >= 5, "schema files found: " + files);
        for (Path p : files) {
            Schema schema = new Schema.Parser().parse(p.toFile());
            JsonNode py = byFile.get(p.getFileName().toString());
            assertTrue(py != null, "python fingerprinted " + p);
            assertEquals(
                    SchemaNormalization.toParsingForm(schema),
                    py.get("canonical_form").asText(),
                    p.toString());
            assertEquals(
                    String.format("%016x", SchemaNormalization.parsingFingerprint64(schema)),
                    py.get("fingerprint").asText(),
                    p.toString());
            assertEquals(schema.getFullName(), py.get("name").asText());
        }
    }

    /**
     * A value whose fingerprint matches no schema file (one real release with a byte of its
     * fingerprint changed), one that is neither format, and a real release: the consumers print
     * only the real one, the Python consumer names each refusal and exits 1; a topic that does not
     * exist is exit 2.
     */
    private static void refusesWhatItCannotVerify(
            EmbeddedKafka kafka, String python, String releases) throws Exception {
        byte[] real;
        try (TopicReader r = new TopicReader(kafka.bootstrapServers(), releases)) {
            real = r.readToEnd(Duration.ofSeconds(60)).get(0).value();
        }
        byte[] forged = real.clone();
        forged[2] ^= 0x01;
        String topic = "dpclust.forged";
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (byte[] v :
                    List.of(forged, "not a release".getBytes(StandardCharsets.UTF_8), real)) {
                producer.send(new ProducerRecord<>(topic, v)).get();
            }
        }
        PyRun py = python(python, "-b", kafka.bootstrapServers(), "-t", topic);
        assertEquals(1, py.exit(), py.err());
        String fingerprint = String.format("%02x", forged[9]);
        assertTrue(py.err().contains("@0: unknown schema fingerprint " + fingerprint), py.err());
        assertTrue(py.err().contains("@1: neither JSON nor Avro"), py.err());
        List<JsonNode> java = javaConsumer(kafka, topic, "releases");
        assertEquals(1, java.size());
        assertEquals(java, lines(py.out()), "only the real release");
        PyRun missing = python(python, "-b", kafka.bootstrapServers(), "-t", "no.such.topic");
        assertEquals(2, missing.exit(), missing.err());
        assertTrue(missing.err().contains("does not exist"), missing.err());
    }

    private static byte firstValueByte(EmbeddedKafka kafka, String topic) {
        try (TopicReader r = new TopicReader(kafka.bootstrapServers(), topic)) {
            List<ConsumerRecord<byte[], byte[]>> all = r.readToEnd(Duration.ofSeconds(60));
            assertFalse(all.isEmpty(), topic + " has records");
            byte first = all.get(0).value()[0];
            for (var rec : all) {
                assertEquals(first, rec.value()[0], topic + ": one format throughout");
            }
            return first;
        }
    }

    /** What {@code dpclust consume} prints for the topic, as parsed JSON. */
    private static List<JsonNode> javaConsumer(EmbeddedKafka kafka, String topic, String kind)
            throws IOException {
        return lines(
                consume(
                        "consume",
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--kind",
                        kind,
                        "--topic",
                        topic));
    }

    private static List<String> sorted(List<JsonNode> records) {
        return records.stream().map(JsonNode::toString).sorted().toList();
    }

    private static List<JsonNode> lines(String out) throws IOException {
        List<JsonNode> l = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                l.add(JSON.readTree(line));
            }
        }
        return l;
    }

    private static void run(String... args) {
        consume(args);
    }

    /** A dpclust command in-process; what it printed to its out. */
    private static String consume(String... args) {
        var cl = DpclustCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args);
        assertEquals(0, rc, "dpclust " + String.join(" ", args) + ": " + err);
        return out.toString();
    }

    /** A finished run of the Python consumer. */
    private record PyRun(int exit, String out, String err) {}

    private static String runPython(String python, String... args) throws Exception {
        PyRun r = python(python, args);
        assertEquals(0, r.exit(), "dpclust_consume.py " + String.join(" ", args) + ": " + r.err());
        return r.out();
    }

    private static PyRun python(String python, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(python, SCRIPT.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread drain =
                new Thread(
                        () -> {
                            try {
                                p.getErrorStream().transferTo(err);
                            } catch (IOException e) {
                                // the process ended
                            }
                        });
        drain.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "python consumer finished");
        drain.join();
        return new PyRun(p.exitValue(), out, err.toString(StandardCharsets.UTF_8));
    }

    /**
     * The python3 with python3-confluent-kafka and python3-avro: {@code -Ddpclust.python}, else the
     * first of {@code python3} on the PATH and Debian's {@code /usr/bin/python3} that has both.
     */
    private static String python() throws Exception {
        String chosen = System.getProperty("dpclust.python");
        List<String> candidates =
                chosen != null ? List.of(chosen) : List.of("python3", "/usr/bin/python3");
        for (String c : candidates) {
            try {
                Process p =
                        new ProcessBuilder(c, "-c", "import confluent_kafka, avro.io")
                                .redirectErrorStream(true)
                                .start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return c;
                }
            } catch (IOException e) {
                // not installed
            }
        }
        return fail(
                "no python3 with the modules confluent_kafka and avro among "
                        + candidates
                        + ": install Debian's python3-confluent-kafka and python3-avro (.ci/run"
                        + " does), or name an interpreter with -Ddpclust.python=...");
    }
}
