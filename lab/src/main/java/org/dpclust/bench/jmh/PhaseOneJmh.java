package org.dpclust.bench.jmh;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.ValidRecord;
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
 * pipeline}; all three summaries, m = 1000, r = 100, |U| = 4096, {@code hst.snap: pivot};
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
    public static final int D = 10;
    public static final int M = 1000;
    public static final int R = 100;
    public static final int UNIVERSE = 4096;
    static final int N = 4096;
    public static final int B = 128;

    public static final String SNAP = "pivot";

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
        String lower = "[" + "0, ".repeat(D - 1) + "0]";
        String upper = "[" + "1, ".repeat(D - 1) + "1]";
        for (int i = 0; i < STREAMS; i++) {
            y.append(
                    """
                      - id: s%d
                        dimension: %d
                        lower: %s
                        upper: %s
                        k: 10
                        window: PT10S
                        epsilon_per_release: 1.0
                        budget_cap: 1000000
                        public_seed: %d
                        summaries: [stats, ckm, dp-hst]
                        ckm: {m: %d, r: %d}
                        hst: {universe: %d, snap: %s}
                    """
                            .formatted(i, D, lower, upper, 100 + i, M, R, UNIVERSE, SNAP));
        }
        List<StreamSpec> specs = ConfigLoader.parse(y.toString()).streams();
        Map<String, StreamRuntime> rts = StreamRuntime.of(specs);
        w = new WindowSummaries[STREAMS];
        for (int i = 0; i < STREAMS; i++) {
            w[i] = WindowSummaries.empty(rts.get("s" + i), BenchData.testSecret(), 0);
        }
        SplittableRandom rng = new SplittableRandom(7); // public inputs, not privacy noise
        xs = new double[N][D];
        ids = new byte[N][];
        streamOf = new int[N];
        for (int i = 0; i < N; i++) {
            for (int t = 0; t < D; t++) xs[i][t] = rng.nextDouble();
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
            // as the operator holds a record: a copy of its features, its identity
            bufX[s][f] = xs[i].clone();
            bufId[s][f] = ids[i];
            if (++fill[s] == B) {
                w[s].addAll(bufX[s], bufId[s], B);
                fill[s] = 0;
            }
        }
        return w[0].records();
    }
}
