package org.dpclust.batch;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The output directory of an offline file run ({@code --output DIR}): {@value #CENTROIDS} (a header
 * {@code x1..xd}, then one centroid per line, in {@link Double#toString} form so that the values
 * read back exactly) and {@value #SUMMARY} (the run's summary, pretty-printed JSON). The directory
 * is created when missing; a write failure is an {@link UncheckedIOException} naming {@code
 * --output}.
 */
public record OutputDirectory(Path dir) {
    public static final String CENTROIDS = "centroids.csv";
    public static final String SUMMARY = "summary.json";

    /** The centroids file's path. */
    public Path centroidsFile() {
        return dir.resolve(CENTROIDS);
    }

    /** Writes both files. */
    public void write(double[][] centroids, Map<String, Object> summary) {
        try {
            Files.createDirectories(dir);
            Files.writeString(centroidsFile(), centroidsCsv(centroids), StandardCharsets.UTF_8);
            Files.writeString(
                    dir.resolve(SUMMARY),
                    new ObjectMapper()
                                    .writerWithDefaultPrettyPrinter()
                                    .writeValueAsString(wholeNumbers(summary))
                            + "\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "--output: cannot write " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The CSV text of {@code centroids} (k ≥ 1 rows of equal dimension). */
    public static String centroidsCsv(double[][] centroids) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < centroids[0].length; j++) {
            sb.append(j > 0 ? "," : "").append('x').append(j + 1);
        }
        sb.append('\n');
        for (double[] c : centroids) {
            for (int j = 0; j < c.length; j++) {
                sb.append(j > 0 ? "," : "").append(c[j]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * {@code value} with every whole double (a count, a number of cells or steps kept as a double
     * in a parameter map) as a long, so the JSON says {@code 64}, not {@code 64.0}; maps and lists
     * are copied, other values kept.
     */
    static Object wholeNumbers(Object value) {
        if (value instanceof Double d
                && d == Math.rint(d)
                && Math.abs(d) < 0x1p53
                && !(d == 0 && 1 / d < 0)) {
            return d.longValue();
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, wholeNumbers(v)));
            return out;
        }
        if (value instanceof java.util.List<?> l) {
            return l.stream().map(OutputDirectory::wholeNumbers).toList();
        }
        return value;
    }
}
