package org.dpclust.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.io.DatasetLoader;

/**
 * {@code bench csv}: how fast {@code batch} reads a CSV snapshot ({@link DatasetLoader#loadCsv}) —
 * n = 100,000 records of d = 100 coordinates written as Java's shortest round-trip doubles (≈ 190
 * MB; quick: 1,000 × 10), the file's own size over the median of 3 loads (1 warm-up). Row {@code
 * csv-parse}: {@code mb_per_second} (10^6 bytes), {@code records_per_second}, {@code
 * ns_per_record}, and beside it {@code read_lines_mb_per_second}, the same file only decoded and
 * split into lines (the floor of any line-based parser), with {@code fraction_of_bound} =
 * read-lines time / load time. The temporary file is deleted at the end.
 */
public final class CsvBenchmark implements Benchmark {
    static final long SEED = 2031;

    @Override
    public String name() {
        return "csv";
    }

    @Override
    public String description() {
        return "batch CSV loading in MB/s (n = 1e5, d = 100, full-precision doubles) beside reading its lines";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        int n = quick ? 1_000 : 100_000;
        int d = quick ? 10 : 100;
        Path file = null;
        try {
            file = Files.createTempFile("dpclust-bench-", ".csv");
            write(file, n, d);
            long bytes = Files.size(file);
            System.err.printf(Locale.ROOT, "bench csv: %d x %d, %.1f MB%n", n, d, bytes / 1e6);
            Path f = file;
            long load =
                    BenchEnvironment.medianNanos(
                            1, 3, () -> DatasetLoader.loadCsv(f).points().length);
            long lines = BenchEnvironment.medianNanos(1, 3, () -> readLines(f));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("benchmark", "csv-parse");
            row.put("n", n);
            row.put("d", d);
            row.put("bytes", bytes);
            row.put("seconds", load / 1e9);
            row.put("mb_per_second", BoundRows.round(bytes / 1e6 / (load / 1e9)));
            row.put("records_per_second", Math.round(n / (load / 1e9)));
            row.put("ns_per_record", BoundRows.round((double) load / n));
            row.put("read_lines_mb_per_second", BoundRows.round(bytes / 1e6 / (lines / 1e9)));
            row.put("fraction_of_bound", BoundRows.round((double) lines / load));
            return List.of(BenchEnvironment.withMachine(row));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    System.err.println("bench csv: could not delete " + file + ": " + e);
                }
            }
        }
    }

    /** A header x1..xd, then n rows of uniform [0, 1) doubles (public randomness, fixed seed). */
    private static void write(Path file, int n, int d) throws IOException {
        SplittableRandom rng = new SplittableRandom(SEED); // public randomness (not privacy noise)
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            for (int j = 0; j < d; j++) {
                line.append(j == 0 ? "" : ",").append('x').append(j + 1);
            }
            w.write(line.append('\n').toString());
            for (int i = 0; i < n; i++) {
                line.setLength(0);
                for (int j = 0; j < d; j++) {
                    line.append(j == 0 ? "" : ",").append(rng.nextDouble());
                }
                w.write(line.append('\n').toString());
            }
        }
    }

    private static long readLines(Path file) {
        long chars = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                chars += l.length();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return chars;
    }
}
