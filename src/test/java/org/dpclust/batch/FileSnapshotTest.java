package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.DatasetLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file run's snapshot, its output directory and the universe options. */
class FileSnapshotTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {10, 10});

    @Test
    void recordsAreClampedIntoTheDeclaredBoundsAndAHeaderOnlyFileIsEmpty(@TempDir Path dir)
            throws Exception {
        Path csv = dir.resolve("pts.csv");
        Files.writeString(csv, "x1,x2\n-5,3\n4,12\n");
        FileSnapshot s = FileSnapshot.load(csv, BOX, null);
        assertEquals("pts", s.name());
        assertEquals(2, s.dimension());
        assertArrayEquals(new double[] {0, 3}, s.points()[0], 0.0);
        assertArrayEquals(new double[] {4, 10}, s.points()[1], 0.0);
        Path empty = dir.resolve("empty.csv");
        Files.writeString(empty, "x1,x2\n");
        assertEquals(0, FileSnapshot.load(empty, BOX, null).points().length);
    }

    @Test
    void aDimensionOtherThanTheBoundsOrAMissingFileNamesTheOption(@TempDir Path dir)
            throws Exception {
        Path csv = dir.resolve("three.csv");
        Files.writeString(csv, "x1,x2,x3\n1,2,3\n");
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> FileSnapshot.load(csv, BOX, null))
                        .getMessage()
                        .startsWith("--bounds"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> FileSnapshot.load(dir.resolve("none.csv"), BOX, null))
                        .getMessage()
                        .startsWith("--input"));
    }

    @Test
    void anEdgeListInputMakesEveryNodeADemandPoint(@TempDir Path dir) throws Exception {
        Path edges = dir.resolve("g.csv");
        Files.writeString(edges, "from,to,weight\n0,1,1\n1,2,2\n");
        UniverseSpec spec = new UniverseSpec("graph", null, null);
        assertTrue(spec.demandIsEveryNode());
        KMedianUniverse u = spec.load(edges);
        FileSnapshot s = FileSnapshot.load(edges, null, u);
        assertEquals(u.size(), s.points().length);
        for (int v = 0; v < u.size(); v++) {
            assertArrayEquals(new double[] {v}, s.points()[v], 0.0);
        }
    }

    @Test
    void universeOptionsThatDoNotFitNameTheOption(@TempDir Path dir) throws Exception {
        Path u = dir.resolve("u.csv");
        Files.writeString(u, "x1,x2\n0,0\n1,1\n");
        assertEquals(null, new UniverseSpec(null, null, null).load(u));
        assertEquals(2, new UniverseSpec(null, u, null).load(u).size());
        String[][] bad = {
            {"l2", null, null, "--universe"},
            {"l3", "u", null, "--metric"},
            {"graph", "u", null, "--universe"},
            {"l1", "u", "g", "--graph"}
        };
        for (String[] b : bad) {
            UniverseSpec spec =
                    new UniverseSpec(b[0], b[1] == null ? null : u, b[2] == null ? null : u);
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> spec.load(u));
            assertTrue(e.getMessage().startsWith(b[3]), e.getMessage());
        }
    }

    @Test
    void theOutputDirectoryHoldsCentroidsThatReadBackExactlyAndTheSummary(@TempDir Path dir)
            throws Exception {
        double[][] c = {{0.1, 1.0 / 3}, {7, -2.5e-9}};
        OutputDirectory out = new OutputDirectory(dir.resolve("a/b"));
        out.write(c, Map.of("algorithm", "stats"));
        double[][] read = DatasetLoader.loadCsv(out.centroidsFile()).points();
        assertArrayEquals(c[0], read[0], 0.0);
        assertArrayEquals(c[1], read[1], 0.0);
        assertTrue(
                Files.readString(dir.resolve("a/b/" + OutputDirectory.SUMMARY))
                        .contains("\"algorithm\" : \"stats\""));
    }
}
