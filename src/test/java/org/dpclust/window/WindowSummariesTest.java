package org.dpclust.window;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class WindowSummariesTest {

    @Test
    void addingABatchGivesTheSummariesOfAddingItsRecordsOneByOne() {
        for (String snap : new String[] {"nearest", "pivot"}) {
            StreamRuntime rt =
                    StreamRuntime.of(
                            WindowTestSpecs.spec(
                                    "    budget_cap: 1000\n    summaries: [stats, ckm, dp-hst]\n"
                                            + "    ckm: {m: 40, r: 6}\n"
                                            + "    hst: {universe: 64, snap: "
                                            + snap
                                            + "}\n"));
            // a stream's masks are block masks
            assertEquals(
                    "block",
                    WindowSummaries.empty(rt, TestRandoms.SECRET, 0).sketch.shape().wireName());
            WindowSummaries single = WindowSummaries.empty(rt, TestRandoms.SECRET, 0);
            WindowSummaries batched = WindowSummaries.empty(rt, TestRandoms.SECRET, 0);
            SplittableRandom rng = new SplittableRandom(3);
            int total = 0;
            for (int n : new int[] {128, 1, 57}) {
                double[][] xs = new double[n][];
                byte[][] ids = new byte[n][];
                for (int i = 0; i < n; i++) {
                    xs[i] = new double[] {rng.nextDouble(), rng.nextDouble()};
                    ids[i] = WindowTestSpecs.identity(total + i);
                    single.add(xs[i], ids[i]);
                }
                batched.addAll(xs, ids, n);
                total += n;
                assertArrayEquals(single.stats.state(), batched.stats.state(), snap);
                assertArrayEquals(single.sketchState(), batched.sketchState(), snap);
                assertArrayEquals(single.hst, batched.hst, snap);
                assertEquals(total, batched.records());
            }
        }
    }

    @Test
    void aBatchWithABadRecordChangesNoSummary() {
        StreamRuntime rt =
                StreamRuntime.of(
                        WindowTestSpecs.spec(
                                "    budget_cap: 1000\n    summaries: [stats, ckm, dp-hst]\n"
                                        + "    ckm: {m: 40, r: 6}\n    hst: {universe: 64}\n"));
        WindowSummaries w = WindowSummaries.empty(rt, TestRandoms.SECRET, 0);
        long[] stats = w.stats.state().clone();
        double[][][] bad = {
            {{0.1, 0.2}, {0.5, Double.NaN}}, {{0.1, 0.2}, {0.5, 0.5, 0.5}}, {{0.1, 0.2}, {0.3, 0.4}}
        };
        byte[][][] ids = {
            {WindowTestSpecs.identity(1), WindowTestSpecs.identity(2)},
            {WindowTestSpecs.identity(1), WindowTestSpecs.identity(2)},
            {WindowTestSpecs.identity(1), null} // a masked sketch needs every identity
        };
        for (int c = 0; c < bad.length; c++) {
            int k = c;
            assertThrows(IllegalArgumentException.class, () -> w.addAll(bad[k], ids[k], 2));
            assertArrayEquals(stats, w.stats.state(), "case " + c);
            assertEquals(0, w.records());
            assertEquals(0, java.util.Arrays.stream(w.hst).sum());
            assertEquals(0, w.sketch.count());
        }
    }

    /**
     * Adversarial: under every snap rule, one record — a point of the universe, a corner of the
     * box, a copy of another record, a record on the box's edge — moves exactly one dp-hst count by
     * exactly one, wherever it stands in the window (alone, first or last, in a batch or one at a
     * time), and subtracting it (device bounding's eviction) gives back the counts without it. A
     * rule whose answer depended on other records, their order or scratch state left by them would
     * fail here.
     */
    @Test
    void oneRecordMovesOneHstCountByOneUnderEverySnapRule() {
        for (String rule : new String[] {"nearest", "pivot"}) {
            StreamRuntime rt =
                    StreamRuntime.of(
                            WindowTestSpecs.spec(
                                    "    budget_cap: 1000\n    summaries: [dp-hst]\n"
                                            + "    hst: {universe: 1024, snap: "
                                            + rule
                                            + "}\n"));
            SplittableRandom rng = new SplittableRandom(5); // public randomness (test data)
            double[][] base = new double[300][];
            for (int i = 0; i < base.length; i++) {
                base[i] = new double[] {rng.nextDouble(), rng.nextDouble()};
            }
            double[][] odd = {
                rt.hst().universe().point(0),
                rt.hst().universe().point(1023),
                {0, 0},
                {1, 1},
                {0, 1},
                base[17].clone(),
                {0.5, 1},
                {Math.nextDown(1.0), Double.MIN_VALUE}
            };
            long[] without = hst(rt, base, null, -1);
            for (int o = 0; o < odd.length; o++) {
                for (int at : new int[] {0, 150, base.length}) {
                    long[] with = hst(rt, base, odd[o], at);
                    long moved = 0;
                    for (int u = 0; u < with.length; u++) {
                        moved += Math.abs(with[u] - without[u]);
                    }
                    assertEquals(1, moved, rule + ", record " + o + " at " + at);
                    assertEquals(1, with[rt.hst().snap(odd[o])] - without[rt.hst().snap(odd[o])]);
                    WindowSummaries evicted = summaries(rt, base, odd[o], at);
                    evicted.subtract(odd[o], WindowTestSpecs.identity(at));
                    assertArrayEquals(without, evicted.hst, rule + ", evicted " + o);
                }
            }
        }
    }

    /** The dp-hst counts of base with x inserted at position at (none when at < 0), batched. */
    private static long[] hst(StreamRuntime rt, double[][] base, double[] x, int at) {
        long[] batched = summaries(rt, base, x, at).hst;
        WindowSummaries single = WindowSummaries.empty(rt, TestRandoms.SECRET, 0);
        double[][] xs = with(base, x, at);
        for (int i = xs.length - 1; i >= 0; i--) { // the reverse order, one at a time
            single.add(xs[i], WindowTestSpecs.identity(i));
        }
        assertArrayEquals(batched, single.hst, "batched and one at a time, reversed");
        return batched;
    }

    private static WindowSummaries summaries(
            StreamRuntime rt, double[][] base, double[] x, int at) {
        double[][] xs = with(base, x, at);
        byte[][] ids = new byte[xs.length][];
        for (int i = 0; i < xs.length; i++) {
            ids[i] = WindowTestSpecs.identity(i);
        }
        WindowSummaries w = WindowSummaries.empty(rt, TestRandoms.SECRET, 0);
        w.addAll(xs, ids, xs.length);
        return w;
    }

    private static double[][] with(double[][] base, double[] x, int at) {
        if (at < 0) {
            return base;
        }
        double[][] xs = new double[base.length + 1][];
        System.arraycopy(base, 0, xs, 0, at);
        xs[at] = x;
        System.arraycopy(base, at, xs, at + 1, base.length - at);
        return xs;
    }
}
