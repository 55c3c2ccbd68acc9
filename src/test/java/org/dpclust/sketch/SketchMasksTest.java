package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.dpclust.privacy.RecordPrf;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class SketchMasksTest {

    /**
     * The reference: the first r entries of a textbook partial Fisher–Yates shuffle of a fresh
     * identity permutation, drawn from the identity's PRF stream.
     */
    private static int[] reference(int m, int r, byte[] identity) {
        RecordPrf prf =
                RecordPrf.of(
                        TestRandoms.SECRET, SketchMasks.DOMAIN.getBytes(StandardCharsets.UTF_8), 1);
        prf.reset(identity);
        int[] perm = new int[m];
        for (int j = 0; j < m; j++) {
            perm[j] = j;
        }
        for (int i = 0; i < r; i++) {
            int pick = i + prf.nextInt(m - i);
            int tmp = perm[i];
            perm[i] = perm[pick];
            perm[pick] = tmp;
        }
        int[] out = new int[r];
        System.arraycopy(perm, 0, out, 0, r);
        return out;
    }

    @Test
    void masksAreThePartialFisherYatesOfTheIdentitysStreamWhateverCameBefore() {
        SplittableRandom rng = new SplittableRandom(5);
        for (int[] shape : new int[][] {{1000, 100}, {1000, 1000}, {31, 5}, {8, 1}, {64, 63}}) {
            SketchMasks masks = new SketchMasks(shape[0], shape[1], TestRandoms.SECRET);
            for (int i = 0; i < 300; i++) { // one instance, many identities: the reuse is undone
                byte[] id = new byte[1 + rng.nextInt(40)];
                rng.nextBytes(id);
                assertArrayEquals(reference(shape[0], shape[1], id), masks.of(id));
            }
        }
    }

    @Test
    void aBatchOfMasksEqualsTheMasksOneByOne() {
        SplittableRandom rng = new SplittableRandom(6);
        for (int[] shape : new int[][] {{1000, 100}, {31, 5}, {8, 1}, {64, 63}}) {
            SketchMasks batch = new SketchMasks(shape[0], shape[1], TestRandoms.SECRET);
            SketchMasks single = new SketchMasks(shape[0], shape[1], TestRandoms.SECRET);
            for (int n : new int[] {1, 5, 128, 3}) { // the work array shrinks in use, never in size
                byte[][] ids = new byte[n][];
                for (int i = 0; i < n; i++) {
                    ids[i] = new byte[rng.nextInt(130)];
                    rng.nextBytes(ids[i]);
                }
                int[] all = batch.ofAll(ids, n).clone();
                for (int i = 0; i < n; i++) {
                    int[] one = single.of(ids[i]);
                    for (int j = 0; j < shape[1]; j++) {
                        assertEquals(
                                one[j], all[i * shape[1] + j], "identity " + i + ", pick " + j);
                    }
                }
                // one-by-one masks from the batch's own instance after a batch: still the same
                assertArrayEquals(single.of(ids[0]), batch.of(ids[0]));
            }
        }
    }

    @Test
    void aThreadKeepsOneInstancePerShapeAndSecretAcrossAlternatingStreams() {
        SketchMasks a = SketchMasks.forThread(1000, 300, TestRandoms.SECRET);
        SketchMasks b = SketchMasks.forThread(1000, 301, TestRandoms.SECRET);
        // windows of two stream shapes opening alternately share their shape's instance
        org.junit.jupiter.api.Assertions.assertSame(
                a, SketchMasks.forThread(1000, 300, TestRandoms.SECRET));
        org.junit.jupiter.api.Assertions.assertSame(
                b, SketchMasks.forThread(1000, 301, TestRandoms.SECRET));
        org.junit.jupiter.api.Assertions.assertNotSame(a, b);
    }
}
