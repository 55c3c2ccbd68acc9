package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/** The binary mechanism's bookkeeping: running sums, nodes per sum, horizon, noise scale. */
class BinaryTreeAggregationTest {
    private static BinaryTreeAggregation.NodeRandom keyed(String label) {
        return (h, i, x) -> TestRandoms.stream(label + "/" + h + "/" + i);
    }

    @Test
    void runningSumsAddTheNodesOfTheSetBitsAndStayWithinTheirNoise() {
        // ρ = 1e6: σ² = L/(2ρ) is tiny, so every node is exact within a unit or two
        BinaryTreeAggregation t =
                new BinaryTreeAggregation(2, 13, BigInteger.ONE, 1e6, keyed("small"));
        assertEquals(4, BinaryTreeAggregation.levels(13));
        long[] exact = new long[2];
        for (int w = 0; w < 13; w++) {
            long[] x = {w, 100 - w};
            exact[0] += x[0];
            exact[1] += x[1];
            t.add(x);
            assertEquals(Long.bitCount(w + 1), t.nodesInRunningSum());
            long[] s = t.runningSum();
            for (int i = 0; i < 2; i++) {
                assertTrue(Math.abs(s[i] - exact[i]) <= t.nodesInRunningSum(), "window " + w);
            }
        }
        assertThrows(IllegalStateException.class, () -> t.add(new long[2]), "past the horizon");
    }

    @Test
    void everyNodeHasTheVarianceOfTheWholeTreesSensitivity() {
        // T = 8: L = 4 levels, one window's Δ₂² = 9: σ² >= 4·9/(2ρ)
        BinaryTreeAggregation t =
                new BinaryTreeAggregation(1, 8, BigInteger.valueOf(9), 0.5, keyed("var"));
        assertEquals(36.0, t.variance(), 1e-9);
        double sq = 0;
        int n = 0;
        for (int rep = 0; rep < 400; rep++) {
            BinaryTreeAggregation r =
                    new BinaryTreeAggregation(
                            1, 8, BigInteger.valueOf(9), 0.5, keyed("var/" + rep));
            for (int w = 0; w < 8; w++) {
                r.add(new long[] {0});
                long[] node = r.node(0);
                sq += node[0] * (double) node[0];
                n++;
            }
        }
        assertEquals(36.0, sq / n, 36.0 * 0.1, "leaf noise variance");
    }

    @Test
    void theSameKeysReplayTheSameReleases() {
        BinaryTreeAggregation a =
                new BinaryTreeAggregation(3, 5, BigInteger.ONE, 0.1, keyed("replay"));
        BinaryTreeAggregation b =
                new BinaryTreeAggregation(3, 5, BigInteger.ONE, 0.1, keyed("replay"));
        for (int w = 0; w < 5; w++) {
            a.add(new long[] {w, 1, 2});
            b.add(new long[] {w, 1, 2});
            assertArrayEquals(a.runningSum(), b.runningSum());
        }
    }

    @Test
    void aRestoredTreeContinuesByteIdentically() {
        BinaryTreeAggregation a =
                new BinaryTreeAggregation(2, 11, BigInteger.ONE, 0.1, keyed("restore"));
        for (int w = 0; w < 6; w++) {
            a.add(new long[] {w, 3});
        }
        long[] saved = a.state();
        assertEquals(BinaryTreeAggregation.stateLongs(2, 11), saved.length);
        BinaryTreeAggregation b =
                BinaryTreeAggregation.restore(2, 11, BigInteger.ONE, 0.1, keyed("restore"), saved);
        assertArrayEquals(saved, b.state());
        assertArrayEquals(a.runningSum(), b.runningSum());
        for (int w = 6; w < 11; w++) {
            a.add(new long[] {w, 3});
            b.add(new long[] {w, 3});
            assertArrayEquals(a.runningSum(), b.runningSum(), "window " + w);
            assertArrayEquals(a.state(), b.state());
        }
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        BinaryTreeAggregation.restore(
                                2, 12, BigInteger.ONE, 0.1, keyed("restore"), new long[3]));
    }
}
