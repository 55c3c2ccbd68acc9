package org.dpclust.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.TopicFormats;
import org.dpclust.config.WireFormat;
import org.junit.jupiter.api.Test;

class StartupLogTest {
    private static StreamSpec spec(String extra) {
        return ConfigLoader.parse(
                        """
                        kafka: {bootstrap_servers: "b:9092"}
                        streams:
                          - id: s1
                            dimension: 2
                            lower: [0, 0]
                            upper: [1, 2]
                            k: 3
                            window: PT10S
                            epsilon_per_release: 0.5
                            budget_cap: 10
                        """
                                + extra)
                .stream("s1")
                .orElseThrow();
    }

    @Test
    void theStreamLineStatesZcdpAndTheLifetimeCap() {
        String pure = StartupLog.stream(spec(""));
        assertFalse(pure.contains("zcdp"), pure);
        assertFalse(pure.contains("lifetime"), pure);
        assertTrue(pure.contains(", epsilon 0.5 per release, "), pure);
        StreamSpec zs =
                spec("    accounting: zcdp\n    budget_delta: 1.0e-9\n    lifetime_cap: 100\n");
        String z = StartupLog.stream(zs);
        assertTrue(z.contains("cap 10.0 per PT24H (zcdp at delta 1.0E-9, lifetime cap 100.0)"), z);
        // the budget its releases are charged and noised with, not the unused epsilon_per_release
        assertTrue(z.contains(", rho " + zs.rhoPerRelease() + " per release, "), z);
        assertFalse(z.contains("epsilon 0.5"), z);
    }

    @Test
    void aStreamSetIsOneLineAndTheJobLineNamesTheClock() {
        var c =
                ConfigLoader.parse(
                        """
                        kafka: {bootstrap_servers: "b:9092"}
                        job: {tick_interval: PT2S}
                        streams:
                          - ids: {prefix: site-, from: 1, to: 10000, digits: 5}
                            dimension: 2
                            lower: [0, 0]
                            upper: [1, 2]
                            k: 3
                            window: PT10S
                            epsilon_per_release: 0.5
                            budget_cap: 10
                          - id: other
                            dimension: 2
                            lower: [0, 0]
                            upper: [1, 2]
                            k: 3
                            window: PT10S
                            epsilon_per_release: 0.5
                            budget_cap: 10
                          - {id: wide, dimension: 1, lower: [0], upper: [1], k: 1,
                             window: PT10S, epsilon_per_release: 0.5, budget_cap: 10}
                        """);
        var lines = StartupLog.streams(c.streams());
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(
                lines.get(0)
                        .startsWith(
                                "10001 streams site-00001, site-00002, site-00003, site-00004, …,"
                                        + " other: d=2"),
                lines.get(0));
        assertEquals(StartupLog.stream(c.stream("wide").orElseThrow()), lines.get(1));
        assertTrue(
                StartupLog.job(c.job()).contains("release clock: a tick every PT2S"),
                StartupLog.job(c.job()));
        assertTrue(
                StartupLog.job(c.job().withBoundedInput(true)).contains("bounded"),
                StartupLog.job(c.job()));
    }

    @Test
    void theKafkaLineNamesClientPropertiesButNeverTheirValues() {
        String secret = "Literal-Pa55word-in-the-file";
        var k =
                ConfigLoader.parse(
                                """
                                kafka:
                                  bootstrap_servers: "b:9092"
                                  properties:
                                    security.protocol: SASL_SSL
                                    sasl.mechanism: PLAIN
                                    sasl.jaas.config: 'p required username="u" password="%s";'
                                streams:
                                  - {id: s1, dimension: 1, lower: [0], upper: [1], k: 1,
                                     window: PT10S, epsilon_per_release: 0.5, budget_cap: 10}
                                """
                                        .formatted(secret))
                        .kafka();
        String line = StartupLog.kafka(k);
        assertTrue(
                line.endsWith(
                        "client properties sasl.jaas.config, sasl.mechanism=PLAIN,"
                                + " security.protocol=SASL_SSL"),
                line);
        assertFalse(line.contains(secret), line);
        assertTrue(
                StartupLog.kafka(k.withConnection(k.connection().withBootstrapServers("c:1")))
                        .contains("bootstrap servers c:1"));
    }

    @Test
    void theFormatsLineNamesEachPublishedTopicsFormat() {
        assertEquals(
                "formats: centroids json, sketches avro, dead letters json, budget avro (the"
                        + " ledger's log)",
                StartupLog.formats(
                        new TopicFormats(WireFormat.JSON, WireFormat.AVRO, WireFormat.JSON)));
    }

    /** A huge ε and a patterned secret are valid but warned about, naming what and why. */
    @Test
    void aHugeEpsilonAndAPatternedSecretAreWarnedAbout() {
        String yaml =
                """
                kafka: {bootstrap_servers: "b:9092"}
                streams:
                  - {id: s1, dimension: 2, lower: [0, 0], upper: [1, 2], k: 3, window: PT10S,
                     epsilon_per_release: 1.0e300, budget_cap: 1.0e301}
                  - {id: s2, dimension: 2, lower: [0, 0], upper: [1, 2], k: 3, window: PT10S,
                     epsilon_per_release: 1, budget_cap: 10}
                """;
        java.util.List<String> w = StartupLog.warnings(ConfigLoader.parse(yaml));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("stream s1: epsilon_per_release 1.0E300"), w.get(0));
        String zero =
                StartupLog.secretWarning(
                        org.dpclust.privacy.PrivacySecret.fromHex("00".repeat(32)),
                        "DPCLUST_SECRET");
        assertTrue(zero != null && zero.contains("DPCLUST_SECRET"), String.valueOf(zero));
        assertTrue(
                StartupLog.secretWarning(
                                org.dpclust.privacy.PrivacySecret.fromHex("0123".repeat(16)), "f")
                        != null,
                "a repeated pattern");
        assertEquals(
                null,
                StartupLog.secretWarning(
                        org.dpclust.privacy.PrivacySecret.fromHex(
                                "00112233445566778899aabbccddeeff0123456789abcdef0f1e2d3c4b5a6978"),
                        "f"));
    }
}
