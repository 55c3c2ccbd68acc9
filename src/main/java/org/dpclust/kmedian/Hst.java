package org.dpclust.kmedian;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.PublicPermutation;

/**
 * A 2-HST (hierarchically well-separated tree) over a finite public universe U = {0..n-1} with any
 * {@link Metric}: "Build 2-HST(U, L)" of Fan et al. (docs/algorithms.md#2-hst) with the off-by-one
 * fixed. Everything here is public: the tree is a function of U, the metric, the public diameter
 * bound Δ and the public seed; it holds no demand data.
 *
 * <p>Construction. π is a uniformly random permutation of U and β is Uniform[1/2, 1] (or 1 when
 * {@code randomBeta} is off), both drawn from {@code SplittableRandom(publicSeed)}. The root (depth
 * 0) holds all of U. A node at depth t-1 with more than one point is split with radius r_t = β Δ /
 * 2^t: going through its points in π order, each point u not yet assigned to a child becomes the
 * centre of a new child holding the unassigned points within r_t of u (u included). Nodes with one
 * point, and nodes at depth {@code maxLevels}, are leaves. With L the depth of the deepest node, a
 * node at depth t has level h = L + 1 - t: levels descend from the root (level L + 1, not a
 * decomposition level) to 1, and r_t = β Δ / 2^{L - h + 1} is the paper's radius with the
 * off-by-one fixed (level L uses Δ/2, not Δ).
 *
 * <p>Ids. Nodes are numbered breadth-first from the root (id 0), the children of a node in the π
 * order of their centres, so node ids, levels and the tree are identical for the same (universe,
 * metric, Δ, seed, options): a stream can key state by node id across windows. The representative
 * point of a node is its centre, the first point of the node in π order (it lies in the node).
 *
 * <p>Tree metric. The edge from a level-h node to its parent weighs Δ / 2^{L - h} (= Δ/2^{t-1} at
 * depth t). Two points whose lowest common ancestor is at depth s lie within r_s of its centre, so
 * ρ(x, y) <= 2βΔ/2^s <= Δ/2^{s-1} (<= Δ at the root), while their tree distance is at least twice
 * the edge below the LCA, 2Δ/2^s: hence tree distance >= ρ whenever Δ >= diam(U). Points sharing a
 * leaf (possible only at depth maxLevels) are at tree distance 0.
 *
 * <p>Cost: splitting a node with m points into c children takes O(m c) distance evaluations.
 */
public final class Hst {

    /**
     * Construction options.
     *
     * @param publicSeed seed of π and β (public randomness)
     * @param maxLevels depth cap L_max >= 1 (the paper uses L = 8 for DP); the tree stops earlier
     *     when every leaf is a single point
     * @param randomBeta draw β ~ U[1/2, 1] (FRT) instead of β = 1
     */
    public record Options(long publicSeed, int maxLevels, boolean randomBeta) {
        public Options {
            if (maxLevels < 1 || maxLevels > 60) {
                throw new IllegalArgumentException("maxLevels must be in 1..60, got " + maxLevels);
            }
        }
    }

    private final int n;
    private final int levels;
    private final double delta;
    private final double beta;
    private final int[] permutation;
    private final int[] piRank;
    private final int[] parent;
    private final int[] level;
    private final int[] centre;
    private final int[] size;
    private final int[][] children;
    private final int[] leafOf;

