package org.dpclust.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.dpclust.geometry.NearestPoint;
import org.dpclust.geometry.NearestPointIndex;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.kmedian.HstDescent;
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
 * the record's point of U by descending the HST ({@link HstWindowSummary#snap} with the {@link
 * HstWindowSummary.Snap#DESCENT} rule, {@code hst.snap: descent}) and count it ({@code add});
 * beside its bound ({@code bound}): the same descent ({@link HstDescent}) and the count in a plain
 * loop, without the summary around it. For comparison, the nearest-point rules on the same records:
 * the exact k-d tree search ({@code nearest}: {@link NearestPointIndex}, what the default {@link
 * HstWindowSummary.Snap#NEAREST} runs) and the brute-force search ({@code bruteForce}: {@link
 * NearestPoint}, the same answers), and the neighbour-graph walk ({@code walk}: {@link
 * HstWindowSummary#snap} with {@link HstWindowSummary.Snap#WALK}, {@code hst.snap: walk}, and the
 * count), and the pivot lists ({@code pivot}: {@link HstWindowSummary.Snap#PIVOT}, {@code hst.snap:
 * pivot}, and the count). Records ({@code queries}): uniform in the unit box, or the stream
 * generator's Gaussian mixture ({@link BenchData#clusteredRecords}). Scores are ns per record.
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
    private HstDescent descent;
    private NearestPointIndex index;
    private long[] boundCounts;
    private HstWindowSummary walkSummary;
    private long[] walkCounts;
    private HstWindowSummary pivotSummary;
    private long[] pivotCounts;

    @Setup
    public void setup() {
        records = "clustered".equals(queries) ? BenchData.clusteredRecords() : BenchData.records();
        summary =
                new HstWindowSummary(
                        BenchData.unitBox(),
                        UNIVERSE,
                        BenchData.SEED,
                        12,
                        HstWindowSummary.Snap.DESCENT);
        counts = new long[UNIVERSE];
        PublicPointSet u = summary.universe();
        double[][] rows = new double[UNIVERSE][];
        points = new double[UNIVERSE * BenchData.D];
        for (int p = 0; p < UNIVERSE; p++) {
            rows[p] = u.point(p);
            System.arraycopy(rows[p], 0, points, p * BenchData.D, BenchData.D);
        }
        descent = new HstDescent(summary.tree(), rows);
        index = NearestPointIndex.of(points, BenchData.D);
        boundCounts = new long[UNIVERSE];
        walkSummary =
                new HstWindowSummary(
                        BenchData.unitBox(),
                        UNIVERSE,
                        BenchData.SEED,
                        12,
                        HstWindowSummary.Snap.WALK);
        walkCounts = new long[UNIVERSE];
        pivotSummary =
                new HstWindowSummary(
                        BenchData.unitBox(),
                        UNIVERSE,
                        BenchData.SEED,
                        12,
                        HstWindowSummary.Snap.PIVOT);
        pivotCounts = new long[UNIVERSE];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long pivot() {
        for (int i = 0; i < BenchData.BATCH; i++) {
            pivotCounts[pivotSummary.snap(records[i])]++;
        }
        return pivotCounts[0];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long walk() {
        for (int i = 0; i < BenchData.BATCH; i++) {
            walkCounts[walkSummary.snap(records[i])]++;
        }
        return walkCounts[0];
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
            boundCounts[descent.leafCentre(records[i])]++;
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
