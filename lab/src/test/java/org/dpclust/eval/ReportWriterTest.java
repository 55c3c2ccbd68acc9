package org.dpclust.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes a report into a temporary directory and checks the Markdown and the PNG signature. */
class ReportWriterTest {

    /** The 8-byte PNG signature (PNG specification, §5.2). */
    private static final byte[] PNG_SIGNATURE = {
        (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'
    };

    @Test
    void writesReadmeWithAllSectionsAndAPngPlot(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        ReportWriter report = new ReportWriter(out, "S1 sweep");
        report.recordCommand("dpclust evaluate --dataset s1");
        report.recordSeed("lloyd", 1234L);
        report.recordNote("scaling: min-max [DATA-DERIVED]");
        report.addTable(
                "Quality",
                List.of("epsilon", "relative_sse", "algo|rithm"),
                List.of(List.of(0.5, 1.2345678, "a|b"), List.of(1, 1.0, "c")));
        Map<String, double[][]> series = new LinkedHashMap<>();
        series.put("dplloyd", new double[][] {{0.1, 1, 10}, {5, 2, 1.1}});
        report.addLinePlot("sse_vs_eps", "SSE vs epsilon", "epsilon", "relative SSE", series, true);
        Path readme = report.write();

        String md = Files.readString(readme);
        assertTrue(md.startsWith("# S1 sweep\n"), md);
        assertTrue(md.contains("dpclust evaluate --dataset s1"), md);
        assertTrue(md.contains("`lloyd` = 1234"), md);
        assertTrue(md.contains("java.version = " + System.getProperty("java.version")), md);
        assertTrue(md.contains("dpclust = " + org.dpclust.config.ProjectVersion.get()), md);
        assertTrue(md.contains("scaling: min-max [DATA-DERIVED]"), md);
        assertTrue(md.contains("| epsilon | relative_sse | algo\\|rithm |"), md);
        assertTrue(md.contains("| 0.5 | 1.23457 | a\\|b |"), md);
        assertTrue(md.contains("](sse_vs_eps.png)"), md);

        byte[] png = Files.readAllBytes(out.resolve("sse_vs_eps.png"));
        assertTrue(png.length > PNG_SIGNATURE.length + 100, "PNG too small: " + png.length);
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, PNG_SIGNATURE.length));
    }

    @Test
    void rejectsRowOfWrongWidthAndNonPositiveLogValues(@TempDir Path dir) {
        ReportWriter report = new ReportWriter(dir, "t");
        assertThrows(
                IllegalArgumentException.class,
                () -> report.addTable("t", List.of("a", "b"), List.of(List.of(1))));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        report.addLinePlot(
                                "p",
                                "p",
                                "x",
                                "y",
                                Map.of("s", new double[][] {{1, 2}, {1, 0}}),
                                true));
    }

    @Test
    void identicalSeriesSayWhichTheyRepeat() {
        double[] x = {1, 2, 3};
        List<ReportWriter.Series> series =
                List.of(
                        ReportWriter.Series.of("a", x, new double[] {1, 2, 3}),
                        ReportWriter.Series.of("b", x, new double[] {1, 2, 3.5}),
                        ReportWriter.Series.of("c", x, new double[] {1, 2, 3}),
                        ReportWriter.Series.of("d", x, new double[] {1.001, 2, 3.499}));
        assertEquals(
                List.of("a", "b", "c (identical to a)", "d (on top of b)"),
                ReportWriter.legendNames(series));
    }

    @Test
    void spreadIsDrawnAndExplainedUnderThePlot(@TempDir Path dir) throws IOException {
        ReportWriter report = new ReportWriter(dir, "t");
        ReportWriter.Series withSpread =
                new ReportWriter.Series(
                        "m",
                        new double[] {0.01, 0.1, 1},
                        new double[] {5, 2, 1.1},
                        new double[] {4, 1.5, 1.0},
                        new double[] {7, 3, 1.3});
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        report.addLinePlot(
                                "p", "p", "x", "y", List.of(withSpread), true, true, null));
        report.addLinePlot(
                "q",
                "q",
                "x",
                "y",
                List.of(withSpread),
                true,
                true,
                "interquartile range of 9 runs");
        String md = Files.readString(report.write());
        assertTrue(md.contains("Vertical bars: interquartile range of 9 runs."), md);
        assertTrue(Files.size(dir.resolve("q.png")) > 100);
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new ReportWriter.Series(
                                "bad", new double[] {1}, new double[] {1}, new double[] {1}, null));
    }
}
