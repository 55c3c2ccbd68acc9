package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.dpclust.batch.KMedianAlgorithmTest;
import org.dpclust.io.DatasetLoader;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KMedianBatchCommandTest {
    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static Path csv(Path file, double[][] rows) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < rows[0].length; j++) {
            sb.append(j > 0 ? "," : "").append('x').append(j + 1);
        }
        sb.append('\n');
        for (double[] r : rows) {
            sb.append(String.join(",", Arrays.stream(r).mapToObj(Double::toString).toList()))
                    .append('\n');
        }
        return Files.writeString(file, sb.toString());
    }

    /** The hex of {@link TestRandoms#SECRET} (the fixed test secret), as a --secret-file. */
    private static Path secret(Path dir) throws Exception {
        return Files.writeString(
                dir.resolve("secret.hex"),
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    }

    @Test
    void dpHstLocalSearchOnACsvWithAUniverseReleasesOnePointOfUPerCluster(@TempDir Path dir)
            throws Exception {
        Path u = csv(dir.resolve("u.csv"), KMedianAlgorithmTest.universe());
        Path d = csv(dir.resolve("d.csv"), KMedianAlgorithmTest.demand());
        Path out = dir.resolve("out");
        CliRun r =
                run(
                        "batch",
                        "--algorithm",
                        "dp-hst-local-search",
                        "--input",
                        d.toString(),
                        "--universe",
                        u.toString(),
                        "--metric",
                        "l1",
                        "--k",
                        "3",
                        "--epsilon",
                        "200",
                        "--secret-file",
                        secret(dir).toString(),
                        "--output",
                        out.toString());
        assertEquals(0, r.exit(), r.err());
        double[][] found = DatasetLoader.loadCsv(out.resolve("centroids.csv")).points();
        assertEquals(3, found.length);
        assertTrue(
                Arrays.equals(new int[] {0, 1, 2}, KMedianAlgorithmTest.clusters(found)),
                "one centre per cluster: " + Arrays.deepToString(found));
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals("dp", summary.get("guarantee").asText());
        assertEquals(204, summary.get("parameters").get("delta").asDouble(), 1e-9);
    }

    @Test
    void aGraphEdgeListInputClustersItsNodes(@TempDir Path dir) throws Exception {
        Path edges =
                Files.writeString(
                        dir.resolve("g.edges"),
                        "from,to,weight\n0,1,1\n1,2,1\n2,0,1\n3,4,1\n4,5,1\n5,3,1\n2,3,50\n");
        Path out = dir.resolve("out");
        CliRun r =
                run(
                        "batch",
                        "--algorithm",
                        "local-search",
                        "--metric",
                        "graph",
                        "--input",
                        edges.toString(),
                        "--k",
                        "2",
                        "--output",
                        out.toString());
        assertEquals(0, r.exit(), r.err());
        double[] ids =
                Arrays.stream(DatasetLoader.loadCsv(out.resolve("centroids.csv")).points())
                        .mapToDouble(p -> p[0])
                        .sorted()
                        .toArray();
        assertTrue(ids[0] <= 2 && ids[1] >= 3, "one centre per triangle: " + Arrays.toString(ids));
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(6, summary.get("records").asInt(), "every node is a demand point once");

        Path nodes = Files.writeString(dir.resolve("nodes.csv"), "node\n0\n1\n4\n5\n");
        CliRun viaGraph =
                run(
                        "batch",
                        "--algorithm",
                        "dp-local-search",
                        "--metric",
                        "graph",
                        "--graph",
                        edges.toString(),
                        "--input",
                        nodes.toString(),
                        "--k",
                        "2",
                        "--epsilon",
                        "1",
                        "--secret-file",
                        secret(dir).toString(),
                        "--output",
                        dir.resolve("out2").toString());
        assertEquals(0, viaGraph.exit(), viaGraph.err());
    }

    @Test
    void errorsNameTheOption(@TempDir Path dir) throws Exception {
        Path d = csv(dir.resolve("d.csv"), KMedianAlgorithmTest.demand());
        for (List<String> c :
                List.of(
                        List.of(
                                "--metric",
                                "l3",
                                "--universe",
                                d.toString(),
                                "--k",
                                "3",
                                "|--metric"),
                        List.of("--metric", "l1", "--k", "3", "|--universe"),
                        List.of("--k", "3", "|--universe"),
                        List.of(
                                "--metric",
                                "graph",
                                "--universe",
                                d.toString(),
                                "--k",
                                "3",
                                "|--universe"),
                        List.of(
                                "--metric",
                                "l2",
                                "--universe",
                                d.toString(),
                                "--k",
                                "3",
                                "--graph",
                                d.toString(),
                                "|--graph"))) {
            List<String> args =
                    new java.util.ArrayList<>(
                            List.of(
                                    "batch",
                                    "--algorithm",
                                    "local-search",
                                    "--input",
                                    d.toString(),
                                    "--output",
                                    dir.resolve("o").toString()));
            args.addAll(c.subList(0, c.size() - 1));
            CliRun r = run(args.toArray(String[]::new));
            assertEquals(2, r.exit(), String.join(" ", args));
            String option = c.get(c.size() - 1).substring(1);
            assertTrue(r.err().contains(option), args + " -> " + r.err());
        }
    }
}
