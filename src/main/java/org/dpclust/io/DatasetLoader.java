package org.dpclust.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Loads the project's CSV data sets (the repository's {@code data/} directory; format and
 * provenance in {@code data/README.md}).
 *
 * <p>Contract of {@link #loadCsv}: the first line is a header of column names (a first line made
 * only of numbers is refused: it is data, and taking it as the header would silently drop a record
 * and treat a label column as a coordinate); a column named {@code label} (case-insensitive, at
 * most one) holds integer class ids and every other column is a numeric coordinate. Every further
 * non-blank line must have exactly as many comma-separated fields as the header. Blank lines are
 * skipped. Any violation raises an {@link IllegalArgumentException} naming the file, the 1-based
 * line and the 1-based column. The returned data set is named after the file without {@code .csv}
 * (or {@code .csv.gz}) and has {@link DomainScaling#none()}. A file whose name ends in {@code .gz}
 * is read through gzip, so large data sets can be stored compressed. Bytes that are not UTF-8 and a
 * damaged gzip stream are {@link IllegalArgumentException}s naming the file too; only a file that
 * cannot be read at all is an {@link java.io.UncheckedIOException}.
 */
public final class DatasetLoader {

    /** Default data set directory, relative to the working directory (the repository root). */
    public static final String DEFAULT_DIRECTORY = "data";

    /** System property that overrides the location of the data sets. */
    public static final String DATASETS_PROPERTY = "dpclust.datasets";

    /** Environment variable that overrides the location (the system property wins). */
    public static final String DATASETS_ENV = "DPCLUST_DATASETS";

    private DatasetLoader() {}

    /** Reads one CSV data set; see the class contract for the format and errors. */
    public static Dataset loadCsv(Path csv) {
        String file = csv.toString();
        try (BufferedReader in = open(csv)) {
            String header = in.readLine();
            if (header == null) {
                throw new IllegalArgumentException(
                        file + ": line 1: empty file, expected a header x1..xd[,label]");
            }
            if (header.startsWith("\uFEFF")) {
                header = header.substring(1);
            }
            String[] names = header.split(",", -1);
            if (Arrays.stream(names).allMatch(DatasetLoader::isNumber)) {
                throw new IllegalArgumentException(
                        file
                                + ": line 1 is data ("
                                + abbreviate(header)
                                + "), not a header: add a first line naming the columns,"
                                + " x1,...,xd (and label for a class column)");
            }
            int labelColumn = -1;
            for (int c = 0; c < names.length; c++) {
                String n = names[c].trim();
                if (n.isEmpty()) {
                    throw new IllegalArgumentException(
                            file + ": line 1, column " + (c + 1) + ": empty column name");
                }
                if (n.equalsIgnoreCase("label")) {
                    if (labelColumn >= 0) {
                        throw new IllegalArgumentException(
                                file
                                        + ": line 1, column "
                                        + (c + 1)
                                        + ": second 'label' column (first is column "
                                        + (labelColumn + 1)
                                        + ")");
                    }
                    labelColumn = c;
                }
            }
            int columns = names.length;
            int d = labelColumn >= 0 ? columns - 1 : columns;
            if (d == 0) {
                throw new IllegalArgumentException(
                        file
                                + ": line 1: no coordinate columns in header '"
                                + abbreviate(header)
                                + "'");
            }
            List<double[]> points = new ArrayList<>();
            IntList labels = labelColumn >= 0 ? new IntList() : null;
            String line;
            int lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                double[] p = new double[d];
                int start = 0;
                int j = 0;
                for (int c = 0; c < columns; c++) {
                    int end = line.indexOf(',', start);
                    if (end < 0) {
                        if (c != columns - 1) {
                            throw new IllegalArgumentException(
                                    file
                                            + ": line "
                                            + lineNo
                                            + ", column "
                                            + (c + 2)
                                            + ": missing field, expected "
                                            + columns
                                            + " fields ("
                                            + abbreviate(header)
                                            + ")");
                        }
                        end = line.length();
                    } else if (c == columns - 1) {
                        throw new IllegalArgumentException(
                                file
                                        + ": line "
                                        + lineNo
                                        + ", column "
                                        + (columns + 1)
                                        + ": extra field, expected "
                                        + columns
                                        + " fields ("
                                        + abbreviate(header)
                                        + ")");
                    }
                    String field = line.substring(start, end).trim();
                    if (c == labelColumn) {
                        labels.add(parseLabel(field, file, lineNo, c, names[c]));
                    } else {
                        p[j++] = parseValue(field, file, lineNo, c, names[c]);
                    }
                    start = end + 1;
                }
                points.add(p);
            }
            return new Dataset(
                    nameOf(csv),
                    points.toArray(new double[0][]),
                    labels == null ? null : labels.toArray(),
                    DomainScaling.none());
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException(file + ": not UTF-8 text (" + e + ")", e);
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new IllegalArgumentException(
                    file + ": damaged gzip stream (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read data set " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Directory of the data sets: the system property {@value #DATASETS_PROPERTY}, else the
     * environment variable {@value #DATASETS_ENV}, else {@value #DEFAULT_DIRECTORY} relative to the
     * working directory (run from the repository root, it is the repository's own {@code data/}).
     *
     * @throws IllegalStateException if the chosen directory does not exist, naming it and the
     *     overrides
     */
    public static Path datasetDirectory() {
        String source;
        String value = System.getProperty(DATASETS_PROPERTY);
        if (value != null && !value.isBlank()) {
            source = "system property " + DATASETS_PROPERTY;
        } else {
            value = System.getenv(DATASETS_ENV);
            source = "environment variable " + DATASETS_ENV;
            if (value == null || value.isBlank()) {
                value = DEFAULT_DIRECTORY;
                source =
                        "default "
                                + DEFAULT_DIRECTORY
                                + "/ relative to the working directory "
                                + Paths.get("").toAbsolutePath()
                                + "; run from the repository root";
            }
        }
        Path dir = Paths.get(value).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException(
                    "data set directory "
                            + dir
                            + " (from "
                            + source
                            + ") does not exist; set -D"
                            + DATASETS_PROPERTY
                            + "=DIR or "
                            + DATASETS_ENV
                            + "=DIR");
        }
        return dir;
    }

    /**
     * The file of data set {@code name} in {@link #datasetDirectory()}: {@code <name>.csv}, else
     * {@code <name>.csv.gz}.
     *
     * @throws IllegalStateException if neither exists, naming both
     */
    public static Path datasetFile(String name) {
        Path dir = datasetDirectory();
        Path plain = dir.resolve(name + ".csv");
        if (Files.isRegularFile(plain)) {
            return plain;
        }
        Path gz = dir.resolve(name + ".csv.gz");
        if (Files.isRegularFile(gz)) {
            return gz;
        }
        throw new IllegalStateException(
                "data set " + name + ": neither " + plain + " nor " + gz + " exists");
    }

    /** Loads data set {@code name} from {@link #datasetFile(String)}. */
    public static Dataset load(String name) {
        return loadCsv(datasetFile(name));
    }

    /** The data set name of a file: its file name without {@code .csv} or {@code .csv.gz}. */
    public static String nameOf(Path csv) {
        String fileName = csv.getFileName().toString();
        for (String suffix : new String[] {".csv.gz", ".csv"}) {
            if (fileName.endsWith(suffix)) {
                return fileName.substring(0, fileName.length() - suffix.length());
            }
        }
        return fileName;
    }

    private static BufferedReader open(Path csv) throws IOException {
        if (!csv.getFileName().toString().endsWith(".gz")) {
            return Files.newBufferedReader(csv, StandardCharsets.UTF_8);
        }
        InputStream in = Files.newInputStream(csv);
        try {
            return new BufferedReader(
                    new InputStreamReader(new GZIPInputStream(in, 1 << 16), StandardCharsets.UTF_8),
                    1 << 16);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    private static boolean isNumber(String field) {
        try {
            Double.parseDouble(field.trim());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String abbreviate(String line) {
        return line.length() <= 40 ? line : line.substring(0, 37) + "...";
    }

    private static double parseValue(String field, String file, int line, int column, String name) {
        try {
            double v = Double.parseDouble(field);
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below with file, line and column
        }
        throw new IllegalArgumentException(
                file
                        + ": line "
                        + line
                        + ", column "
                        + (column + 1)
                        + " ("
                        + abbreviate(name.trim())
                        + "): '"
                        + abbreviate(field)
                        + "' is not a finite number");
    }

    private static int parseLabel(String field, String file, int line, int column, String name) {
        try {
            return Integer.parseInt(field);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    file
                            + ": line "
                            + line
                            + ", column "
                            + (column + 1)
                            + " ("
                            + abbreviate(name.trim())
                            + "): '"
                            + abbreviate(field)
                            + "' is not an integer label",
                    e);
        }
    }

    /** Growable primitive int array, to avoid boxing millions of labels. */
    private static final class IntList {
        private int[] values = new int[1024];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
