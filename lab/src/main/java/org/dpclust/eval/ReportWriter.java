package org.dpclust.eval;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpclust.config.ProjectVersion;
import org.dpclust.io.DomainScaling;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

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
     * One line of a plot: {@code y} over {@code x}, and optionally a spread ({@code low[i]} to
     * {@code high[i]} at {@code x[i]}, e.g. the interquartile range of the runs a median
     * summarises, or a 95% interval of a mean), drawn as a vertical bar in the line's colour.
     */
    public record Series(String name, double[] x, double[] y, double[] low, double[] high) {
        public Series {
            Objects.requireNonNull(name);
            if (x.length != y.length || x.length == 0) {
                throw new IllegalArgumentException(
                        "series " + name + " must have x and y of equal, positive length");
            }
            if ((low == null) != (high == null)
                    || (low != null && (low.length != x.length || high.length != x.length))) {
                throw new IllegalArgumentException(
                        "series " + name + ": low and high must both be given, as long as x");
            }
        }

        /** A line without spread. */
        public static Series of(String name, double[] x, double[] y) {
            return new Series(name, x, y, null, null);
        }
    }

    /** Line colours; a series and its spread bars share one. */
    private static final Color[] COLORS = {
        new Color(31, 119, 180),
        new Color(255, 127, 14),
        new Color(44, 160, 44),
        new Color(214, 39, 40),
        new Color(148, 103, 189),
        new Color(140, 86, 75),
        new Color(227, 119, 194),
        new Color(127, 127, 127),
        new Color(188, 189, 34),
        new Color(23, 190, 207)
    };

    private static final Marker[] MARKERS = {
        SeriesMarkers.CIRCLE,
        SeriesMarkers.DIAMOND,
        SeriesMarkers.SQUARE,
        SeriesMarkers.TRIANGLE_UP,
        SeriesMarkers.TRIANGLE_DOWN,
        SeriesMarkers.CROSS,
        SeriesMarkers.PLUS
    };

    private static final BasicStroke[] STROKES = {
        SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.DOT_DOT, SeriesLines.DASH_DOT
    };

    /**
     * {@link #addLinePlot(String, String, String, String, List, boolean, boolean, String)} for
     * series without spread on a linear x axis; {@code series} maps a legend name to {@code {x[],
     * y[]}}.
     */
    public ReportWriter addLinePlot(
            String fileName,
            String title,
            String xLabel,
            String yLabel,
            Map<String, double[][]> series,
            boolean logY) {
        List<Series> lines = new ArrayList<>();
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            double[][] xy = e.getValue();
            if (xy.length != 2) {
                throw new IllegalArgumentException("series " + e.getKey() + " must be {x[], y[]}");
            }
            lines.add(Series.of(e.getKey(), xy[0], xy[1]));
        }
        return addLinePlot(fileName, title, xLabel, yLabel, lines, false, logY, null);
    }

    /**
     * Writes a PNG line plot {@code outDir/fileName} (".png" appended if missing) and links it from
     * the report. Made to be read: every series has its own marker and line style (so overlapping
     * lines stay distinguishable), a series identical to an earlier one says so in the legend
     * ("identical to X"), a log axis spans whole decades and labels every decade, and a series'
     * spread is drawn as vertical bars, explained under the plot by {@code spreadNote}.
     *
     * @param spreadNote what the bars are (e.g. "interquartile range over 10 trials"); required
     *     when a series has a spread
     * @throws IllegalArgumentException on a value ≤ 0 on a log axis, or a spread without a note
     */
    public ReportWriter addLinePlot(
            String fileName,
            String title,
            String xLabel,
            String yLabel,
            List<Series> series,
            boolean logX,
            boolean logY,
            String spreadNote) {
        String file = fileName.endsWith(".png") ? fileName : fileName + ".png";
        boolean spread = series.stream().anyMatch(l -> l.low() != null);
        if (spread && (spreadNote == null || spreadNote.isBlank())) {
            throw new IllegalArgumentException("plot " + file + ": a spread needs a note");
        }
        XYChart chart =
                new XYChartBuilder()
                        .width(800)
                        .height(500)
                        .title(title)
                        .xAxisTitle(xLabel)
                        .yAxisTitle(yLabel)
                        .build();
        chart.getStyler().setMarkerSize(8);
        List<double[]> xs = new ArrayList<>();
        List<double[]> ys = new ArrayList<>();
        for (Series l : series) {
            xs.add(l.x());
            ys.add(l.y());
            if (l.low() != null) {
                ys.add(l.low());
                ys.add(l.high());
            }
        }
        double xMin = xs.stream().flatMapToDouble(Arrays::stream).min().orElse(0);
        double xRange = xs.stream().flatMapToDouble(Arrays::stream).max().orElse(0) - xMin;
        int xDecades = 0;
        if (logX) {
            xDecades =
                    decadeAxis(
                            xs,
                            "x",
                            file,
                            chart.getStyler()::setXAxisMin,
                            chart.getStyler()::setXAxisMax);
            chart.getStyler().setXAxisLogarithmic(true);
            chart.getStyler().setXAxisLogarithmicDecadeOnly(true);
        }
        if (logY) {
            int decades =
                    decadeAxis(
                            ys,
                            "y",
                            file,
                            chart.getStyler()::setYAxisMin,
                            chart.getStyler()::setYAxisMax);
            chart.getStyler().setYAxisLogarithmic(true);
            // over one or two decades the 2..9 ticks help; the decades are labelled either way
            chart.getStyler().setYAxisLogarithmicDecadeOnly(decades > 2);
        }
        List<String> legend = legendNames(series);
        for (int i = 0; i < series.size(); i++) {
            Series l = series.get(i);
            String name = legend.get(i);
            Color color = COLORS[i % COLORS.length];
            XYSeries s = chart.addSeries(name, l.x(), l.y());
            s.setLineColor(color);
            s.setMarkerColor(color);
            s.setMarker(MARKERS[i % MARKERS.length]);
            s.setLineStyle(STROKES[(i / MARKERS.length + i) % STROKES.length]);
            if (l.low() != null) {
                // bars of different series at the same x are set slightly apart (dodged)
                double dodge = (i - (series.size() - 1) / 2.0) * 0.008;
                for (int p = 0; p < l.x().length; p++) {
                    double bx =
                            logX
                                    ? l.x()[p] * Math.pow(10, dodge * xDecades)
                                    : l.x()[p] + dodge * xRange;
                    XYSeries bar =
                            chart.addSeries(
                                    name + " spread " + p,
                                    new double[] {bx, bx},
                                    new double[] {l.low()[p], l.high()[p]});
                    bar.setShowInLegend(false);
                    bar.setMarker(SeriesMarkers.NONE);
                    bar.setLineColor(color);
                    bar.setLineStyle(SeriesLines.SOLID);
                    bar.setLineWidth(1.2f);
                }
            }
        }
        try {
            Files.createDirectories(outDir);
            try (OutputStream out = Files.newOutputStream(outDir.resolve(file))) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + outDir.resolve(file), e);
        }
        sections.add(
                "## "
                        + title
                        + "\n\n!["
                        + cell(title)
                        + "]("
                        + file
                        + ")\n"
                        + (spread ? "\nVertical bars: " + spreadNote + ".\n" : ""));
        return this;
    }

    /**
     * The legend: each series' name, with "(identical to X)" when its points equal those of an
     * earlier series X, or "(on top of X)" when they are within {@value #OVERLAP} of the plot's y
     * span of X's everywhere (either would otherwise be hidden under X).
     */
    static List<String> legendNames(List<Series> series) {
        double lo = series.stream().flatMapToDouble(l -> Arrays.stream(l.y())).min().orElse(0);
        double hi = series.stream().flatMapToDouble(l -> Arrays.stream(l.y())).max().orElse(0);
        double touching = OVERLAP * (hi - lo);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
            Series l = series.get(i);
            String name = l.name();
            for (int j = 0; j < i; j++) {
                Series earlier = series.get(j);
                if (!Arrays.equals(l.x(), earlier.x())) {
                    continue;
                }
                if (Arrays.equals(l.y(), earlier.y())) {
                    name = name + " (identical to " + earlier.name() + ")";
                    break;
                }
                double gap = 0;
                for (int p = 0; p < l.y().length; p++) {
                    gap = Math.max(gap, Math.abs(l.y()[p] - earlier.y()[p]));
                }
                if (gap <= touching) {
                    name = name + " (on top of " + earlier.name() + ")";
                    break;
                }
            }
            names.add(name);
        }
        return names;
    }

    /** Two lines closer than this fraction of the plot's y span everywhere are drawn as one. */
    static final double OVERLAP = 0.005;

    /**
     * Sets a log axis to the whole decades around every value (so the first and last labels are
     * decades); returns the number of decades spanned.
     */
    private static int decadeAxis(
            List<double[]> values,
            String axis,
            String file,
            java.util.function.Consumer<Double> setMin,
            java.util.function.Consumer<Double> setMax) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double[] vs : values) {
            for (double v : vs) {
                if (!(v > 0) || !Double.isFinite(v)) {
                    throw new IllegalArgumentException(
                            "plot " + file + ": " + axis + " = " + v + " on a log axis");
                }
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        int lo = (int) Math.floor(Math.log10(min) + 1e-9);
        int hi = (int) Math.ceil(Math.log10(max) - 1e-9);
        if (hi <= lo) {
            hi = lo + 1;
        }
        setMin.accept(Math.pow(10, lo));
        setMax.accept(Math.pow(10, hi));
        return hi - lo;
    }

    /** Writes the report, {@code README.md} in {@code outDir}, and returns its path. */
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
