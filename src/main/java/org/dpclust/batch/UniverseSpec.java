package org.dpclust.batch;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpclust.io.DatasetLoader;

/**
 * How the public universe U of the k-median algorithms is given ({@code --universe}, {@code
 * --metric}, {@code --graph}):
 *
 * <ul>
 *   <li>{@code --universe U.csv} with {@code --metric l1|l2} (default l2): U is that point set;
 *   <li>{@code --metric graph --graph EDGES}: U is the graph's nodes, the input a one-column CSV of
 *       node ids;
 *   <li>{@code --metric graph} alone: U is the graph of the input edge list, and the demand set is
 *       every node once ({@link #demandIsEveryNode()}).
 * </ul>
 *
 * No option at all means no universe (the other algorithms). Every inconsistent combination is an
 * {@link IllegalArgumentException} naming the option.
 *
 * @param metric {@code --metric}, or null
 * @param universe {@code --universe}, or null
 * @param graph {@code --graph}, or null
 */
public record UniverseSpec(String metric, Path universe, Path graph) {

    /** Whether any universe option was given. */
    public boolean given() {
        return metric != null || universe != null || graph != null;
    }

    /** Whether the input is the edge list itself and the demand set every node once. */
    public boolean demandIsEveryNode() {
        return "graph".equals(metric) && graph == null;
    }

    /**
     * The universe, or null when no universe option was given.
     *
     * @param input the {@code --input} file (the edge list when {@link #demandIsEveryNode()})
     */
    public KMedianUniverse load(Path input) {
        if (!given()) {
            return null;
        }
        String m = metric == null ? "l2" : metric;
        if (m.equals("graph")) {
            if (universe != null) {
                throw new IllegalArgumentException(
                        "--universe: --metric graph takes the universe from --graph"
                                + " (or from --input, an edge list)");
            }
            return KMedianUniverse.readEdgeList(
                    graph != null ? graph : input, graph != null ? "--graph" : "--input");
        }
        if (!m.equals("l1") && !m.equals("l2")) {
            throw new IllegalArgumentException(
                    "--metric: expected l1, l2 or graph, was '" + m + "'");
        }
        if (graph != null) {
            throw new IllegalArgumentException("--graph: needs --metric graph");
        }
        if (universe == null) {
            throw new IllegalArgumentException(
                    "--universe: --metric " + m + " needs the public universe U as a CSV");
        }
        if (!Files.isRegularFile(universe)) {
            throw new IllegalArgumentException("--universe: no such file " + universe);
        }
        return KMedianUniverse.vectors(
                DatasetLoader.loadCsv(universe).points(),
                m.equals("l1") ? KMedianUniverse.Kind.L1 : KMedianUniverse.Kind.L2);
    }
}
