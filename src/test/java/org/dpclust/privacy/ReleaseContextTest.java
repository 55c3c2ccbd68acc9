package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReleaseContextTest {
    private static final byte[] D = {1, 2, 3};

    @Test
    void encodingIsInjectiveOnTrickyPairs() {
        List<ReleaseContext> cs =
                List.of(
                        new ReleaseContext("ab", 0, "c", "m", D),
                        new ReleaseContext("a", 0, "bc", "m", D),
                        new ReleaseContext("a", 0, "b", "cm", D),
                        new ReleaseContext("", 0, "abc", "m", D),
                        new ReleaseContext("ab", 1, "c", "m", D),
                        new ReleaseContext("ab", 0, "c", "m", new byte[] {1, 2}),
                        new ReleaseContext("ab", 0, "c", "m", new byte[] {1, 2, 3, 0}),
                        new ReleaseContext("ab", 0, "c", "m\u0000", D),
                        new ReleaseContext("ab", 256, "c", "m", D),
                        new ReleaseContext("ab", Long.MIN_VALUE, "c", "m", D));
        for (int i = 0; i < cs.size(); i++) {
            for (int j = i + 1; j < cs.size(); j++) {
                assertFalse(
                        Arrays.equals(cs.get(i).canonicalBytes(), cs.get(j).canonicalBytes()),
                        cs.get(i) + " vs " + cs.get(j));
                assertNotEquals(cs.get(i), cs.get(j));
            }
        }
    }

    @Test
    void equalityUsesDigestContentsAndDigestIsCopied() {
        byte[] d = {9, 9};
        ReleaseContext a = new ReleaseContext("s", 5, "alg", "laplace", d);
        d[0] = 0;
        ReleaseContext b = new ReleaseContext("s", 5, "alg", "laplace", new byte[] {9, 9});
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertArrayEquals(a.canonicalBytes(), b.canonicalBytes());
        a.accumulatorDigest()[0] = 7;
        assertEquals(a, b);
    }

    @Test
    void rejectsNulls() {
        assertThrows(
                IllegalArgumentException.class, () -> new ReleaseContext(null, 0, "a", "m", D));
        assertThrows(
                IllegalArgumentException.class, () -> new ReleaseContext("s", 0, "a", "m", null));
    }
}
