package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Loads every shared CSV (shapes from provenance notes) and checks malformed-input errors. */
class DatasetLoaderTest {

    /** Expected shapes from the datasets' provenance notes (summary table and per-file notes). */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "iris, 150, 4, 3",
        "house, 1837, 3, 0",
        "s1, 5000, 2, 15",
        "s1.centroids, 15, 2, 0",
        "s1_su2016, 5000, 2, 15",
        "s1_su2016.centroids, 15, 2, 0",
        "birch2, 100000, 2, 100",
        "birch2_sub25k, 25000, 2, 100",
        "mnist10k, 10000, 784, 10",
        "digits8x8, 1797, 64, 10",
        "seeds, 210, 7, 3",
        "ukm, 403, 5, 4",
    })
    void loadsEverySharedDataset(String name, int rows, int dims, int labelCount) {
        Dataset data = DatasetLoader.loadShared(name);
        assertEquals(name, data.name());
        assertEquals(rows, data.size());
        assertEquals(dims, data.dimension());
        assertEquals(labelCount > 0, data.hasLabels());
        assertEquals(labelCount, data.labelCount());
        assertFalse(data.scaling().dataDerived());
    }

    @Test
    void theParameterListCoversEveryCsvInTheSharedDirectory() throws IOException {
        Set<String> expected =
                Set.of(
                        "iris",
                        "house",
                        "s1",
                        "s1.centroids",
                        "s1_su2016",
                        "s1_su2016.centroids",
                        "birch2",
                        "birch2_sub25k",
                        "mnist10k",
                        "digits8x8",
                        "seeds",
                        "ukm");
        try (Stream<Path> files = Files.list(DatasetLoader.sharedDatasets())) {
            Set<String> present =
                    files.map(p -> p.getFileName().toString())
                            .filter(f -> f.endsWith(".csv"))
                            .map(f -> f.substring(0, f.length() - 4))
                            .collect(Collectors.toSet());
            assertEquals(expected, present);
        }
    }

    @Test
    void readsValuesAndLabelsInSourceOrder() {
        Dataset s1 = DatasetLoader.loadShared("s1");
        // first two rows of s1.csv: 664159,550946,1 and 665845,557965,1
        assertArrayEquals(new double[] {664159, 550946}, s1.points()[0]);
        assertArrayEquals(new double[] {665845, 557965}, s1.points()[1]);
        assertEquals(1, s1.labels()[0]);
        // seeds classes 1,2,3 with 70 rows each (README)
        Dataset seeds = DatasetLoader.loadShared("seeds");
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
    void sharedDatasetsHonoursSystemPropertyAndFailsClearly(@TempDir Path dir) {
        String old = System.getProperty(DatasetLoader.DATASETS_PROPERTY);
        try {
            System.setProperty(DatasetLoader.DATASETS_PROPERTY, dir.toString());
            assertEquals(dir.toAbsolutePath().normalize(), DatasetLoader.sharedDatasets());
            Path missing = dir.resolve("nope");
            System.setProperty(DatasetLoader.DATASETS_PROPERTY, missing.toString());
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, DatasetLoader::sharedDatasets);
            assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
            assertTrue(e.getMessage().contains(DatasetLoader.DATASETS_PROPERTY), e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty(DatasetLoader.DATASETS_PROPERTY);
            } else {
                System.setProperty(DatasetLoader.DATASETS_PROPERTY, old);
            }
        }
    }
}
