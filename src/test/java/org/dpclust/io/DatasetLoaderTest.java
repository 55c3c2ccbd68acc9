package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Loads every data set in the repository (shapes from data/README.md) and checks malformed input.
 */
class DatasetLoaderTest {

    /** Expected shapes from data/README.md (summary table and per-file notes). */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "iris, 150, 4, 3",
        "house, 1837, 3, 0",
        "s1, 5000, 2, 15",
        "s1.centroids, 15, 2, 0",
        "birch2, 100000, 2, 100",
        "birch2_sub25k, 25000, 2, 100",
        "mnist10k, 10000, 784, 10",
        "seeds, 210, 7, 3",
        "ukm, 403, 5, 4",
    })
    void loadsEveryDataset(String name, int rows, int dims, int labelCount) {
        Dataset data = DatasetLoader.load(name);
        assertEquals(name, data.name());
        assertEquals(rows, data.size());
        assertEquals(dims, data.dimension());
        assertEquals(labelCount > 0, data.hasLabels());
        assertEquals(labelCount, data.labelCount());
        assertFalse(data.scaling().dataDerived());
    }

    @Test
    void theParameterListCoversEveryCsvInTheDataDirectory() throws IOException {
        Set<String> expected =
                Set.of(
                        "iris",
                        "house",
                        "s1",
                        "s1.centroids",
                        "birch2",
                        "birch2_sub25k",
                        "mnist10k",
                        "seeds",
                        "ukm");
        try (Stream<Path> files = Files.list(DatasetLoader.datasetDirectory())) {
            Set<String> present =
                    files.filter(p -> p.getFileName().toString().matches(".*\\.csv(\\.gz)?"))
                            .map(DatasetLoader::nameOf)
                            .collect(Collectors.toSet());
            assertEquals(expected, present);
        }
    }

    @Test
    void readsValuesAndLabelsInSourceOrder() {
        Dataset s1 = DatasetLoader.load("s1");
        // first two rows of s1.csv: 664159,550946,1 and 665845,557965,1
        assertArrayEquals(new double[] {664159, 550946}, s1.points()[0]);
        assertArrayEquals(new double[] {665845, 557965}, s1.points()[1]);
        assertEquals(1, s1.labels()[0]);
        // seeds classes 1,2,3 with 70 rows each (README)
        Dataset seeds = DatasetLoader.load("seeds");
        assertEquals(70, java.util.Arrays.stream(seeds.labels()).filter(l -> l == 2).count());
    }

    @Test
    void malformedNumberNamesFileLineAndColumn(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "x1,x2,label\n1,2,0\n3,abc,1\n");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> DatasetLoader.loadCsv(csv));
        assertTrue(e.getMessage().contains(csv.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
        assertTrue(e.getMessage().contains("column 2"), e.getMessage());
    }

    @Test
    void wrongFieldCountAndBadLabelAreReported(@TempDir Path dir) throws IOException {
        Path shortRow = dir.resolve("short.csv");
        Files.writeString(shortRow, "x1,x2,x3\n1,2,3\n\n4,5\n");
        IllegalArgumentException e1 =
                assertThrows(IllegalArgumentException.class, () -> DatasetLoader.loadCsv(shortRow));
        assertTrue(e1.getMessage().contains("line 4, column 3"), e1.getMessage());

        Path longRow = dir.resolve("long.csv");
        Files.writeString(longRow, "x1,x2\n1,2,3\n");
        IllegalArgumentException e2 =
                assertThrows(IllegalArgumentException.class, () -> DatasetLoader.loadCsv(longRow));
        assertTrue(e2.getMessage().contains("line 2, column 3"), e2.getMessage());

        Path badLabel = dir.resolve("label.csv");
        Files.writeString(badLabel, "x1,label\n1,0\n2,1.5\n");
        IllegalArgumentException e3 =
                assertThrows(IllegalArgumentException.class, () -> DatasetLoader.loadCsv(badLabel));
        assertTrue(e3.getMessage().contains("line 3, column 2 (label)"), e3.getMessage());
    }

    @Test
    void labelColumnIsOptionalAndDetectedByName(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("tiny.csv");
        Files.writeString(csv, "x1,x2\n1.5,-2\n3e2,4");
        Dataset data = DatasetLoader.loadCsv(csv);
        assertNull(data.labels());
        assertEquals("tiny", data.name());
        assertArrayEquals(new double[] {300, 4}, data.points()[1]);
    }

    @Test
    void gzippedFileReadsLikeThePlainOneAndIsFoundByName(@TempDir Path dir) throws IOException {
        String text = "x1,x2,label\n1.5,-2,0\n3e2,4,1\n";
        Path plain = Files.writeString(dir.resolve("tiny.csv"), text);
        Path gz = dir.resolve("packed.csv.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        Dataset a = DatasetLoader.loadCsv(plain);
        Dataset b = DatasetLoader.loadCsv(gz);
        assertEquals("packed", b.name());
        assertArrayEquals(a.labels(), b.labels());
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(a.points()[i], b.points()[i]);
        }
        String old = System.getProperty(DatasetLoader.DATASETS_PROPERTY);
        try {
            System.setProperty(DatasetLoader.DATASETS_PROPERTY, dir.toString());
            assertEquals(gz, DatasetLoader.datasetFile("packed"));
            assertEquals(plain, DatasetLoader.datasetFile("tiny"));
            IllegalStateException e =
                    assertThrows(
                            IllegalStateException.class, () -> DatasetLoader.datasetFile("none"));
            assertTrue(e.getMessage().contains("none.csv.gz"), e.getMessage());
        } finally {
            restore(old);
        }
    }

    @Test
    void defaultDirectoryIsTheRepositorysDataDirectory() {
        String old = System.getProperty(DatasetLoader.DATASETS_PROPERTY);
        try {
            System.clearProperty(DatasetLoader.DATASETS_PROPERTY);
            String env = System.getenv(DatasetLoader.DATASETS_ENV);
            String expected = env == null || env.isBlank() ? "data" : env;
            assertEquals(
                    Path.of(expected).toAbsolutePath().normalize(),
                    DatasetLoader.datasetDirectory());
            assertTrue(Files.isRegularFile(DatasetLoader.datasetDirectory().resolve("README.md")));
        } finally {
            restore(old);
        }
    }

    private static void restore(String old) {
        if (old == null) {
            System.clearProperty(DatasetLoader.DATASETS_PROPERTY);
        } else {
            System.setProperty(DatasetLoader.DATASETS_PROPERTY, old);
        }
    }

    @Test
    void datasetDirectoryHonoursSystemPropertyAndFailsClearly(@TempDir Path dir) {
        String old = System.getProperty(DatasetLoader.DATASETS_PROPERTY);
        try {
            System.setProperty(DatasetLoader.DATASETS_PROPERTY, dir.toString());
            assertEquals(dir.toAbsolutePath().normalize(), DatasetLoader.datasetDirectory());
            Path missing = dir.resolve("nope");
            System.setProperty(DatasetLoader.DATASETS_PROPERTY, missing.toString());
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, DatasetLoader::datasetDirectory);
            assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
            assertTrue(e.getMessage().contains(DatasetLoader.DATASETS_PROPERTY), e.getMessage());
        } finally {
            restore(old);
        }
    }
}
