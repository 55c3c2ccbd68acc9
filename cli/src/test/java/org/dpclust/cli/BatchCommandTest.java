package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.dpclust.config.TestStreams;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchCommandTest {
    private static final Path S1 = DatasetLoader.datasetDirectory().resolve("s1.csv");

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void lloydOnS1FindsTheTrueCentroidsWithinOnePercentOfTheDomainWidth(@TempDir Path out)
            throws Exception {
        CliRun r =
                run(
                        "batch",
                        "--algorithm",
                        "lloyd",
                        "--input",
                        S1.toString(),
                        "--k",
                        "15",
                        "--output",
                        out.toString());
        assertEquals(0, r.exit(), r.err());
        double[][] found = DatasetLoader.loadCsv(out.resolve("centroids.csv")).points();
        double[][] truth = DatasetLoader.loadCsv(S1.resolveSibling("s1.centroids.csv")).points();
        Dataset s1 = DatasetLoader.loadCsv(S1);
        double width =
                IntStream.range(0, s1.dimension())
                        .mapToObj(
                                j ->
                                        Arrays.stream(s1.points())
                                                .mapToDouble(p -> p[j])
                                                .summaryStatistics())
                        .mapToDouble(st -> st.getMax() - st.getMin())
                        .max()
                        .orElseThrow();
        assertEquals(15, found.length);
        double matched = ClusteringMetrics.meanMatchedDistance(truth, found) / width;
        System.err.println("s1 lloyd: mean matched distance / domain width = " + matched);
        assertTrue(matched < 0.01, "matched distance " + matched + " of the domain width");
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals("none", summary.get("guarantee").asText());
        assertEquals("lloyd", summary.get("algorithm").asText());
    }

    @Test
    void nonPrivateOutputToKafkaIsRefusedNamingTheOption() {
        CliRun r =
                run(
                        "batch",
                        "--algorithm",
                        "lloyd",
                        "--input",
                        S1.toString(),
                        "--k",
                        "15",
                        "--output",
                        "kafka");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--output kafka") && r.err().contains("non-private"), r.err());
    }

    @Test
    void configurationErrorsNameTheOption(@TempDir Path dir) throws Exception {
        String s1 = S1.toString();
        assertError("--algorithm", run("batch", "--algorithm", "nope", "--input", s1, "--k", "3"));
        assertError(
                "--epsilon",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        s1,
                        "--k",
                        "3",
                        "--bounds",
                        "0,0;1,1"));
        assertError(
                "--bounds",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        s1,
                        "--k",
                        "3",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "0,0;1"));
        assertError(
                "--bounds",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        s1,
                        "--k",
                        "3",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "0,x;1,1"));
        assertError(
                "--bounds",
                run("batch", "--algorithm", "stats", "--input", s1, "--k", "3", "--epsilon", "1"));
        assertError("--k", run("batch", "--algorithm", "lloyd", "--input", s1));
        assertError(
                "--config",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        "kafka:telemetry.v1",
                        "--k",
                        "3",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "0,0;1,1",
                        "--output",
                        "kafka"));
        assertError(
                "--config",
                run("batch", "--algorithm", "lloyd", "--input", s1, "--k", "3", "--stream", "x"));
        assertError(
                "--input",
                run(
                        "batch",
                        "--algorithm",
                        "lloyd",
                        "--input",
                        dir.resolve("missing.csv").toString(),
                        "--k",
                        "3",
                        "--output",
                        dir.toString()));
        Path cfg = dir.resolve("c.yaml");
        Files.writeString(cfg, TestStreams.yaml("s", 2.0));
        assertError(
                "--stream",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        "kafka:t",
                        "--config",
                        cfg.toString(),
                        "--stream",
                        "other",
                        "--epsilon",
                        "1",
                        "--output",
                        "kafka"));
        assertError(
                "--from",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        "kafka:t",
                        "--config",
                        cfg.toString(),
                        "--stream",
                        "s",
                        "--epsilon",
                        "1",
                        "--output",
                        "kafka",
                        "--from",
                        "yesterday",
                        "--to",
                        "2026-01-01T00:00:00Z"));
        assertError(
                "--output",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        "kafka:t",
                        "--config",
                        cfg.toString(),
                        "--stream",
                        "s",
                        "--epsilon",
                        "1",
                        "--output",
                        dir.toString()));
        assertError(
                "--bounds",
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        s1,
                        "--config",
                        cfg.toString(),
                        "--stream",
                        "s",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "0,0;1,1"));
    }

    private static void assertError(String option, CliRun r) {
        assertEquals(2, r.exit(), "expected a usage error for " + option + ", got: " + r.err());
        assertTrue(r.err().contains(option), "error does not name " + option + ": " + r.err());
    }

    @Test
    void statsOnACsvFileWithDeclaredBoundsWritesADpSummary(@TempDir Path out) throws Exception {
        Path secret = out.resolve("secret");
        Files.writeString(secret, "000102030405060708090a0b0c0d0e0f");
        CliRun r =
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        S1.toString(),
                        "--k",
                        "15",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "0,0;1000000,1000000",
                        "--secret-file",
                        secret.toString(),
                        "--output",
                        out.resolve("o").toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode summary = new ObjectMapper().readTree(out.resolve("o/summary.json").toFile());
        assertEquals("dp", summary.get("guarantee").asText());
        assertEquals(1.0, summary.get("epsilon").asDouble());
        assertTrue(summary.get("ledger").asText().startsWith("not charged"));
        assertEquals(15, DatasetLoader.loadCsv(out.resolve("o/centroids.csv")).size());
    }

    @Test
    void recordsHintSetsTheStatsCellsByTheSignalRule(@TempDir Path out) throws Exception {
        Path secret = out.resolve("secret");
        Files.writeString(secret, "000102030405060708090a0b0c0d0e0f");
        Path csv = out.resolve("d10.csv");
        StringBuilder rows = new StringBuilder("a,b,c,d,e,f,g,h,i,j\n");
        java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
        for (int i = 0; i < 200; i++) {
            for (int j = 0; j < 10; j++) {
                rows.append(j == 0 ? "" : ",").append(rng.nextDouble());
            }
            rows.append('\n');
        }
        Files.writeString(csv, rows);
        String box = "0,0,0,0,0,0,0,0,0,0;1,1,1,1,1,1,1,1,1,1";
        String[] args = {
            "batch",
            "--algorithm",
            "stats",
            "--input",
            csv.toString(),
            "--k",
            "10",
            "--epsilon",
            "3",
            "--bounds",
            box,
            "--secret-file",
            secret.toString(),
            "--output",
            out.resolve("o").toString(),
            "--records-hint",
            "100000"
        };
        CliRun r = run(args);
        assertEquals(0, r.exit(), r.err());
        JsonNode summary = new ObjectMapper().readTree(out.resolve("o/summary.json").toFile());
        int expected = org.dpclust.kmeans.CellRule.cells(10, 10, 3, 100_000);
        assertTrue(expected > 160, "the rule gives finer cells than the default here");
        assertEquals(expected, summary.get("parameters").get("cells").asInt());

        String[] both = Arrays.copyOf(args, args.length + 2);
        both[args.length] = "--cells";
        both[args.length + 1] = "64";
        assertError("--records-hint", run(both));
        String[] zero = args.clone();
        zero[args.length - 1] = "0";
        assertError("--records-hint", run(zero));
    }
}