    private Hst(
            int n,
            int levels,
            double delta,
            double beta,
            int[] permutation,
            List<int[]> nodes,
            int[] leafOf) {
        this.n = n;
        this.levels = levels;
        this.delta = delta;
        this.beta = beta;
        this.permutation = permutation;
        this.piRank = new int[n];
        for (int i = 0; i < n; i++) {
            piRank[permutation[i]] = i;
        }
        int m = nodes.size();
        parent = new int[m];
        level = new int[m];
        centre = new int[m];
        size = new int[m];
        int[] childCount = new int[m];
        for (int v = 0; v < m; v++) {
            int[] rec = nodes.get(v); // {parent, depth, centre, size}
            parent[v] = rec[0];
            level[v] = levels + 1 - rec[1];
            centre[v] = rec[2];
            size[v] = rec[3];
            if (rec[0] >= 0) {
                childCount[rec[0]]++;
            }
        }
        children = new int[m][];
        for (int v = 0; v < m; v++) {
            children[v] = new int[childCount[v]];
            childCount[v] = 0;
        }
        for (int v = 1; v < m; v++) {
            children[parent[v]][childCount[parent[v]]++] = v;
        }
        this.leafOf = leafOf;
    }

    /**
     * Builds the tree.
     *
     * @param metric the public universe's metric
     * @param delta a public upper bound on diam(U) (e.g. {@link Metric#diameterUpperBound()}); the
     *     tree-distance domination needs delta >= the true diameter
     * @throws IllegalArgumentException for an empty universe or a non-positive/non-finite delta
     */
    public static Hst build(Metric metric, double delta, Options options) {
        int n = metric.size();
        if (n < 1) {
            throw new IllegalArgumentException("universe must not be empty");
        }
        if (!(delta > 0) || Double.isInfinite(delta)) {
            throw new IllegalArgumentException("delta must be finite and > 0, got " + delta);
        }
        SplittableRandom rng =
                new SplittableRandom(options.publicSeed()); // public randomness (not privacy noise)
        int[] pi = PublicPermutation.of(n, rng);
        double beta = options.randomBeta() ? 0.5 + 0.5 * rng.nextDouble() : 1.0;

        List<int[]> nodes = new ArrayList<>(); // {parent, depth, centre, size}
        List<int[]> members =
                new ArrayList<>(); // points of each node in π order (dropped once split)
        nodes.add(new int[] {-1, 0, pi[0], n});
        members.add(pi.clone());
        int[] leafOf = new int[n];
        int maxDepth = 0;
        for (int v = 0; v < nodes.size(); v++) {
            int[] pts = members.get(v);
            members.set(v, null);
            int depth = nodes.get(v)[1];
            if (pts.length == 1 || depth == options.maxLevels()) {
                for (int p : pts) {
                    leafOf[p] = v;
                }
                continue;
            }
            maxDepth = Math.max(maxDepth, depth + 1);
            double radius = radius(beta, delta, depth);
            int[] remaining = pts;
            int remainingCount = pts.length;
            while (remainingCount > 0) {
                int u = remaining[0];
                int[] part = new int[remainingCount];
                int[] rest = new int[remainingCount];
                int np = 0;
                int nr = 0;
                for (int a = 0; a < remainingCount; a++) {
                    int x = remaining[a];
                    if (a == 0 || metric.distance(u, x) <= radius) {
                        part[np++] = x;
                    } else {
                        rest[nr++] = x;
                    }
                }
                nodes.add(new int[] {v, depth + 1, u, np});
                members.add(Arrays.copyOf(part, np));
                remaining = rest;
                remainingCount = nr;
            }
        }
        return new Hst(n, maxDepth, delta, beta, pi, nodes, leafOf);
    }

    /** The radius that splits a node at depth {@code depth} (the root is at depth 0). */
    private static double radius(double beta, double delta, int depth) {
        return Math.scalb(beta * delta, -(depth + 1));
    }

    /**
     * The radius r_{t+1} = βΔ/2^{t+1} with which node v, at depth t, was split into its children: a
     * point of v belongs to the first child (in π order) whose centre is within it.
     */
    public double splitRadius(int v) {
        return radius(beta, delta, levels + 1 - level[v]);
    }

    /** Number of universe points. */
    public int universeSize() {
        return n;
    }

    /**
     * L: the number of decomposition levels; the root is at level L + 1, the deepest leaves at 1.
     */
    public int levels() {
        return levels;
    }

    /** The public diameter bound Δ used for the radii and edge weights. */
    public double delta() {
        return delta;
    }

