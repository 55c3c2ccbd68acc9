package org.dpclust.batch;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.dpclust.geometry.Diameters;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.geometry.WeightedGraph;

/**
 * The PUBLIC universe U of the k-median batch algorithms ({@link KMedianAlgorithm}): either a
 * finite point set with the l1 or l2 metric (from {@code --universe CSV}) or the nodes 0..n-1 of a
 * weighted graph with the shortest-path metric (from an edge list). U, its metric and its diameter
 * are public: they are configuration, never derived from the demand set.
 *
 * <p>Demand. The demand set D (the snapshot, private) is a multiset of points of U: a vector record
 * is snapped to its nearest point of U under the universe's metric (ties to the lowest index) — a
 * public function applied to each record on its own, so adding or removing one record adds or
 * removes one demand point; a graph record is a node id (one column, an integer in 0..n-1),
 * otherwise it is an error.
 *
 * <p>Diameter. Every DP sensitivity is Δ = diam(U) ({@link #diameter()}): the EXACT diameter
 * ({@link Diameters#exact}, pruned all pairs) — affordable for the universes the CLI takes (|U| up
 * to a few thousand in well under a second; mnist10k-sized sets in seconds) and it costs no
 * privacy, since U is public. Computed once, lazily.
 *
 * <p>{@link #toString()} is a stable description (kind, size, SHA-256 of the content) so that the
 * universe, a public parameter, is part of the release's noise key through {@link BatchParams}.
 */
