package org.dpclust.kmedian;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The subtree search and FIND-LEAF shared by {@link NdpHstInitializer} and {@link DpHstInitializer}
 * (docs/algorithms.md#ndp-hst), on per-node counts N_v (exact/noisy). A deterministic function of
 * the tree and the counts: with noisy counts it is post-processing.
 *
 * <p>Subtree search. Nodes other than the root are taken in order of score N_v·2^{h_v} (descending;
 * ties by the π rank of the node's centre, then by node id). Each taken node joins C1; if C1 then
 * holds an ancestor of it, that ancestor is removed and never taken again; if C1 holds a descendant
 * of it, the node itself is removed. This stops when |C1| = k. Taking nodes one at a time gives the
 * same C1 as the paper's batches of k - |C1| (a node is screened out iff C1 ends up holding one of
 * its descendants either way). The root is taken only for k = 1 (for k >= 2 it would be screened
 * out by the first node below it). Cost O(V log V + V L) for V nodes.
 *
 * <p>FIND-LEAF. From each node of C1, descend to the child with the largest count (ties: the first
 * child in π order) until a leaf, and output the leaf's centre. The C1 nodes are disjoint subtrees,
 * so the outputs are distinct points. If the tree has fewer than k leaves, the remaining centres
 * are the first points in π order not yet chosen (a public, data-independent fill).
 */
final class SubtreeSearch {
    private SubtreeSearch() {}

    /** The k selected subtree roots (C1), fewer if the tree has fewer than k leaves. */
    static int[] subtrees(Hst t, long[] counts, int k) {
        if (k < 1 || k > t.universeSize()) {
            throw new IllegalArgumentException(
                    "k must be in 1.." + t.universeSize() + ", got " + k);
        }
        if (counts.length != t.nodeCount()) {
            throw new IllegalArgumentException(
                    "counts has " + counts.length + " entries for " + t.nodeCount() + " nodes");
        }
        if (k == 1) {
            return new int[] {t.root()};
        }
        Comparator<Integer> byScore =
                Comparator.comparingDouble(
                                (Integer v) -> -Math.scalb((double) counts[v], t.level(v)))
                        .thenComparingInt(v -> t.piRank(t.centre(v)))
                        .thenComparingInt(v -> v);
        Integer[] order =
                IntStream.range(1, t.nodeCount()).boxed().sorted(byScore).toArray(Integer[]::new);
        boolean[] in = new boolean[t.nodeCount()];
        int[] selectedBelow = new int[t.nodeCount()];
        int size = 0;
        for (int idx = 0; idx < order.length && size < k; idx++) {
            int v = order[idx];
            in[v] = true;
            size++;
            for (int a = t.parent(v); a >= 0; a = t.parent(a)) {
                selectedBelow[a]++;
            }
            for (int a = t.parent(v); a >= 0; a = t.parent(a)) {
                if (in[a]) {
                    size -= remove(t, a, in, selectedBelow);
                }
            }
            if (selectedBelow[v] > 0) {
                size -= remove(t, v, in, selectedBelow);
            }
        }
        int[] out = new int[size];
        int j = 0;
        for (int v = 0; v < in.length; v++) {
            if (in[v]) {
                out[j++] = v;
            }
        }
        return out;
    }

    private static int remove(Hst t, int v, boolean[] in, int[] selectedBelow) {
        in[v] = false;
        for (int a = t.parent(v); a >= 0; a = t.parent(a)) {
            selectedBelow[a]--;
        }
        return 1;
    }

    /** FIND-LEAF from each subtree root, then the π-order fill up to k points. */
    static int[] findLeaves(Hst t, long[] counts, int[] subtreeRoots, int k) {
        int[] out = new int[k];
        boolean[] used = new boolean[t.universeSize()];
        int j = 0;
        for (int v : subtreeRoots) {
            int w = v;
            while (!t.isLeaf(w)) {
                int best = t.child(w, 0);
                for (int c = 1; c < t.childCount(w); c++) {
                    int x = t.child(w, c);
                    if (counts[x] > counts[best]) {
                        best = x;
                    }
                }
                w = best;
            }
            out[j++] = t.centre(w);
            used[t.centre(w)] = true;
        }
        int[] pi = t.permutation();
        for (int i = 0; j < k; i++) {
            if (!used[pi[i]]) {
                out[j++] = pi[i];
                used[pi[i]] = true;
            }
        }
        return out;
    }

    /** subtrees + findLeaves. */
    static int[] centres(Hst t, long[] counts, int k) {
        return findLeaves(t, counts, subtrees(t, counts, k), k);
    }
}
