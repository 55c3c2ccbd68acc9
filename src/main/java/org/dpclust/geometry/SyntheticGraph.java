package org.dpclust.geometry;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Fan et al.'s synthetic graphs (docs/algorithms.md#fan-et-al-experiments): n nodes split at random
 * into C clusters; each pair of nodes in the same cluster is joined with probability p by an edge
 * of weight U(0, 1); each pair of clusters gets {@code crossEdges} random edges of weight U(0.5,
 * r). Larger r makes the clusters more separable (the paper uses r = 1 and r = 100).
 *
 * <p>The paper's values of p and C were lost; they are parameters here with documented defaults
 * ({@link #DEFAULT_CLUSTERS} = 10, {@link #DEFAULT_INTRA_PROBABILITY} = 0.2, both recalled, not
 * verified) and so is the number of cross edges per cluster pair ({@link #DEFAULT_CROSS_EDGES}, our
 * choice: the paper says "some"). So that the shortest-path metric is finite, each cluster's nodes
 * are additionally chained in their random order by edges of weight U(0, 1) (a reconstruction: at
 * the default p a cluster of 300 nodes is connected anyway). Everything is drawn from the public
 * seed; the graph is public.
 *
 * @param n number of nodes
 * @param labels cluster of each node, 0..clusters-1
 * @param from edge endpoints
 * @param to edge endpoints
 * @param weight edge weights
 */
public record SyntheticGraph(int n, int[] labels, int[] from, int[] to, double[] weight) {

    public static final int DEFAULT_CLUSTERS = 10;
    public static final double DEFAULT_INTRA_PROBABILITY = 0.2;
    public static final int DEFAULT_CROSS_EDGES = 3;

    /** The paper's setting with the documented defaults: 10 clusters, p = 0.2, 3 cross edges. */
    public static SyntheticGraph generate(int n, double r, long publicSeed) {
        return generate(
                n, DEFAULT_CLUSTERS, DEFAULT_INTRA_PROBABILITY, DEFAULT_CROSS_EDGES, r, publicSeed);
    }

    /**
     * @throws IllegalArgumentException if n < clusters, clusters < 1, p not in [0,1], crossEdges <
     *     0 (0 is allowed only with one cluster) or r < 0.5
     */
    public static SyntheticGraph generate(
            int n, int clusters, double p, int crossEdges, double r, long publicSeed) {
        if (clusters < 1 || n < clusters) {
            throw new IllegalArgumentException(
                    "need 1 <= clusters <= n, got " + clusters + " and " + n);
        }
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("p must be in [0, 1], got " + p);
        }
        if (crossEdges < 0 || (crossEdges == 0 && clusters > 1)) {
            throw new IllegalArgumentException(
                    "crossEdges must be >= 1 with several clusters, got " + crossEdges);
        }
        if (!(r >= 0.5) || Double.isInfinite(r)) {
            throw new IllegalArgumentException("r must be finite and >= 0.5, got " + r);
        }
        SplittableRandom rng =
                new SplittableRandom(publicSeed); // public randomness (not privacy noise)
        int[] order = PublicPermutation.of(n, rng);
        int[] labels = new int[n];
        List<List<Integer>> members = new ArrayList<>();
        for (int c = 0; c < clusters; c++) {
            members.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            int c = i < clusters ? i : rng.nextInt(clusters); // every cluster non-empty
            labels[order[i]] = c;
            members.get(c).add(order[i]);
        }
        List<int[]> ends = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        for (List<Integer> m : members) {
            for (int a = 0; a < m.size(); a++) {
                if (a > 0) {
                    ends.add(new int[] {m.get(a - 1), m.get(a)});
                    weights.add(rng.nextDouble());
                }
                for (int b = a + 1; b < m.size(); b++) {
                    if (rng.nextDouble() < p) {
                        ends.add(new int[] {m.get(a), m.get(b)});
                        weights.add(rng.nextDouble());
                    }
                }
            }
        }
        for (int c1 = 0; c1 < clusters; c1++) {
            for (int c2 = c1 + 1; c2 < clusters; c2++) {
                List<Integer> m1 = members.get(c1);
                List<Integer> m2 = members.get(c2);
                for (int e = 0; e < crossEdges; e++) {
                    ends.add(
                            new int[] {
                                m1.get(rng.nextInt(m1.size())), m2.get(rng.nextInt(m2.size()))
                            });
                    weights.add(0.5 + (r - 0.5) * rng.nextDouble());
                }
            }
        }
        int[] from = new int[ends.size()];
        int[] to = new int[ends.size()];
        double[] w = new double[ends.size()];
        for (int e = 0; e < from.length; e++) {
            from[e] = ends.get(e)[0];
            to[e] = ends.get(e)[1];
            w[e] = weights.get(e);
        }
        return new SyntheticGraph(n, labels, from, to, w);
    }

    /** The shortest-path metric of this graph (default cache budget). */
    public WeightedGraph metric() {
        return new WeightedGraph(n, from, to, weight);
    }
}