public final class KMedianUniverse implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The metric of U. */
    public enum Kind {
        L1,
        L2,
        GRAPH
    }

    private final Kind kind;
    private final double[][] points;
    private final int nodes;
    private final int[] from;
    private final int[] to;
    private final double[] weight;
    private final String digest;
    private transient Metric metric;

    /** Not transient: a transient NaN would deserialize as 0.0 and pass for a computed diameter. */
    private double diameter = Double.NaN;

    private KMedianUniverse(
            Kind kind, double[][] points, int nodes, int[] from, int[] to, double[] weight) {
        this.kind = kind;
        this.points = points;
        this.nodes = nodes;
        this.from = from;
        this.to = to;
        this.weight = weight;
        this.digest = digest();
    }

    /** A vector universe (l1 or l2); the array is kept, not copied. */
    public static KMedianUniverse vectors(double[][] points, Kind kind) {
        if (kind == Kind.GRAPH) {
            throw new IllegalArgumentException("--metric: a vector universe needs l1 or l2");
        }
        if (points.length == 0) {
            throw new IllegalArgumentException("--universe: the universe is empty");
        }
        return new KMedianUniverse(kind, points, points.length, null, null, null);
    }

    /** A graph universe: nodes 0..n-1, undirected weighted edges (must be connected). */
    public static KMedianUniverse graph(int n, int[] from, int[] to, double[] weight) {
        KMedianUniverse u = new KMedianUniverse(Kind.GRAPH, null, n, from, to, weight);
        u.metric(); // validates: connected, weights >= 0, endpoints in range
        return u;
    }

    /**
     * Reads an edge list: one edge per line, {@code from,to,weight} (commas or whitespace), node
     * ids 0..n-1 with n = 1 + the largest id; blank lines, lines starting with '#' and a
     * non-numeric first line (a header) are skipped. Every problem names {@code option}.
     */
    public static KMedianUniverse readEdgeList(Path file, String option) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    option + ": cannot read " + file + ": " + e.getMessage(), e);
        }
        List<int[]> ends = new ArrayList<>();
        List<Double> w = new ArrayList<>();
        int max = -1;
        for (int ln = 0; ln < lines.size(); ln++) {
            String line = lines.get(ln).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("[,\\s]+");
            if (ln == 0 && !f[0].matches("-?\\d+")) {
                continue; // header
            }
            if (f.length != 3) {
                throw new IllegalArgumentException(
                        option
                                + ": "
                                + file
                                + " line "
                                + (ln + 1)
                                + ": expected from,to,weight, got '"
                                + line
                                + "'");
            }
            try {
                int a = Integer.parseInt(f[0]);
                int b = Integer.parseInt(f[1]);
                ends.add(new int[] {a, b});
                w.add(Double.parseDouble(f[2]));
                max = Math.max(max, Math.max(a, b));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        option + ": " + file + " line " + (ln + 1) + ": " + e.getMessage(), e);
            }
        }
        if (ends.isEmpty()) {
            throw new IllegalArgumentException(option + ": " + file + " has no edges");
        }
        int[] a = new int[ends.size()];
        int[] b = new int[ends.size()];
        double[] ww = new double[ends.size()];
        for (int e = 0; e < a.length; e++) {
            a[e] = ends.get(e)[0];
            b[e] = ends.get(e)[1];
            ww[e] = w.get(e);
        }
        try {
            return graph(max + 1, a, b, ww);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + file + ": " + e.getMessage(), e);
        }
    }

    public Kind kind() {
        return kind;
    }

    public int size() {
        return nodes;
    }

    /**
     * The metric of U (the graph's rows are all cached: every Dijkstra row is computed at most
     * once).
     */
    public synchronized Metric metric() {
        if (metric == null) {
            metric =
                    switch (kind) {
                        case L1 -> VectorMetric.l1(points);
                        case L2 -> VectorMetric.l2(points);
                        case GRAPH -> new WeightedGraph(nodes, from, to, weight, nodes);
                    };
        }
        return metric;
    }

    /** Δ = diam(U), exact (public, computed once). */
    public synchronized double diameter() {
        if (Double.isNaN(diameter)) {
            Metric m = metric();
            int pivot = m instanceof VectorMetric vm ? Diameters.nearestToMean(points, vm) : 0;
            diameter = Diameters.exact(m, pivot).diameter();
            if (!(diameter > 0)) {
                throw new IllegalArgumentException(
                        "--universe: the universe has diameter 0 (all points equal)");
            }
        }
        return diameter;
    }

    /** The demand set: each record snapped to its point of U (see the class comment). */
    public int[] snap(double[][] records) {
        int[] out = new int[records.length];
        for (int r = 0; r < records.length; r++) {
            double[] x = records[r];
            if (kind == Kind.GRAPH) {
                if (x.length != 1 || x[0] != Math.rint(x[0]) || x[0] < 0 || x[0] >= nodes) {
                    throw new IllegalArgumentException(
                            "--input: record "
                                    + r
                                    + " is not a node id in 0.."
                                    + (nodes - 1)
                                    + " (a graph demand file has one column of node ids)");
                }
                out[r] = (int) x[0];
                continue;
            }
            if (x.length != points[0].length) {
                throw new IllegalArgumentException(
                        "--input: record "
                                + r
                                + " has dimension "
                                + x.length
                                + ", the universe "
                                + points[0].length);
            }
            VectorMetric vm = (VectorMetric) metric();
            int best = 0;
            double bestD = Double.POSITIVE_INFINITY;
            for (int u = 0; u < points.length; u++) {
                double d = vm.between(x, points[u]);
                if (d < bestD) {
                    bestD = d;
                    best = u;
                }
            }
            out[r] = best;
        }
        return out;
    }

    /** The output coordinates of universe point u: its vector, or {u} for a graph node. */
    public double[] coordinates(int u) {
        return kind == Kind.GRAPH ? new double[] {u} : points[u].clone();
    }

    private String digest() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            StringBuilder sb = new StringBuilder(kind.name()).append(nodes);
            if (points != null) {
                ByteBuffer buf = ByteBuffer.allocate(8 * points[0].length);
                for (double[] p : points) {
                    buf.clear();
                    for (double v : p) {
                        buf.putDouble(v);
                    }
                    md.update(buf.array(), 0, buf.position());
                }
            } else {
                for (int e = 0; e < from.length; e++) {
                    sb.append(';')
                            .append(from[e])
                            .append(',')
                            .append(to[e])
                            .append(',')
                            .append(weight[e]);
                }
            }
            md.update(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "KMedianUniverse[%s, size=%d, sha256=%s]",
                kind.name().toLowerCase(Locale.ROOT),
                nodes,
                digest);
    }
}