    /** The β actually used (1 when randomBeta is off). */
    public double beta() {
        return beta;
    }

    public int nodeCount() {
        return parent.length;
    }

    /** The root's id, always 0. */
    public int root() {
        return 0;
    }

    /** Parent of node v (-1 for the root). */
    public int parent(int v) {
        return parent[v];
    }

    /** Level of node v: L + 1 at the root, decreasing by one per edge. */
    public int level(int v) {
        return level[v];
    }

    /** Children of v in π order of their centres (a copy). */
    public int[] children(int v) {
        return children[v].clone();
    }

    int childCount(int v) {
        return children[v].length;
    }

    int child(int v, int i) {
        return children[v][i];
    }

    public boolean isLeaf(int v) {
        return children[v].length == 0;
    }

    /** Representative point of v: its centre, the first point of T(v) in π order. */
    public int centre(int v) {
        return centre[v];
    }

    /** Number of universe points in the subtree T(v). */
    public int universeCount(int v) {
        return size[v];
    }

    /** The leaf holding point x. */
    public int leafOf(int x) {
        return leafOf[x];
    }

    /** Position of point x in the permutation π (smaller = earlier). */
    public int piRank(int x) {
        return piRank[x];
    }

    /** The permutation π as a copy: π[0] is the first point. */
    public int[] permutation() {
        return permutation.clone();
    }

    /** Weight of the edge from a node at level h (1 <= h <= L) to its parent: Δ / 2^{L - h}. */
    public double edgeWeight(int h) {
        return Math.scalb(delta, h - levels);
    }

    /** True if a is an ancestor of b or a == b. */
    public boolean isAncestorOrSelf(int a, int b) {
        while (level[b] < level[a]) {
            b = parent[b];
        }
        return a == b;
    }

    /** Tree distance between points x and y: sum of edge weights on the leaf-to-leaf path. */
    public double treeDistance(int x, int y) {
        int a = leafOf[x];
        int b = leafOf[y];
        double d = 0;
        while (a != b) {
            if (level[a] <= level[b]) {
                d += edgeWeight(level[a]);
                a = parent[a];
            } else {
                d += edgeWeight(level[b]);
                b = parent[b];
            }
        }
        return d;
    }

    /**
     * Exact counts |D ∩ T(v)| for every node v, D given as a multiset of universe indices. A demand
     * point adds 1 to each node on its leaf-to-root path, i.e. to at most one node per level.
     */
    public long[] counts(int[] demand) {
        long[] c = new long[nodeCount()];
        for (int x : demand) {
            if (x < 0 || x >= n) {
                throw new IllegalArgumentException(
                        "demand point " + x + " outside the universe 0.." + (n - 1));
            }
            for (int v = leafOf[x]; v >= 0; v = parent[v]) {
                c[v]++;
            }
        }
        return c;
    }

    /**
     * Exact counts for every node from per-universe-point multiplicities ({@code multiplicity[x]}
     * demand points at x): the same as {@link #counts(int[])} on the expanded multiset, in O(n ·
     * levels).
     */
    public long[] countsFromMultiplicities(long[] multiplicity) {
        if (multiplicity.length != n) {
            throw new IllegalArgumentException(
                    "expected " + n + " multiplicities, got " + multiplicity.length);
        }
        long[] c = new long[nodeCount()];
        for (int x = 0; x < n; x++) {
            long m = multiplicity[x];
            if (m != 0) {
                for (int v = leafOf[x]; v >= 0; v = parent[v]) {
                    c[v] += m;
                }
            }
        }
        return c;
    }

    /** Node ids on the path from the leaf of x up to, excluding, the root (one per level). */
    public int[] pathBelowRoot(int x) {
        List<Integer> path = new ArrayList<>();
        for (int v = leafOf[x]; v > 0; v = parent[v]) {
            path.add(v);
        }
        return path.stream().mapToInt(Integer::intValue).toArray();
    }
}
