package org.dpclust.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.dpclust.geometry.NearestPoint;
import org.dpclust.geometry.NearestPointIndex;
import org.dpclust.geometry.PivotListIndex;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.kmedian.HstWindowSummary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-record cost of the HST summary as the stream runs it (d = 10, |U| = {@value #UNIVERSE}): find
 * the record's point of U by its nearest pivot's list ({@link HstWindowSummary#snap} with the
 * default {@link HstWindowSummary.Snap#PIVOT} rule, {@code hst.snap: pivot}) and count it ({@code
 * add}); beside its bound ({@code bound}): the same pivot lists ({@link PivotListIndex}) and the
 * count in a plain loop, without the summary around it. For comparison, the exact nearest-point
 * rule on the same records: the k-d tree search ({@code nearest}: {@link NearestPointIndex}, what
 * {@link HstWindowSummary.Snap#NEAREST} runs) and the brute-force search ({@code bruteForce}:
 * {@link NearestPoint}, the same answers). Records ({@code queries}): uniform in the unit box, or
 * the stream generator's Gaussian mixture ({@link BenchData#clusteredRecords}). Scores are ns per
 * record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HstCountJmh {
    static final int UNIVERSE = 4096;

    @Param({"uniform", "clustered"})
    public String queries;

    private double[][] records;
    private HstWindowSummary summary;
    private long[] counts;
    private double[] points;
    private PivotListIndex pivots;
    private NearestPointIndex index;
    private long[] boundCounts;

    @Setup
    public void setup() {
        records = "clustered".equals(queries) ? BenchData.clusteredRecords() : BenchData.records();
        summary =
                new HstWindowSummary(
                        BenchData.unitBox(),
                        UNIVERSE,
                        BenchData.SEED,
                        12,
                        HstWindowSummary.Snap.PIVOT);
        counts = new long[UNIVERSE];
        PublicPointSet u = summary.universe();
        double[][] rows = new double[UNIVERSE][];
        points = new double[UNIVERSE * BenchData.D];
        for (int p = 0; p < UNIVERSE; p++) {
            rows[p] = u.point(p);
            System.arraycopy(rows[p], 0, points, p * BenchData.D, BenchData.D);
        }
        pivots = new PivotListIndex(rows);
        index = NearestPointIndex.of(points, BenchData.D);
        boundCounts = new long[UNIVERSE];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long add() {
        for (int i = 0; i < BenchData.BATCH; i++) {
            counts[summary.snap(records[i])]++;
        }
        return counts[0];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long bound() {
        for (int i = 0; i < BenchData.BATCH; i++) {
            boundCounts[pivots.nearest(records[i])]++;
        }
        return boundCounts[0];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long nearest() {
        for (int i = 0; i < BenchData.BATCH; i++) {
            boundCounts[index.nearest(records[i])]++;
        }
        return boundCounts[0];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long bruteForce() {
        int d = BenchData.D;
        for (int i = 0; i < BenchData.BATCH; i++) {
            boundCounts[NearestPoint.of(points, d, records[i])]++;
        }
        return boundCounts[0];
    }
}
