package org.dpclust.sketch;

import static org.dpclust.sketch.SketchMasks.Shape.BLOCK;
import static org.dpclust.sketch.SketchMasks.Shape.UNIFORM;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class MaskedSketchTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {-1, 0, 10}, new double[] {1, 5, 20});

    private static FrequencyMatrix freq(int m) {
        return FrequencyMatrix.draw(m, 3, 0.1, FrequencyMatrix.Law.GAUSSIAN, 77);
    }

    private static double[] record(SplittableRandom rng) {
        // a little outside the box on purpose: clamping must keep the sensitivity
        return new double[] {
            rng.nextDouble(-1.2, 1.2), rng.nextDouble(-0.5, 5.5), rng.nextDouble(9, 21)
        };
    }

    private static byte[] id(long i) {
        return ByteBuffer.allocate(8).putLong(i).array();
    }

    @Test
    void mergeOfPartsEqualsSketchOfUnionBitwise() {
        SplittableRandom rng = new SplittableRandom(1);
        FrequencyMatrix f = freq(40);
        MaskedSketch a = new MaskedSketch(f, BOX, 7, TestRandoms.SECRET);
        MaskedSketch b = new MaskedSketch(f, BOX, 7, TestRandoms.SECRET);
        MaskedSketch union = new MaskedSketch(f, BOX, 7, TestRandoms.SECRET);
        for (int i = 0; i < 500; i++) {
            double[] x = record(rng);
            (i % 3 == 0 ? a : b).add(x, id(i));
            union.add(x, id(i));
        }
        a.merge(b);
        assertArrayEquals(union.state(), a.state());
        assertArrayEquals(union.digest(), a.digest());
        assertEquals(500, a.count());
    }

    @Test
    void stateAndMasksAreIndependentOfRecordOrder() {
        SplittableRandom rng = new SplittableRandom(2);
        FrequencyMatrix f = freq(30);
        List<double[]> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            records.add(record(rng));
        }
        MaskedSketch forward = new MaskedSketch(f, BOX, 5, TestRandoms.SECRET);
        for (int i = 0; i < records.size(); i++) {
            forward.add(records.get(i), id(i));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            order.add(i);
        }
        SplittableRandom shuffler =
                new SplittableRandom(3); // test-only shuffling of the insertion order
        for (int i = order.size() - 1; i > 0; i--) {
            Collections.swap(order, i, shuffler.nextInt(i + 1));
        }
        MaskedSketch shuffled = new MaskedSketch(f, BOX, 5, TestRandoms.SECRET);
        for (int i : order) {
            shuffled.add(records.get(i), id(i));
        }
        assertArrayEquals(forward.state(), shuffled.state());

        // the mask is a function of (secret, identity) only: same in a fresh sketch, after other
        // records
        int[] first = forward.maskOf(id(17)).clone();
        assertArrayEquals(first, new MaskedSketch(f, BOX, 5, TestRandoms.SECRET).maskOf(id(17)));
        assertEquals(5, Arrays.stream(first).distinct().count());
        assertTrue(Arrays.stream(first).allMatch(j -> j >= 0 && j < 30));
        assertFalse(Arrays.equals(first, forward.maskOf(id(18))));
    }

    @Test
    void roundHalfUpIsMathRoundBitForBit() {
        double[] special = {
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            0.0,
            -0.0,
            0x1p24,
            -0x1p24,
            0x1p24 - 0.5,
            -0x1p24 + 0.5,
            8388607.5,
            -8388607.5,
            1e-300,
            -1e-300
        };
        for (double x : special) {
            assertEquals(Math.round(x), MaskedSketch.roundHalfUp(x), "x=" + x);
        }
        SplittableRandom rng = new SplittableRandom(9);
        for (int i = 0; i < 1_000_000; i++) {
            double x = rng.nextDouble(-1, 1) * MaskedSketch.SCALE;
            double tie = Math.floor(x) + 0.5;
            assertEquals(Math.round(x), MaskedSketch.roundHalfUp(x), "x=" + x);
            assertEquals(Math.round(tie), MaskedSketch.roundHalfUp(tie), "x=" + tie);
        }
    }

    @Test
    void masksOfASharedSketchMasksEqualTheSketchsOwn() {
        FrequencyMatrix f = freq(30);
        MaskedSketch own = new MaskedSketch(f, BOX, 5, TestRandoms.SECRET);
        SketchMasks shared = new SketchMasks(30, 5, TestRandoms.SECRET);
        MaskedSketch wrapped = MaskedSketch.wrap(f, BOX, shared, new long[61]);
        SplittableRandom rng = new SplittableRandom(8);
        for (int i = 0; i < 50; i++) {
            double[] x = record(rng);
            own.add(x, id(i));
            wrapped.add(x, id(i));
        }
        assertArrayEquals(own.state(), wrapped.state());
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        MaskedSketch.wrap(
                                f, BOX, new SketchMasks(31, 5, TestRandoms.SECRET), new long[61]));
    }

    @Test
    void wrappingPerRecordAndOtherThreadsGiveTheSameState() throws Exception {
        FrequencyMatrix f = freq(30);
        SplittableRandom rng = new SplittableRandom(12);
        double[][] xs = new double[200][];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = record(rng);
        }
        MaskedSketch whole = new MaskedSketch(f, BOX, 4, TestRandoms.SECRET);
        long[] perRecord = new long[61];
        for (int i = 0; i < xs.length; i++) {
            whole.add(xs[i], id(i));
            MaskedSketch.wrap(f, BOX, 4, TestRandoms.SECRET, perRecord).add(xs[i], id(i));
            new MaskedSketch(f, BOX, 7, TestRandoms.SECRET)
                    .add(xs[i], id(i)); // another r on the same thread
        }
        assertArrayEquals(whole.state(), perRecord);
        long[] onOtherThread = new long[61];
        Thread t =
                new Thread(
                        () -> {
                            MaskedSketch s =
                                    MaskedSketch.wrap(f, BOX, 4, TestRandoms.SECRET, onOtherThread);
                            for (int i = 0; i < xs.length; i++) {
                                s.add(xs[i], id(i));
                            }
                        });
        t.start();
        t.join();
        assertArrayEquals(whole.state(), onOtherThread);
    }

    @Test
    void masksAreUniformOverFeaturesAndPositions() {
        int m = 10;
        SketchMasks masks = new SketchMasks(m, 3, TestRandoms.SECRET);
        int[][] counts = new int[3][m];
        int n = 30_000;
        for (int i = 0; i < n; i++) {
            int[] mask = masks.of(id(i));
            assertEquals(3, Arrays.stream(mask).distinct().count());
            for (int p = 0; p < 3; p++) {
                counts[p][mask[p]]++;
            }
        }
        for (int p = 0; p < 3; p++) {
            double chi2 = 0;
            for (int c : counts[p]) {
                chi2 += Math.pow(c - n / (double) m, 2) / (n / (double) m);
            }
            assertTrue(chi2 < 27.9, "position " + p + ": chi2 " + chi2); // 9 dof, p ~ 0.001
        }
    }

    @Test
    void subtractUndoesAdd() {
        SplittableRandom rng = new SplittableRandom(4);
        MaskedSketch s = new MaskedSketch(freq(20), BOX, 3, TestRandoms.SECRET);
        s.add(record(rng), id(1));
        long[] before = s.state().clone();
        double[] x = record(rng);
        s.add(x, id(2));
        assertNotEquals(Arrays.toString(before), Arrays.toString(s.state()));
        s.subtract(x, id(2));
        assertArrayEquals(before, s.state());
    }

    @Test
    void declaredAddRemoveSensitivityIsExactFormula() {
        // floor(sqrt(2) 2^24) + 1 = 23726566 + 1
        assertEquals(23_726_567L, MaskedSketch.featureL1Units());
        assertEquals(
                5 * 23_726_567L,
                new MaskedSketch(freq(20), BOX, 5, TestRandoms.SECRET).addRemoveL1Units());
    }

    /**
     * Brute force: max over random records/masks of the L1 change of the sums, for add/remove and
     * replace.
     */
    @Test
    void sensitivityBoundHoldsAndIsTightByBruteForce() {
        SplittableRandom rng = new SplittableRandom(5);
        for (int r : new int[] {1, 2, 5, 16}) {
            FrequencyMatrix f = freq(16);
            MaskedSketch base = new MaskedSketch(f, BOX, r, TestRandoms.SECRET);
            for (int i = 0; i < 50; i++) {
                base.add(record(rng), id(-1 - i));
            }
            long declared = base.addRemoveL1Units();
            long maxAdd = 0;
            long maxReplace = 0;
            for (int trial = 0; trial < 10_000; trial++) {
                double[] x = record(rng);
                double[] y = record(rng);
                MaskedSketch withX = copy(base, f, r);
                withX.add(x, id(2 * trial));
                maxAdd = Math.max(maxAdd, l1(withX.sums(), base.sums()));
                MaskedSketch withY = copy(base, f, r);
                withY.add(y, id(2 * trial + 1));
                maxReplace = Math.max(maxReplace, l1(withX.sums(), withY.sums()));
            }
            assertTrue(maxAdd <= declared, "r=" + r + ": add/remove " + maxAdd + " > " + declared);
            assertTrue(
                    maxReplace <= 2 * declared,
                    "r=" + r + ": replace " + maxReplace + " > " + 2 * declared);
            System.out.printf(
                    "sensitivity r=%d: add/remove max %.5f of declared, replace-one max %.5f of declared%n",
                    r, (double) maxAdd / declared, (double) maxReplace / (2.0 * declared));
            if (r <= 2) { // few features per record: random records get close to the worst case
                assertTrue(maxAdd >= 0.97 * declared, "r=" + r + ": add/remove max only " + maxAdd);
                assertTrue(
                        maxReplace >= 0.95 * 2 * declared,
                        "r=" + r + ": replace max only " + maxReplace);
            }
        }
    }

    private static MaskedSketch copy(MaskedSketch s, FrequencyMatrix f, int r) {
        return MaskedSketch.wrap(f, BOX, r, TestRandoms.SECRET, s.state().clone());
    }

    private static long l1(long[] a, long[] b) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.abs(a[i] - b[i]);
        }
        return s;
    }

    @Test
    void rejectsBadInput() {
        FrequencyMatrix f = freq(10);
        assertThrows(IllegalArgumentException.class, () -> new MaskedSketch(f, BOX, 3, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> new MaskedSketch(f, BOX, 11, TestRandoms.SECRET));
        MaskedSketch s = new MaskedSketch(f, BOX, 10, null);
        assertThrows(
                IllegalArgumentException.class,
                () -> s.add(new double[] {0, Double.NaN, 12}, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> s.merge(new MaskedSketch(f, BOX, 9, TestRandoms.SECRET)));
    }

    @Test
    void addingABatchGivesTheStateOfAddingItsRecordsOneByOne() {
        SplittableRandom rng = new SplittableRandom(12);
        // uniform masks, all features (r = m), block masks; a batch longer than the block path's
        // move of its double sums into the state
        for (Object[] c : new Object[][] {{7, UNIFORM}, {40, UNIFORM}, {7, BLOCK}, {8, BLOCK}}) {
            int r = (Integer) c[0];
            SketchMasks.Shape shape = (SketchMasks.Shape) c[1];
            FrequencyMatrix f = freq(40);
            MaskedSketch batched = new MaskedSketch(f, BOX, r, shape, TestRandoms.SECRET);
            MaskedSketch single = new MaskedSketch(f, BOX, r, shape, TestRandoms.SECRET);
            for (int n : new int[] {1, 128, 17, 0, 128, 2 * MaskedSketch.BLOCK_FLUSH + 3}) {
                double[][] xs = new double[n][];
                byte[][] ids = new byte[n][];
                for (int i = 0; i < n; i++) {
                    xs[i] = record(rng);
                    ids[i] = id(rng.nextLong());
                    single.add(xs[i], ids[i]);
                }
                batched.addAll(xs, ids, n);
                assertArrayEquals(single.state(), batched.state(), shape + ", r " + r + ", n " + n);
            }
        }
    }

    @Test
    void aBatchWithABadRecordAddsNothing() {
        MaskedSketch s = new MaskedSketch(freq(10), BOX, 3, TestRandoms.SECRET);
        long[] before = s.state().clone();
        double[][] xs = {{0, 1, 12}, {0, Double.NaN, 12}};
        assertThrows(
                IllegalArgumentException.class, () -> s.addAll(xs, new byte[][] {id(1), id(2)}, 2));
        assertArrayEquals(before, s.state());
    }

    /**
     * The block path (consecutive rows and sums, batched offsets) against the general one: the same
     * records added feature by feature at the block's indices, through the same phase, SinCos and
     * rounding, give the same state; one by one, in batches, and subtracting.
     */
    @Test
    void blockMasksAddTheirRunOfFeaturesWrappingAtM() {
        SplittableRandom rng = new SplittableRandom(13);
        int m = 40;
        for (int r : new int[] {1, 7, 39}) { // block masks need r < m
            FrequencyMatrix f = freq(m);
            MaskedSketch single =
                    new MaskedSketch(f, BOX, r, SketchMasks.Shape.BLOCK, TestRandoms.SECRET);
            MaskedSketch batched =
                    new MaskedSketch(f, BOX, r, SketchMasks.Shape.BLOCK, TestRandoms.SECRET);
            SketchMasks masks = new SketchMasks(m, r, SketchMasks.Shape.BLOCK, TestRandoms.SECRET);
            long[] expected = new long[2 * m + 1];
            boolean wrapped = false;
            int n = 300;
            double[][] xs = new double[n][];
            byte[][] ids = new byte[n][];
            for (int i = 0; i < n; i++) {
                xs[i] = record(rng);
                ids[i] = id(rng.nextLong());
                single.add(xs[i], ids[i]);
                int[] mask = masks.of(ids[i]);
                wrapped |= mask[r - 1] < mask[0];
                double[] v = unit(xs[i]);
                double[] cs = new double[2];
                for (int j : mask) {
                    SinCos.of(f.phase(j, v), cs);
                    // block masks round ties to even
                    expected[j] += (long) Math.rint(cs[0] * MaskedSketch.SCALE);
                    expected[m + j] += (long) Math.rint(cs[1] * MaskedSketch.SCALE);
                }
                expected[2 * m]++;
            }
            batched.addAll(xs, ids, 128);
            batched.addAll(
                    Arrays.copyOfRange(xs, 128, n), Arrays.copyOfRange(ids, 128, n), n - 128);
            assertTrue(wrapped || r == 1, "r " + r + ": some block wraps past m");
            assertArrayEquals(expected, single.state(), "r " + r + ", one by one");
            assertArrayEquals(expected, batched.state(), "r " + r + ", in batches");
            for (int i = 0; i < n; i++) {
                single.subtract(xs[i], ids[i]);
            }
            assertArrayEquals(new long[2 * m + 1], single.state(), "r " + r + ", all subtracted");
        }
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new MaskedSketch(
                                freq(m), BOX, m, SketchMasks.Shape.BLOCK, TestRandoms.SECRET));
        MaskedSketch uniform = new MaskedSketch(freq(m), BOX, 7, TestRandoms.SECRET);
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        uniform.merge(
                                new MaskedSketch(
                                        freq(m),
                                        BOX,
                                        7,
                                        SketchMasks.Shape.BLOCK,
                                        TestRandoms.SECRET)));
    }

    /** x clamped into BOX and scaled into the unit box, as the sketch normalises it. */
    private static double[] unit(double[] x) {
        double[] lo = BOX.lowerCopy();
        double[] hi = BOX.upperCopy();
        double[] v = new double[x.length];
        for (int t = 0; t < x.length; t++) {
            double c = Math.min(hi[t], Math.max(lo[t], x[t]));
            v[t] = (c - lo[t]) / (hi[t] - lo[t]);
        }
        return v;
    }

    /** The block shape's sensitivity: brute force as above, records at their worst. */
    @Test
    void blockMasksKeepTheDeclaredSensitivity() {
        SplittableRandom rng = new SplittableRandom(14);
        for (int r : new int[] {1, 5, 15}) { // block masks need r < m
            FrequencyMatrix f = freq(16);
            MaskedSketch base =
                    new MaskedSketch(f, BOX, r, SketchMasks.Shape.BLOCK, TestRandoms.SECRET);
            long declared = base.addRemoveL1Units();
            long maxAdd = 0;
            for (int trial = 0; trial < 5_000; trial++) {
                MaskedSketch with =
                        new MaskedSketch(f, BOX, r, SketchMasks.Shape.BLOCK, TestRandoms.SECRET);
                with.add(record(rng), id(trial));
                maxAdd = Math.max(maxAdd, l1(with.sums(), base.sums()));
            }
            assertTrue(maxAdd <= declared, "r=" + r + ": add/remove " + maxAdd + " > " + declared);
            if (r == 1) {
                assertTrue(maxAdd >= 0.97 * declared, "r=1: add/remove max only " + maxAdd);
            }
        }
    }
}
