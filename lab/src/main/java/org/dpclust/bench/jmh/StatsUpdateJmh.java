package org.dpclust.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.NearestPointIndex;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.privacy.FixedPointCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-record cost of the statistics summary as the stream runs it (d = 10, the default {@value
 * #CELLS} public cells for k = 10): clamp, nearest public cell ({@link PublicPointSet#nearest}),
 * fixed-point encode, {@link ClusterStatistics#add} ({@code add}); beside its bound ({@code
 * bound}): the same nearest search ({@link NearestPointIndex}, which {@link PublicPointSet#nearest}
 * uses) over a bare primitive array and a double sum into the nearest cell, with no clamping, fixed
 * point or checks. Scores are ns per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StatsUpdateJmh {
    /** The default stats.cells for k = 10: max(64, 16k). */
    static final int CELLS = 160;

    private double[][] records;
    private DomainBounds box;
    private PublicPointSet cells;
    private FixedPointCodec codec;
    private ClusterStatistics stats;
    private final double[] clamped = new double[BenchData.D];
    private final long[] encoded = new long[BenchData.D];
    private NearestPointIndex centres;
    private double[] counts;
    private double[] sums;

    @Setup
    public void setup() {
        box = BenchData.unitBox();
        records = BenchData.records();
        cells = PublicPointSet.uniform(box, CELLS, BenchData.SEED);
        codec = new FixedPointCodec(box);
        stats = new ClusterStatistics(CELLS, BenchData.D);
        double[] rows = new double[CELLS * BenchData.D];
        for (int c = 0; c < CELLS; c++) {
            System.arraycopy(cells.point(c), 0, rows, c * BenchData.D, BenchData.D);
        }
        centres = NearestPointIndex.of(rows, BenchData.D);
        counts = new double[CELLS];
        sums = new double[CELLS * BenchData.D];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long add() {
        for (int i = 0; i < BenchData.BATCH; i++) {
            box.clamp(records[i], clamped);
            int cell = cells.nearest(clamped);
            codec.encode(clamped, encoded);
            stats.add(cell, encoded);
        }
        return stats.count(0);
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public double bound() {
        int d = BenchData.D;
        for (int i = 0; i < BenchData.BATCH; i++) {
            double[] x = records[i];
            int best = centres.nearest(x);
            counts[best]++;
            for (int t = 0; t < d; t++) {
                sums[best * d + t] += x[t];
            }
        }
        return counts[0] + sums[0];
    }
}
