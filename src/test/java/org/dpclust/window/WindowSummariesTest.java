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
        for (String[] c :
                new String[][] {
                    {"nearest", "uniform"}, {"descent", "uniform"}, {"nearest", "block"}
                }) {
            String snap = c[0] + ", mask " + c[1];
            StreamRuntime rt =
                    StreamRuntime.of(
                            WindowTestSpecs.spec(
                                    "    budget_cap: 1000\n    summaries: [stats, ckm, dp-hst]\n"
                                            + "    ckm: {m: 40, r: 6, mask: "
                                            + c[1]
                                            + "}\n"
                                            + "    hst: {universe: 64, snap: "
                                            + c[0]
                                            + "}\n"));
            assertEquals(c[1], rt.maskShape().wireName());
            assertEquals(
                    c[1],
                    WindowSummaries.empty(rt, TestRandoms.SECRET, 0).sketch.shape().wireName());
            assertEquals(
                    c[1],
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
}
