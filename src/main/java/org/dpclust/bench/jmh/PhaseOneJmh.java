package org.dpclust.bench.jmh;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.stream.ValidRecord;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.WindowSummaries;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Phase 1's fold of an interleaved input: records of {@value #STREAMS} streams in random order
 * (each stream with its own public tables: frequencies, HST universe and cells, as in {@code bench
 * pipeline}; all three summaries, m = 1000, r = 100, |U| = 4096, {@code hst.snap: descent};
 * identities built as the stream builds them), folded one by one ({@code perRecord}: {@link
 * WindowSummaries#add}) or, as {@code WindowPreAggregator} does, held per stream and folded {@value
 * #B} at a time ({@code batched}: {@link WindowSummaries#addAll}). Same sums either way; scores are
 * ns per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PhaseOneJmh {
    public static final int STREAMS = 10;
    static final int N = 4096;
    public static final int B = 128;

    private static final String SNAP = "descent";

    private WindowSummaries[] w;
    private double[][] xs;
    private byte[][] ids;
    private int[] streamOf;
    private double[][][] bufX;
    private byte[][][] bufId;
    private int[] fill;

    @Setup
    public void setup() {
        StringBuilder y = new StringBuilder("streams:\n");
        for (int i = 0; i < STREAMS; i++) {
            y.append(
                    "  - id: s"
                            + i
                            + "\n    dimension: 10\n    lower: ["
                            + "0, ".repeat(9)
                            + "0]\n    upper: ["
                            + "1, ".repeat(9)
                            + "1]\n    k: 10\n    window: PT10S\n    epsilon_per_release: 1.0\n    budget_cap: 1000000\n    public_seed: "
                            + (100 + i)
                            + "\n    summaries: [stats, ckm, dp-hst]\n    ckm: {m: 1000, r: 100}\n    hst: {universe: 4096, snap: "
                            + SNAP
                            + "}\n");
        }
        List<StreamSpec> specs = ConfigLoader.parse(y.toString()).streams();
        Map<String, StreamRuntime> rts = StreamRuntime.of(specs);
        w = new WindowSummaries[STREAMS];
        for (int i = 0; i < STREAMS; i++) {
            w[i] = WindowSummaries.empty(rts.get("s" + i), BenchData.testSecret(), 0);
        }
        SplittableRandom rng = new SplittableRandom(7); // public inputs, not privacy noise
        xs = new double[N][10];
        ids = new byte[N][];
        streamOf = new int[N];
        for (int i = 0; i < N; i++) {
            for (int t = 0; t < 10; t++) xs[i][t] = rng.nextDouble();
            streamOf[i] = rng.nextInt(STREAMS);
            ids[i] =
                    ValidRecord.identity(
                            "s" + streamOf[i],
                            "device-" + rng.nextInt(100000),
                            1_700_000_000_000L + i,
                            xs[i]);
        }
        bufX = new double[STREAMS][B][];
        bufId = new byte[STREAMS][B][];
        fill = new int[STREAMS];
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long perRecord() {
        for (int i = 0; i < N; i++) {
            w[streamOf[i]].add(xs[i], ids[i]);
        }
        return w[0].records();
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long batched() {
        for (int i = 0; i < N; i++) {
            int s = streamOf[i];
            int f = fill[s];
            bufX[s][f] = xs[i];
            bufId[s][f] = ids[i];
            if (++fill[s] == B) {
                w[s].addAll(bufX[s], bufId[s], B);
                fill[s] = 0;
            }
        }
        return w[0].records();
    }
}
