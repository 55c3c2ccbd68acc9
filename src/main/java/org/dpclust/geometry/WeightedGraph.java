package org.dpclust.geometry;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Shortest-path metric of a connected, undirected graph with non-negative edge weights, given as an
 * edge list over nodes 0..n-1 (parallel edges allowed: the lightest counts). Public: the graph is
 * the public universe.
 *
 * <p>Distances: one Dijkstra run (binary heap, O(m log n)) gives a whole row distance(i, ·). Rows
 * are cached in a bounded LRU map of {@code cacheRows} rows (doubles, 8n bytes each), and
 * distance(i, j) is answered from the cached row of i or of j (the metric is symmetric) before a
 * new row is computed. Why a bounded row cache and not a full matrix: the algorithms here read
 * distances row-wise (from a demand point or from a tree centre to many points), so a row is the
 * natural unit and one Dijkstra costs about as much as n single-pair queries would; a full matrix
 * would cost n Dijkstra runs up front and 8n^2 bytes (72 MB for the paper's n = 3000) even when a
 * few hundred rows are used. With {@code cacheRows >= n} the cache holds the full matrix and every
 * row is computed at most once. The default {@link #DEFAULT_CACHE_ENTRIES} bounds the cache to 2^22
 * doubles (32 MB). Not thread-safe (the LRU map is mutated on reads).
 */
public final class WeightedGraph implements Metric {

    /** Default cache budget in doubles (32 MB): cacheRows = max(1, min(n, this / n)). */
    public static final int DEFAULT_CACHE_ENTRIES = 1 << 22;

    private final int n;
    private final int[] adjStart;
    private final int[] adjNode;
    private final double[] adjWeight;
    private final LinkedHashMap<Integer, double[]> cache;
    private long dijkstraRuns;

    /** Graph with the default cache budget. */
    public WeightedGraph(int n, int[] from, int[] to, double[] weight) {
        this(n, from, to, weight, Math.max(1, Math.min(n, DEFAULT_CACHE_ENTRIES / Math.max(1, n))));
    }

    /**
     * @throws IllegalArgumentException if the arrays differ in length, an endpoint is out of range,
     *     a weight is negative or not finite, or the graph is not connected
     */
    public WeightedGraph(int n, int[] from, int[] to, double[] weight, int cacheRows) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        if (from.length != to.length || from.length != weight.length) {
            throw new IllegalArgumentException("from, to and weight must have equal lengths");
        }
        if (cacheRows < 1) {
            throw new IllegalArgumentException("cacheRows must be >= 1, got " + cacheRows);
        }
        this.n = n;
        int[] degree = new int[n + 1];
        for (int e = 0; e < from.length; e++) {
            if (from[e] < 0 || from[e] >= n || to[e] < 0 || to[e] >= n) {
                throw new IllegalArgumentException(
                        "edge " + e + " has an endpoint outside 0.." + (n - 1));
            }
            if (!(weight[e] >= 0) || Double.isInfinite(weight[e])) {
                throw new IllegalArgumentException(
                        "edge " + e + " has weight " + weight[e] + ", expected finite >= 0");
            }
            degree[from[e] + 1]++;
            degree[to[e] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            degree[v + 1] += degree[v];
        }
        adjStart = degree.clone();
        adjNode = new int[2 * from.length];
        adjWeight = new double[2 * from.length];
        int[] fill = Arrays.copyOf(degree, n);
        for (int e = 0; e < from.length; e++) {
            adjNode[fill[from[e]]] = to[e];
            adjWeight[fill[from[e]]++] = weight[e];
            adjNode[fill[to[e]]] = from[e];
            adjWeight[fill[to[e]]++] = weight[e];
        }
        cache =
                new LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<Integer, double[]> eldest) {
                        return size() > cacheRows;
                    }
                };
        double[] row0 = row(0);
        for (int v = 0; v < n; v++) {
            if (Double.isInfinite(row0[v])) {
                throw new IllegalArgumentException(
                        "graph is not connected: node " + v + " unreachable from 0");
            }
        }
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public double distance(int i, int j) {
        double[] r = cache.get(i);
        if (r != null) {
            return r[j];
        }
        r = cache.get(j);
        if (r != null) {
            return r[i];
        }
        return row(i)[j];
    }

    @Override
    public double[] distancesFrom(int i) {
        return row(i).clone();
    }

    /** Number of Dijkstra runs so far (for tests and benchmarks of the cache). */
    public long dijkstraRuns() {
        return dijkstraRuns;
    }

    private double[] row(int source) {
        double[] r = cache.get(source);
        if (r == null) {
            r = dijkstra(source);
            cache.put(source, r);
        }
        return r;
    }

    private double[] dijkstra(int source) {
        dijkstraRuns++;
        double[] dist = new double[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        dist[source] = 0;
        PriorityQueue<double[]> heap = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
        heap.add(new double[] {0, source});
        boolean[] done = new boolean[n];
        while (!heap.isEmpty()) {
            double[] top = heap.poll();
            int u = (int) top[1];
            if (done[u]) {
                continue;
            }
            done[u] = true;
            for (int a = adjStart[u]; a < adjStart[u + 1]; a++) {
                int v = adjNode[a];
                double nd = top[0] + adjWeight[a];
                if (nd < dist[v]) {
                    dist[v] = nd;
                    heap.add(new double[] {nd, v});
                }
            }
        }
        return dist;
    }
}
