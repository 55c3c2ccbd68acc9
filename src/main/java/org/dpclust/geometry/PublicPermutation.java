package org.dpclust.geometry;

import java.util.SplittableRandom;

/** Uniformly random permutations of 0..n-1 from public randomness (Fisher–Yates). */
public final class PublicPermutation {
    private PublicPermutation() {}

    /**
     * A uniform permutation of 0..n-1 drawn from {@code rng} (public randomness, not privacy
     * noise).
     */
    public static int[] of(int n, SplittableRandom rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
