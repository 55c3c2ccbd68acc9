package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.io.DatasetLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpclust batch --algorithm NAME --mode strict} for every strict ({@code dp}) algorithm on
 * CSV snapshots of 0, 1 and k − 1 records: exit 0 and a {@code dp} release of k centroids (the file
 * run charges no ledger; {@link BatchJobIT} shows the CHARGE of the same runs through Kafka); and
 * {@code --mode paper --output kafka} refused at start-up with one line.
 */
public class StrictBatchCommandTest {
    private static final int K = 3;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    public static List<String> strictAlgorithms() {
        List<String> out = new ArrayList<>();
        for (String name : BatchAlgorithms.names()) {
            if (org.dpclust.privacy.Guarantee.DP.equals(BatchAlgorithms.get(name).guarantee())) {
                out.add(name);
            }
        }
        return out;
    }

    /** A public universe of 30 points in [0, 100]^2 (for the k-median algorithms). */
    public static Path universe(Path dir) throws Exception {
        StringBuilder u = new StringBuilder("x1,x2\n");
        SplittableRandom pub = new SplittableRandom(9); // public randomness (not privacy noise)
        for (int i = 0; i < 30; i++) {
            u.append(100 * pub.nextDouble())
                    .append(',')
                    .append(100 * pub.nextDouble())
                    .append('\n');
        }
        Path file = dir.resolve("universe.csv");
        Files.writeString(file, u.toString());
        return file;
    }

    /**
     * {@code batch --algorithm NAME --mode strict --input INPUT --epsilon 1 --secret-file SECRET},
     * plus the public universe for the k-median algorithms (a mutable list, to add the rest).
     */
    public static List<String> strictArgs(String name, String input, Path secret, Path universe) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "batch",
                                "--algorithm",
                                name,
                                "--mode",
                                "strict",
                                "--input",
                                input,
                                "--epsilon",
                                "1",
                                "--secret-file",
                                secret.toString()));
        if (name.contains("local-search")) {
            args.addAll(List.of("--universe", universe.toString(), "--metric", "l2"));
        }
        return args;
    }

    @Test
    void everyStrictAlgorithmReleasesOnZeroOneAndKMinusOneRecords(@TempDir Path dir)
            throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "000102030405060708090a0b0c0d0e0f");
        Path universe = universe(dir);
        String[] rows = {"12.5,80", "70,20.25"};
        List<String> names = strictAlgorithms();
        assertTrue(names.size() >= 11, "strict algorithms: " + names);
        for (int n : new int[] {0, 1, K - 1}) {
            Path csv = dir.resolve("n" + n + ".csv");
            Files.writeString(
                    csv, "x1,x2\n" + String.join("\n", List.of(rows).subList(0, n)) + "\n");
            for (String name : names) {
                Path out = dir.resolve(name + "-" + n);
                List<String> args = strictArgs(name, csv.toString(), secret, universe);
                args.addAll(List.of("--k", Integer.toString(K), "--output", out.toString()));
                if (!name.contains("local-search")) {
                    args.addAll(List.of("--bounds", "0,0;100,100"));
                }
                CliRun r = run(args.toArray(new String[0]));
                String what = name + " on " + n + " records";
                assertEquals(0, r.exit(), what + ": " + r.err());
                JsonNode summary =
                        new ObjectMapper().readTree(out.resolve("summary.json").toFile());
                assertEquals("dp", summary.get("guarantee").asText(), what);
                assertEquals(n, summary.get("records").asInt(), what);
                double[][] c = DatasetLoader.loadCsv(out.resolve("centroids.csv")).points();
                assertEquals(K, c.length, what);
                for (double[] x : c) {
                    assertTrue(
                            x[0] >= 0 && x[0] <= 100 && x[1] >= 0 && x[1] <= 100,
                            what + ": " + x[0] + "," + x[1]);
                }
            }
        }
    }

    @Test
    void paperModeToKafkaIsRefusedAtStartUpWithOneLine(@TempDir Path dir) throws Exception {
        String[][] refused = {
            {"--algorithm", "expdp-past", "--mode", "paper"},
            {"--algorithm", "expdp-past-future", "--mode", "paper"},
            {"--algorithm", "gupt", "--mode", "paper"},
            {"--algorithm", "privgene", "--mode", "paper"},
            {"--algorithm", "dp-km"}
        };
        for (String[] algorithm : refused) {
            List<String> args = new ArrayList<>(List.of("batch"));
            args.addAll(List.of(algorithm));
            args.addAll(
                    List.of(
                            "--input",
                            "kafka:telemetry",
                            "--k",
                            "3",
                            "--epsilon",
                            "1",
                            "--bounds",
                            "0,0;1,1",
                            "--output",
                            "kafka"));
            CliRun r = run(args.toArray(new String[0]));
            assertEquals(2, r.exit(), r.err());
            String line = r.err().strip();
            assertFalse(line.contains("\n"), "one line: " + line);
            assertFalse(line.contains("Exception"), "no stack trace: " + line);
            assertTrue(line.contains("--output kafka") && line.contains("paper-claimed"), line);
        }
    }
}
