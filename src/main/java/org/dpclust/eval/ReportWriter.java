package org.dpclust.eval;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpclust.config.ProjectVersion;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Builds a reproducible experiment report in a directory: a {@code README.md} with the title, the
 * command line, the seeds, the versions (Java and dpclust), free-form notes (e.g. the {@link
 * DomainScaling#describe()} line), Markdown tables, and links to PNG line plots.
 *
 * <p>Contract: the output directory is created if needed. Plots are written as PNG immediately by
 * {@link #addLinePlot}; {@code README.md} is (re)written by {@link #write()}, so call it last.
 * Cells are rendered with {@code String.valueOf}, except floating-point numbers which are shown
 * with 6 significant digits; {@code |} and line breaks in cells are escaped. Not thread-safe.
 */
public final class ReportWriter {

    private static final MathContext SIX_DIGITS = new MathContext(6);

    private final Path outDir;
    private final String title;
    private final List<String> commands = new ArrayList<>();
    private final Map<String, Long> seeds = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> sections = new ArrayList<>();

    /** A report titled {@code title} that will be written into {@code outDir}. */
    public ReportWriter(Path outDir, String title) {
        this.outDir = Objects.requireNonNull(outDir, "outDir");
        this.title = Objects.requireNonNull(title, "title");
    }

    /** Records a command line that reproduces the experiment. */
    public ReportWriter recordCommand(String command) {
        commands.add(command);
        return this;
    }

    /** Records a named public seed (later values for the same name replace earlier ones). */
    public ReportWriter recordSeed(String name, long seed) {
        seeds.put(name, seed);
        return this;
    }

    /** Records a note line, e.g. the data set's scaling description or the privacy label. */
    public ReportWriter recordNote(String note) {
        notes.add(note);
        return this;
    }

    /**
     * Adds a Markdown table under heading {@code name}.
     *
     * @throws IllegalArgumentException if a row's length differs from the number of columns
     */
    public ReportWriter addTable(String name, List<String> columns, List<List<Object>> rows) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("table " + name + " has no columns");
        }
        StringBuilder sb = new StringBuilder();
        sb.append("## ").append(name).append("\n\n|");
        for (String c : columns) {
            sb.append(' ').append(cell(c)).append(" |");
        }
        sb.append("\n|");
        sb.append("---|".repeat(columns.size()));
        sb.append('\n');
        for (int r = 0; r < rows.size(); r++) {
            List<Object> row = rows.get(r);
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException(
                        "table "
                                + name
                                + ", row "
                                + r
                                + " has "
                                + row.size()
                                + " cells, expected "
                                + columns.size());
            }
            sb.append('|');
            for (Object v : row) {
                sb.append(' ').append(cell(v)).append(" |");
            }
            sb.append('\n');
        }
        sections.add(sb.toString());
        return this;
    }

    /**
     * Writes a PNG line plot {@code outDir/fileName} (".png" appended if missing) and links it from
     * the report. {@code series} maps a legend name to {@code {x[], y[]}} of equal length.
     *
     * @throws IllegalArgumentException on mismatched lengths, or {@code logY} with a y ≤ 0
     */
    public ReportWriter addLinePlot(
            String fileName,
            String title,
            String xLabel,
            String yLabel,
            Map<String, double[][]> series,
            boolean logY) {
        String file = fileName.endsWith(".png") ? fileName : fileName + ".png";
        XYChart chart =
                new XYChartBuilder()
                        .width(800)
                        .height(500)
                        .title(title)
                        .xAxisTitle(xLabel)
                        .yAxisTitle(yLabel)
                        .build();
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(false); // label ticks between decades too
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            double[][] xy = e.getValue();
            if (xy.length != 2 || xy[0].length != xy[1].length || xy[0].length == 0) {
                throw new IllegalArgumentException(
                        "series " + e.getKey() + " must be {x[], y[]} of equal, positive length");
            }
            if (logY) {
                for (double y : xy[1]) {
                    if (!(y > 0)) {
                        throw new IllegalArgumentException(
                                "series " + e.getKey() + " has y = " + y + " on a log axis");
                    }
                }
            }
            chart.addSeries(e.getKey(), xy[0], xy[1]);
        }
        try {
            Files.createDirectories(outDir);
            try (OutputStream out = Files.newOutputStream(outDir.resolve(file))) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + outDir.resolve(file), e);
        }
        sections.add("## " + title + "\n\n![" + cell(title) + "](" + file + ")\n");
        return this;
    }

    /** Writes {@code outDir/README.md} and returns its path. */
    public Path write() {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title).append("\n\n");
        sb.append("## Reproduce\n\n");
        if (commands.isEmpty()) {
            sb.append("(no command recorded)\n");
        } else {
            sb.append("```\n");
            commands.forEach(c -> sb.append(c).append('\n'));
            sb.append("```\n");
        }
        sb.append("\n## Seeds\n\n");
        if (seeds.isEmpty()) {
            sb.append("(none recorded)\n");
        } else {
            seeds.forEach(
                    (k, v) -> sb.append("- `").append(k).append("` = ").append(v).append('\n'));
        }
        sb.append("\n## Versions\n\n");
        sb.append("- java.version = ").append(System.getProperty("java.version")).append('\n');
        sb.append("- dpclust = ").append(dpclustVersion()).append('\n');
        if (!notes.isEmpty()) {
            sb.append("\n## Notes\n\n");
            notes.forEach(n -> sb.append("- ").append(n).append('\n'));
        }
        for (String s : sections) {
            sb.append('\n').append(s);
        }
        Path readme = outDir.resolve("README.md");
        try {
            Files.createDirectories(outDir);
            Files.writeString(readme, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write report " + readme, e);
        }
        return readme;
    }

    /** The project version from the pom ({@link ProjectVersion}). */
    public static String dpclustVersion() {
        return ProjectVersion.get();
    }

    static String cell(Object v) {
        String s;
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            s =
                    Double.isFinite(d)
                            ? new BigDecimal(d)
                                    .round(SIX_DIGITS)
                                    .stripTrailingZeros()
                                    .toPlainString()
                            : String.valueOf(d);
        } else {
            s = String.valueOf(v);
        }
        return s.replace("|", "\\|").replace("\r", " ").replace("\n", " ");
    }
}
