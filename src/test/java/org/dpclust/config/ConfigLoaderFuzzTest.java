package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random damage to a valid configuration, and YAML built to hurt (deep nesting, alias bombs, huge
 * scalars): {@link ConfigLoader#parse} either accepts it or throws a {@link ConfigException} whose
 * message is one bounded line naming the option or place — never another exception (the CLI prints
 * only IllegalArgument/IllegalState exceptions as one line).
 */
class ConfigLoaderFuzzTest {
    private static final String VALID =
            """
            kafka:
              bootstrap_servers: "b:9092"
              topics: {input: in, centroids: c, budget: b}
            job:
              checkpoint_interval: PT1S
              parallelism: 2
              max_lateness: PT3S
              start: "2026-01-01T00:00:00Z"
            streams:
              - id: s1
                dimension: 2
                lower: [0, 0]
                upper: [1, 2]
                k: 3
                window: PT10S
                epsilon_per_release: 0.5
                budget_cap: 10
                public_seed: 4
                stats: {cells: 8}
            """;

    private static final String[] TOKENS = {
        ":",
        ": ",
        "- ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "&a ",
        "*a",
        "!!binary ",
        "!!float ",
        "'",
        "\"",
        "\t",
        "\n",
        "  ",
        "null",
        "~",
        "1e999",
        "-1",
        ".nan",
        ".inf",
        "PT-1S",
        "0x10",
        "k: 1",
        "streams:",
        "<<: *a",
        "#",
        "|",
        ">",
        "?",
        "%YAML 1.1\n",
        "---\n",
        "...\n",
        "\u0000",
        "\uFEFF",
        "9".repeat(400),
        "é",
        "@",
        "`"
    };

    private static int[] counts = new int[2];

    private static void parse(String yaml) {
        try {
            ConfigLoader.parse(yaml);
            counts[0]++;
        } catch (ConfigException e) {
            String m = e.getMessage();
            assertFalse(m.contains("\n") || m.contains("\r"), "one line: " + m);
            assertTrue(m.length() < 1000, "a bounded message (" + m.length() + "): " + m);
            assertFalse(e.option().isBlank(), "names an option or place: " + m);
            counts[1]++;
        } catch (RuntimeException | StackOverflowError e) {
            fail("not a one-line configuration error for:\n" + yaml, e);
        }
    }

    @Test
    void randomlyDamagedConfigurationsParseOrFailWithOneLine() {
        SplittableRandom r = new SplittableRandom(7);
        counts = new int[2];
        for (int i = 0; i < 4000; i++) {
            StringBuilder s = new StringBuilder(VALID);
            int edits = 1 + r.nextInt(4);
            for (int e = 0; e < edits; e++) {
                int at = r.nextInt(s.length() + 1);
                switch (r.nextInt(4)) {
                    case 0 -> s.delete(at, Math.min(s.length(), at + 1 + r.nextInt(12)));
                    case 1 -> s.insert(at, (char) r.nextInt(32, 127));
                    default -> s.insert(at, TOKENS[r.nextInt(TOKENS.length)]);
                }
            }
            parse(s.toString());
        }
        assertTrue(
                counts[0] > 0 && counts[1] > 0, "both outcomes occur: " + Arrays.toString(counts));
    }

    @Test
    void yamlBuiltToHurtFailsWithOneLine() {
        counts = new int[2];
        int depth = 100_000;
        parse("kafka: " + "[".repeat(depth) + "]".repeat(depth));
        parse("kafka: " + "{a: ".repeat(depth) + "}".repeat(depth));
        StringBuilder bomb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i < 30; i++) {
            String p = "*a" + (i - 1);
            bomb.append(
                    "a%d: &a%d [%s, %s, %s, %s, %s, %s, %s, %s, %s]\n"
                            .formatted(i, i, p, p, p, p, p, p, p, p, p));
        }
        parse(bomb.toString());
        parse("kafka: {bootstrap_servers: \"" + "b".repeat(2_000_000) + "\"}");
        parse("kafka:\n  " + "k".repeat(5_000) + ": 1\n");
        parse(VALID.replace("dimension: 2", "dimension: 99999999999999999999999"));
        parse(VALID.replace("k: 3", "k: 2147483648"));
        parse(VALID.replace("budget_cap: 10", "budget_cap: 1e400"));
        parse("\u0000\u0001\u0002");
        parse("- - - - -");
        parse("!!java.lang.Runtime {}");
        assertTrue(counts[1] == 11, "all refused: " + Arrays.toString(counts));
    }
}
