package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code dpclust batch --algorithm gupt | privgene --mode paper|strict} through the CLI, on iris.
 */
class GuptPrivGeneBatchCommandTest {
    private static final Path IRIS = DatasetLoader.datasetDirectory().resolve("iris.csv");
    private static final String IRIS_BOUNDS = "4,2,1,0;8,4.5,7,2.6";

    private static int run(StringWriter err, String... args) {
        CommandLine cl = DpclustCommand.commandLine();
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private static JsonNode batch(Path dir, String algorithm, String mode, String epsilon)
            throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "000102030405060708090a0b0c0d0e0f");
        Path out = dir.resolve(algorithm + "-" + mode + "-" + epsilon);
        StringWriter err = new StringWriter();
        int exit =
                run(
                        err,
                        "batch",
                        "--algorithm",
                        algorithm,
                        "--mode",
                        mode,
                        "--input",
                        IRIS.toString(),
                        "--k",
                        "3",
                        "--epsilon",
                        epsilon,
                        "--bounds",
                        IRIS_BOUNDS,
                        "--seed",
                        "3",
                        "--secret-file",
                        secret.toString(),
                        "--output",
                        out.toString());
        assertEquals(0, exit, err.toString());
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        double[][] c = DatasetLoader.loadCsv(out.resolve("centroids.csv")).points();
        assertEquals(3, c.length);
        Dataset iris = DatasetLoader.loadCsv(IRIS);
        ((com.fasterxml.jackson.databind.node.ObjectNode) summary)
                .put("sse", ClusteringMetrics.sse(iris.points(), c));
        return summary;
    }

    @Test
    void bothModesOfBothMethodsRunAndAreLabelled(@TempDir Path dir) throws Exception {
        for (String alg : new String[] {"gupt", "privgene"}) {
            JsonNode strict = batch(dir, alg, "strict", "1");
            assertEquals(alg, strict.get("algorithm").asText());
            assertEquals("dp", strict.get("guarantee").asText());
            assertEquals(
                    1.0,
                    strict.get("parameters").get("epsilon_spent").asDouble(),
                    1e-12,
                    strict.toString());
            JsonNode paper = batch(dir, alg, "paper", "1");
            assertEquals(alg + "-paper", paper.get("algorithm").asText());
            assertEquals("paper-claimed", paper.get("guarantee").asText());
            assertEquals(
                    1.0,
                    paper.get("parameters").get("claimed_epsilon").asDouble(),
                    1e-12,
                    paper.toString());
        }
    }

    @Test
    void moreBudgetGivesLowerCostOnIris(@TempDir Path dir) throws Exception {
        for (String alg : new String[] {"gupt", "privgene"}) {
            double low = batch(dir, alg, "strict", "0.05").get("sse").asDouble();
            double high = batch(dir, alg, "strict", "1000").get("sse").asDouble();
            System.err.println(
                    alg + " on iris: SSE at eps 0.05 = " + low + ", at eps 1000 = " + high);
            assertTrue(
                    high < low, alg + ": SSE " + high + " at eps 1000 vs " + low + " at eps 0.05");
            assertTrue(
                    high < 2 * 78.85,
                    alg + ": SSE at eps 1000 " + high + " (Lloyd's optimum is 78.85)");
        }
    }

    @Test
    void modeErrorsNameTheOption(@TempDir Path dir) {
        String[][] bad = {
            {"gupt", "fast", "--mode must be paper or strict"},
            {"dplloyd", "paper", "--mode paper: algorithm 'dplloyd' has no paper form"},
            {"lloyd", "strict", "--mode strict: algorithm 'lloyd' is not dp"}
        };
        for (String[] b : bad) {
            StringWriter err = new StringWriter();
            int exit =
                    run(
                            err,
                            "batch",
                            "--algorithm",
                            b[0],
                            "--mode",
                            b[1],
                            "--input",
                            IRIS.toString(),
                            "--k",
                            "3",
                            "--epsilon",
                            "1",
                            "--bounds",
                            IRIS_BOUNDS,
                            "--output",
                            dir.toString());
            assertEquals(2, exit, err.toString());
            assertTrue(err.toString().contains(b[2]), err.toString());
        }
    }
}
