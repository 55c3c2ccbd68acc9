package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void aThreadKeepsOneInstancePerShapeAndSecretAcrossAlternatingStreams() throws Exception {
        // on a fresh thread: what other tests left on this one must not fill its 16 places
        Thread t = new Thread(SketchMasksTest::keepsOneInstancePerShape);
        java.util.concurrent.atomic.AtomicReference<Throwable> failure =
                new java.util.concurrent.atomic.AtomicReference<>();
        t.setUncaughtExceptionHandler((th, e) -> failure.set(e));
        t.start();
        t.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    private static void keepsOneInstancePerShape() {
        SketchMasks a = SketchMasks.forThread(1000, 300, TestRandoms.SECRET);
        SketchMasks b = SketchMasks.forThread(1000, 301, TestRandoms.SECRET);
        // windows of two stream shapes opening alternately share their shape's instance
        org.junit.jupiter.api.Assertions.assertSame(
                a, SketchMasks.forThread(1000, 300, TestRandoms.SECRET));
        org.junit.jupiter.api.Assertions.assertSame(
                b, SketchMasks.forThread(1000, 301, TestRandoms.SECRET));
        org.junit.jupiter.api.Assertions.assertNotSame(a, b);
    }

    @Test
    void blockMasksAreTheConsecutiveRunFromTheIdentitysOwnUniformOffset() {
        SplittableRandom rng = new SplittableRandom(7);
        for (int[] shape : new int[][] {{1000, 100}, {31, 5}, {8, 1}, {64, 63}, {10, 10}}) {
            int m = shape[0];
            int r = shape[1];
            SketchMasks masks = new SketchMasks(m, r, SketchMasks.Shape.BLOCK, TestRandoms.SECRET);
            RecordPrf prf =
                    RecordPrf.of(
                            TestRandoms.SECRET,
                            // the literal: a changed domain changes every mask (a new version)
                            "dpclust/sketch-mask-block/v1".getBytes(StandardCharsets.UTF_8),
                            1);
            byte[][] ids = new byte[200][];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = new byte[rng.nextInt(130)];
                rng.nextBytes(ids[i]);
            }
            int[] offsets = masks.offsetsOf(ids, ids.length).clone();
            int[] all = masks.ofAll(ids, ids.length).clone();
            for (int i = 0; i < ids.length; i++) {
                prf.reset(ids[i]);
                int o = prf.nextInt(m); // the reference: an exact uniform draw from the stream
                assertEquals(o, masks.offsetOf(ids[i]));
                assertEquals(o, offsets[i], "batch offset " + i);
                int[] one = masks.of(ids[i]);
                for (int j = 0; j < r; j++) {
                    assertEquals((o + j) % m, one[j], "identity " + i + ", position " + j);
                    assertEquals(one[j], all[i * r + j], "batch mask " + i + ", position " + j);
                }
            }
        }
    }

    @Test
    void blockAndUniformMasksOfAnIdentityAreIndependentDraws() {
        // separate PRF domains: a block mask's offset is not the uniform mask's first pick
        SketchMasks block = new SketchMasks(1000, 100, SketchMasks.Shape.BLOCK, TestRandoms.SECRET);
        SketchMasks uniform = new SketchMasks(1000, 100, TestRandoms.SECRET);
        int same = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] id = ("device-" + i).getBytes(StandardCharsets.UTF_8);
            same += block.offsetOf(id) == uniform.of(id)[0] ? 1 : 0;
        }
        assertTrue(same < 10, same + " of 2000 offsets equal the uniform mask's first index");
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class, () -> uniform.offsetOf(new byte[1]));
        org.junit.jupiter.api.Assertions.assertNotSame(
                SketchMasks.forThread(1000, 100, TestRandoms.SECRET),
                SketchMasks.forThread(1000, 100, SketchMasks.Shape.BLOCK, TestRandoms.SECRET));
    }
}
