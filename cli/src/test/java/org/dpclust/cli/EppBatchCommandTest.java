package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EppBatchCommandTest {
    private static final Path SEEDS = DatasetLoader.datasetDirectory().resolve("seeds.csv");

    private static int run(StringWriter err, String... args) {
        CommandLine cl = DpclustCommand.commandLine();
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private static Path secret(Path dir) throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "000102030405060708090a0b0c0d0e0f");
        return secret;
    }

    @Test
    void registryLabelsEppAndPaperClaimed() {
        assertEquals(org.dpclust.privacy.Guarantee.EPP, BatchAlgorithms.get("epp-1").guarantee());
        assertEquals(org.dpclust.privacy.Guarantee.EPP, BatchAlgorithms.get("epp-2").guarantee());
        assertEquals(
                org.dpclust.privacy.Guarantee.PAPER_CLAIMED,
                BatchAlgorithms.get("dp-km").guarantee());
    }

    @Test
    void epp1OnSeedsWritesEppCentroidsThatClusterLikeLloyd(@TempDir Path dir) throws Exception {
        StringWriter err = new StringWriter();
        int exit =
                run(
                        err,
                        "batch",
                        "--algorithm",
                        "epp-1",
                        "--input",
                        SEEDS.toString(),
                        "--k",
                        "3",
                        "--epsilon",
                        "0.1",
                        "--secret-file",
                        secret(dir).toString(),
                        "--output",
                        dir.resolve("o").toString());
        assertEquals(0, exit, err.toString());
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("o/summary.json").toFile());
        assertEquals("epp", summary.get("guarantee").asText());
        assertEquals("epp-1", summary.get("algorithm").asText());
        // Case 1 joint bound with E_exc = σ²: B = floor(e^0.1 · min_k N_k) >= 1 and feasible
        assertTrue(summary.get("parameters").get("bags").asDouble() >= 1.0, summary.toString());
        assertEquals(1.0, summary.get("parameters").get("feasible").asDouble(), summary.toString());
        double[][] centroids = DatasetLoader.loadCsv(dir.resolve("o/centroids.csv")).points();
        assertEquals(3, centroids.length);
        Dataset seeds = DatasetLoader.loadCsv(SEEDS);
        double nmi =
                ClusteringMetrics.nmi(
                        ClusteringMetrics.assign(seeds.points(), centroids), seeds.labels());
        assertTrue(nmi > 0.6, "NMI of epp-1 on seeds: " + nmi);
    }

    @Test
    void eppOutputToKafkaIsRefusedNamingTheOption() {
        for (String alg : new String[] {"epp-1", "epp-2"}) {
            StringWriter err = new StringWriter();
            int exit =
                    run(
                            err,
                            "batch",
                            "--algorithm",
                            alg,
                            "--input",
                            SEEDS.toString(),
                            "--k",
                            "3",
                            "--epsilon",
                            "0.1",
                            "--output",
                            "kafka");
            assertEquals(2, exit, err.toString());
            assertTrue(
                    err.toString().contains("--output kafka") && err.toString().contains("epp"),
                    err.toString());
        }
        // a kafka input needs --output kafka, so an EPP run can never reach a stream's topic or
        // ledger
        StringWriter err = new StringWriter();
        int exit =
                run(
                        err,
                        "batch",
                        "--algorithm",
                        "epp-1",
                        "--input",
                        "kafka:telemetry.v1",
                        "--k",
                        "3",
                        "--epsilon",
                        "0.1",
                        "--output",
                        "kafka");
        assertEquals(2, exit);
        assertTrue(err.toString().contains("--output kafka"), err.toString());
    }

    @Test
    void dpKmNeedsDeclaredBoundsAndIsPaperClaimed(@TempDir Path dir) throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(
                2,
                run(
                        err,
                        "batch",
                        "--algorithm",
                        "dp-km",
                        "--input",
                        SEEDS.toString(),
                        "--k",
                        "3",
                        "--epsilon",
                        "1",
                        "--output",
                        dir.resolve("x").toString()));
        assertTrue(err.toString().contains("--bounds"), err.toString());
        int exit =
                run(
                        new StringWriter(),
                        "batch",
                        "--algorithm",
                        "dp-km",
                        "--input",
                        SEEDS.toString(),
                        "--k",
                        "3",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "10,12,0.8,4,2,0,4;22,18,1,7,5,9,7",
                        "--secret-file",
                        secret(dir).toString(),
                        "--output",
                        dir.resolve("o").toString());
        assertEquals(0, exit);
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("o/summary.json").toFile());
        assertEquals("paper-claimed", summary.get("guarantee").asText());
    }
}
