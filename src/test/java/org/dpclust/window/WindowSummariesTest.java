package org.dpclust.window;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class WindowSummariesTest {

    @Test
    void addingABatchGivesTheSummariesOfAddingItsRecordsOneByOne() {
        for (String snap : new String[] {"nearest", "descent"}) {
            StreamRuntime rt =
                    StreamRuntime.of(
                            WindowTestSpecs.spec(
                                    "    budget_cap: 1000\n    summaries: [stats, ckm, dp-hst]\n"
                                            + "    ckm: {m: 40, r: 6}\n"
                                            + "    hst: {universe: 64, snap: "
                                            + snap
                                            + "}\n"));
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
}
