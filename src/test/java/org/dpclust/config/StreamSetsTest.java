package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stream sets: one entry, many public ids, each member read as if written out by hand. */
class StreamSetsTest {
    private static final String HEAD =
            """
            kafka: {bootstrap_servers: "b:9092"}
            streams:
            """;
    private static final String OPTIONS =
            """
                dimension: 2
                lower: [0, 0]
                upper: [1, 2]
                k: 3
                window: PT10S
                epsilon_per_release: 0.5
                budget_cap: 10
            """;

    private static DpclustConfig set(String ids, String extra) {
        return ConfigLoader.parse(HEAD + "  - ids: " + ids + "\n" + OPTIONS + extra);
    }

    private static ConfigException refused(String yaml) {
        return assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml));
    }

    @Test
    void aNumberedRangeDeclaresOneStreamPerIdWithTheSameOptions() {
        DpclustConfig c = set("{prefix: site-, from: 1, to: 10000, digits: 5}", "");
        assertEquals(10_000, c.streams().size());
        assertEquals("site-00001", c.streams().get(0).id());
        assertEquals("site-10000", c.streams().get(9_999).id());
        for (StreamSpec s : List.of(c.streams().get(0), c.streams().get(4_711))) {
            assertEquals(3, s.k());
            assertEquals(10, s.cap());
            assertEquals(s.id().hashCode(), s.publicSeed(), "each member's own default seed");
        }
        assertTrue((HEAD + OPTIONS).length() < 400, "10,000 streams in a few lines");
    }

    @Test
    void membersShareTheirSettingsAlsoAfterJavaSerialization() throws Exception {
        DpclustConfig c =
                set(
                        "{prefix: s, from: 1, to: 3}",
                        "  - id: other\n" + OPTIONS.replace("0.5", "0.25"));
        StreamSpec a = c.stream("s1").orElseThrow();
        StreamSpec b = c.stream("s3").orElseThrow();
        assertSame(a.budget(), b.budget());
        assertSame(a.ckm(), b.ckm());
        assertSame(a.stats(), b.stats());
        assertNotSame(a.budget(), c.stream("other").orElseThrow().budget(), "another ε: its own");
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(c);
        }
        DpclustConfig back;
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(
                        new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            back = (DpclustConfig) in.readObject();
        }
        assertEquals(c.streams().size(), back.streams().size());
        assertSame(
                back.stream("s1").orElseThrow().budget(), back.stream("s2").orElseThrow().budget());
        assertEquals(a.budget(), back.stream("s1").orElseThrow().budget());
    }

    @Test
    void aMemberEqualsTheSameStreamWrittenOutByHand() {
        StreamSpec member = set("[a, b]", "").stream("b").orElseThrow();
        StreamSpec byHand =
                ConfigLoader.parse(HEAD + "  - id: b\n" + OPTIONS).stream("b").orElseThrow();
        String noArrays = "\\[D@[0-9a-f]+";
        assertEquals(
                byHand.toString().replaceAll(noArrays, "[]"),
                member.toString().replaceAll(noArrays, "[]"));
        assertTrue(java.util.Arrays.equals(byHand.lower(), member.lower()));
        assertTrue(java.util.Arrays.equals(byHand.upper(), member.upper()));
    }

    @Test
    void anOverrideChangesItsMemberOnlyAndMergesSections() {
        DpclustConfig c =
                set(
                        "[a, b, c]",
                        "    stats: {cells: 16, count_fraction: 0.2}\n"
                                + "    overrides:\n"
                                + "      b: {budget_cap: 20, stats: {cells: 32}}\n");
        assertEquals(10, c.stream("a").orElseThrow().cap());
        assertEquals(20, c.stream("b").orElseThrow().cap());
        assertEquals(16, c.stream("c").orElseThrow().statsCells());
        assertEquals(32, c.stream("b").orElseThrow().statsCells());
        assertEquals(
                c.stream("a").orElseThrow().stats().countFraction(),
                c.stream("b").orElseThrow().stats().countFraction(),
                "the rest of the section is the set's");
    }

    @Test
    void idsFromAFileNextToTheConfiguration(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("fleet.txt"), "# tenants\nacme\n\nglobex  # since May\n");
        Path conf = dir.resolve("dpclust.yaml");
        Files.writeString(conf, HEAD + "  - ids: {file: fleet.txt}\n" + OPTIONS);
        assertEquals(
                List.of("acme", "globex"),
                ConfigLoader.load(conf).streams().stream().map(StreamSpec::id).toList());
        Files.writeString(dir.resolve("fleet.txt"), "acme corp\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(conf));
        assertEquals("streams[0].ids.file", e.option());
        assertTrue(e.problem().contains("line 1"), e.problem());
    }

    @Test
    void mistakesNameTheOption() {
        assertEquals(
                "streams[0].overrides.z",
                refused(HEAD + "  - ids: [a, b]\n" + OPTIONS + "    overrides: {z: {k: 2}}\n")
                        .option());
        assertEquals(
                "streams[0].overrides.a.id",
                refused(HEAD + "  - ids: [a, b]\n" + OPTIONS + "    overrides: {a: {id: c}}\n")
                        .option());
        assertEquals(
                "streams[0].id", refused(HEAD + "  - ids: [a]\n    id: a\n" + OPTIONS).option());
        assertEquals(
                "streams[0].ids.to",
                refused(HEAD + "  - ids: {from: 5, to: 4}\n" + OPTIONS).option());
        assertEquals(
                "streams[0].ids.form",
                refused(HEAD + "  - ids: {form: 1, to: 4}\n" + OPTIONS).option());
        assertEquals("streams[0].ids", refused(HEAD + "  - ids: []\n" + OPTIONS).option());
        // an invalid option is named under the member that reads it first
        assertEquals(
                "streams[0][a].k",
                refused(HEAD + "  - ids: [a, b]\n" + OPTIONS.replace("k: 3", "k: 0")).option());
        // the override of one member is checked as that member's option
        assertEquals(
                "streams[0][b].k",
                refused(HEAD + "  - ids: [a, b]\n" + OPTIONS + "    overrides: {b: {k: 0}}\n")
                        .option());
        // a plain entry has no overrides
        assertEquals(
                "streams[0].overrides",
                refused(HEAD + "  - id: a\n" + OPTIONS + "    overrides: {a: {k: 2}}\n").option());
    }

    @Test
    void idsAreUniqueAcrossSetsAndStreams() {
        ConfigException e = refused(HEAD + "  - ids: [a, b]\n" + OPTIONS + "  - id: b\n" + OPTIONS);
        assertEquals("streams[1].id", e.option());
        assertTrue(e.problem().contains("'b'"));
        assertEquals(
                "streams[1][x-2].id",
                refused(
                                HEAD
                                        + "  - ids: {prefix: x-, from: 1, to: 2}\n"
                                        + OPTIONS
                                        + "  - ids: {prefix: x-, from: 2, to: 3}\n"
                                        + OPTIONS)
                        .option());
    }

    @Test
    void aConfigurationDeclaresAtMostTheLimitWithoutExpandingARangeBomb() {
        ConfigException e =
                refused(HEAD + "  - ids: {from: 0, to: 9223372036854775806}\n" + OPTIONS);
        assertEquals("streams[0].ids", e.option());
        assertTrue(e.problem().contains("at most " + StreamSets.MAX_STREAMS), e.problem());
        assertNotEquals(
                null,
                set("{from: 1, to: " + StreamSets.MAX_STREAMS + "}", "").stream("1").orElse(null));
        assertEquals(
                "streams[1].ids",
                refused(
                                HEAD
                                        + "  - ids: {prefix: a, from: 1, to: "
                                        + StreamSets.MAX_STREAMS
                                        + "}\n"
                                        + OPTIONS
                                        + "  - ids: [b]\n"
                                        + OPTIONS)
                        .option());
    }
}
