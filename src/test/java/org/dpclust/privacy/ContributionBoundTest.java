package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ContributionBoundTest {
    /** Applies offers in the given order; returns the kept hashes, sorted. */
    private static long[] keep(List<Long> hashes, int c) {
        long[] kept = new long[0];
        for (long h : hashes) {
            int d = ContributionBound.offer(kept, 1, h, c);
            if (d == ContributionBound.APPEND) {
                kept = Arrays.copyOf(kept, kept.length + 1);
                kept[kept.length - 1] = h;
            } else if (d >= 0) {
                kept[d] = h;
            }
        }
        long[] sorted = kept.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    @Test
    void keepsTheCSmallestHashesWhateverTheArrivalOrder() {
        SplittableRandom rng = new SplittableRandom(3); // public randomness (not privacy noise)
        List<Long> hashes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            hashes.add(rng.nextLong() >>> 1);
        }
        List<Long> sorted = new ArrayList<>(hashes);
        Collections.sort(sorted);
        long[] expected = sorted.subList(0, 5).stream().mapToLong(Long::longValue).toArray();
        for (int trial = 0; trial < 20; trial++) {
            Collections.shuffle(
                    hashes, new java.util.Random(trial)); // public randomness (not privacy noise)
            assertEquals(
                    Arrays.toString(expected), Arrays.toString(keep(hashes, 5)), "order " + trial);
        }
    }

    @Test
    void fewerRecordsThanTheBoundAreAllKept() {
        assertEquals(3, keep(List.of(9L, 1L, 5L), 4).length);
    }
}
