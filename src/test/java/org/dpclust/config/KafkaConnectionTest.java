package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaConnectionTest {
    private static final String SECRET = "s3cr3t-Pa55word-never-printed";

    private static final String VALID =
            """
            kafka:
              bootstrap_servers: "b:9093"
              properties:
            %s
            streams:
              - id: s1
                dimension: 2
                lower: [0, 0]
                upper: [1, 2]
                k: 3
                window: PT10S
                epsilon_per_release: 0.5
                budget_cap: 10
            """;

    private static DpclustConfig withProperties(String lines) {
        return ConfigLoader.parse(VALID.formatted(lines.indent(4).stripTrailing()));
    }

    private static ConfigException refused(String lines) {
        return assertThrows(ConfigException.class, () -> withProperties(lines));
    }

    @Test
    void propertiesAreReadFromTheConfigurationAndReachTheClients() {
        KafkaSettings k =
                withProperties(
                                """
                                security.protocol: SASL_SSL
                                sasl.mechanism: SCRAM-SHA-512
                                request.timeout.ms: 45000
                                """)
                        .kafka();
        Properties p = k.connection().clientProperties(Map.of("request.timeout.ms", 10_000));
        assertEquals("b:9093", p.get("bootstrap.servers"));
        assertEquals("SASL_SSL", p.get("security.protocol"));
        assertEquals("45000", p.get("request.timeout.ms"), "a user property wins over tuning");
        assertNull(p.get("config.providers"), "no reference: no providers declared");
    }

    @Test
    void everyJobOwnedKeyIsRefusedNamingItAndItsOwner() {
        for (String key : KafkaConnection.OWNED.keySet()) {
            ConfigException e = refused(key + ": x");
            assertEquals("kafka.properties." + key, e.option());
            assertTrue(e.getMessage().contains("owned by dpclust"), e.getMessage());
        }
        assertTrue(
                refused("group.id: g").getMessage().contains("set kafka.group_id"),
                "names the option that owns it");
        assertTrue(
                refused("isolation.level: read_uncommitted")
                        .getMessage()
                        .contains("read_committed"));
    }

    @Test
    void malformedSecretReferencesAreRefusedAtLoadWithoutTheirValue() {
        ConfigException noKey = refused("sasl.jaas.config: \"x password=${file:/etc/pw}\"");
        assertEquals("kafka.properties.sasl.jaas.config", noKey.option());
        assertTrue(noKey.getMessage().contains("needs a path and a key"), noKey.getMessage());
        ConfigException unknown = refused("ssl.key.password: \"${vault:kv/pw}\"");
        assertTrue(unknown.getMessage().contains("provider 'vault'"), unknown.getMessage());
        assertTrue(refused("a.b: \"${env:X:Y}\"").getMessage().contains("${env:NAME}"));
        assertEquals("kafka.properties.a", refused("a: {b: c}").option());
    }

    @Test
    void aReferenceDeclaresKafkasProvidersWhichResolveIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("password"), SECRET);
        KafkaConnection c =
                new KafkaConnection(
                        "b:9093",
                        Map.of(
                                "ssl.key.password",
                                "${dir:" + dir + ":password}",
                                "x.home",
                                "${env:PATH}"));
        c.requireResolvable("kafka.properties");
        Properties p = c.clientProperties(Map.of());
        assertEquals("env,file,dir", p.get("config.providers"));
        // what a Kafka client does with them: AbstractConfig resolves the references
        Map<String, Object> resolved = new AbstractConfig(new ConfigDef(), p, false).originals();
        assertEquals(SECRET, resolved.get("ssl.key.password"));
        assertEquals(System.getenv("PATH"), resolved.get("x.home"));
    }

    @Test
    void anUnresolvableReferenceFailsAtStartUpNamingTheKey(@TempDir Path dir) {
        KafkaConnection unset =
                new KafkaConnection(
                        "b:9093",
                        Map.of(
                                "sasl.jaas.config",
                                "x password=\"${env:DPCLUST_TEST_NOT_SET_7}\";"));
        ConfigException e =
                assertThrows(
                        ConfigException.class, () -> unset.requireResolvable("kafka.properties"));
        assertEquals("kafka.properties.sasl.jaas.config", e.option());
        assertTrue(e.getMessage().contains("${env:DPCLUST_TEST_NOT_SET_7}"), e.getMessage());
        KafkaConnection missing =
                new KafkaConnection(
                        "b:9093", Map.of("ssl.key.password", "${dir:" + dir + ":nope}"));
        assertThrows(ConfigException.class, () -> missing.requireResolvable("kafka.properties"));
    }

    @Test
    void valuesAreNeverPrintedAndTheConnectionTravelsSerialized() throws Exception {
        DpclustConfig c =
                withProperties(
                        "security.protocol: SASL_SSL\nsasl.jaas.config: \"m required password=\\\""
                                + SECRET
                                + "\\\";\"");
        for (String s :
                new String[] {
                    c.toString(), c.kafka().toString(), c.kafka().connection().toString(),
                }) {
            assertFalse(s.contains(SECRET), s);
            assertTrue(s.contains("sasl.jaas.config"), s);
            assertTrue(s.contains("security.protocol=SASL_SSL"), s);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(c.kafka());
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(c.kafka(), in.readObject());
        }
    }
}
