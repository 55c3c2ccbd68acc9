package org.dpclust.kmedian;

/**
 * NDP-HST initialisation (see docs/algorithms.md#ndp-hst): exact counts N_v = |D ∩ T(v)| on a
 * {@link Hst}, subtree search by score N_v·2^{h_v} with ancestor screening, then FIND-LEAF. Not
 * private: the output depends deterministically on the demand set D. Returns k distinct universe
 * points lying in k disjoint subtrees (see {@link SubtreeSearch} for ties and trees with fewer than
 * k leaves). With D = U this is the paper's box.
 */
public final class NdpHstInitializer {
    private NdpHstInitializer() {}

    /**
     * @param demand the demand set as a multiset of universe indices
     * @param k number of centres, 1 <= k <= |U|
     */
    public static int[] initialize(Hst tree, int[] demand, int k) {
        return SubtreeSearch.centres(tree, tree.counts(demand), k);
    }
}
