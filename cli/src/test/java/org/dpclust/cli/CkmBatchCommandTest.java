package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import org.dpclust.io.DatasetLoader;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code dpclust batch --algorithm ckm} on a small CSV with declared bounds. */
class CkmBatchCommandTest {
    private static final double[][] CENTERS = {{2, 2}, {5, 8}, {8, 3}};

    @Test
    void ckmOnACsvWithDeclaredBoundsWritesADpSummaryAndCentroidsNearTheBlobs(@TempDir Path dir)
            throws Exception {
        StringBuilder csv = new StringBuilder("x1,x2\n");
        SplittableRandom rng = new SplittableRandom(4); // public randomness (not privacy noise)
        for (int i = 0; i < 2000; i++) {
            double[] c = CENTERS[i % 3];
            csv.append(
                    String.format(
                            Locale.ROOT,
                            "%.5f,%.5f%n",
                            c[0] + 0.3 * rng.nextGaussian(),
                            c[1] + 0.3 * rng.nextGaussian()));
        }
        Path input = dir.resolve("blobs.csv");
        Files.writeString(input, csv);
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "000102030405060708090a0b0c0d0e0f");
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        int exit =
                cl.execute(
                        "batch",
                        "--algorithm",
                        "ckm",
                        "--input",
                        input.toString(),
                        "--k",
                        "3",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "0,0;10,10",
                        "--secret-file",
                        secret.toString(),
                        "--output",
                        dir.resolve("o").toString());
        assertEquals(0, exit, err.toString());
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("o/summary.json").toFile());
        assertEquals("ckm", summary.get("algorithm").asText());
        assertEquals("dp", summary.get("guarantee").asText());
        assertEquals(1.0, summary.get("epsilon").asDouble());
        assertEquals(60, summary.get("parameters").get("m").asInt());
        double[][] found = DatasetLoader.loadCsv(dir.resolve("o/centroids.csv")).points();
        assertEquals(3, found.length);
        double matched = ClusteringMetrics.meanMatchedDistance(CENTERS, found);
        assertTrue(matched < 0.5, "matched distance " + matched);
    }
}
