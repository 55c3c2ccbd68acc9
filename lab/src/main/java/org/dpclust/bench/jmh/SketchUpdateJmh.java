package org.dpclust.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.sketch.MaskedSketch;
import org.dpclust.sketch.SinCos;
import org.dpclust.sketch.SketchMasks;
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
 * Per-record cost of {@link MaskedSketch#add} at m = 1000, d = 10 for r features per record ({@code
 * add}), beside its plain-loop bound ({@code bound}): the same r dot products ω_j·v, the same
 * {@link SinCos} and a (cos, sin) accumulation, over primitive arrays, with no clamping, mask,
 * fixed point or PRF; and {@link MaskedSketch#addAll} in batches of 128 ({@code addBatch}), the
 * stream's path, with uniform masks and with block masks ({@code addBlockBatch}, the stream's
 * shape). Scores are ns per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SketchUpdateJmh {
    static final int M = 1000;

    @Param({"1000", "100", "10"})
    public int r;

    private double[][] records;
    private byte[][] ids;
    private MaskedSketch sketch;
    private MaskedSketch blockSketch;
    private double[] omega;
    private double[] cosSum;
    private double[] sinSum;
    private double[] phases;
    private double[] cosines;
    private double[] sines;

    /** Records per {@link #addBatch} call (the stream's phase-1 batch; divides BenchData.BATCH). */
    static final int FOLD = 128;

    static {
        if (BenchData.BATCH % FOLD != 0) {
            throw new IllegalStateException("BenchData.BATCH must be a multiple of " + FOLD);
        }
    }

    private final double[][] foldRecords = new double[FOLD][];
    private final byte[][] foldIds = new byte[FOLD][];

    @Setup
    public void setup() {
        DomainBounds box = BenchData.unitBox();
        FrequencyMatrix freq =
                FrequencyMatrix.draw(
                        M,
                        BenchData.D,
                        FrequencyMatrix.defaultSigma(BenchData.K, BenchData.D),
                        FrequencyMatrix.DEFAULT_LAW,
                        BenchData.SEED);
        records = BenchData.records();
        ids = BenchData.identities();
        sketch = new MaskedSketch(freq, box, r, BenchData.testSecret());
        // block masks need r < m (at r = m every record adds every feature: addBatch's row)
        blockSketch =
                r < M
                        ? new MaskedSketch(
                                freq, box, r, SketchMasks.Shape.BLOCK, BenchData.testSecret())
                        : null;
        omega = freq.toArray();
        cosSum = new double[M];
        phases = new double[r];
        cosines = new double[r];
        sines = new double[r];
        sinSum = new double[M];
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long add() {
        for (int i = 0; i < BenchData.BATCH; i++) {
            sketch.add(records[i], ids[i]);
        }
        return sketch.count();
    }

    /**
     * {@link MaskedSketch#addAll} of the same records in batches of 128, as the stream's phase 1
     * folds them (the masks of a batch derived together).
     */
    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long addBatch() {
        for (int i = 0; i < BenchData.BATCH; i += FOLD) {
            System.arraycopy(records, i, foldRecords, 0, FOLD);
            System.arraycopy(ids, i, foldIds, 0, FOLD);
            sketch.addAll(foldRecords, foldIds, FOLD);
        }
        return sketch.count();
    }

    /** {@link #addBatch} with block masks: r consecutive features from a keyed offset. */
    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public long addBlockBatch() {
        if (blockSketch == null) {
            return addBatch();
        }
        for (int i = 0; i < BenchData.BATCH; i += FOLD) {
            System.arraycopy(records, i, foldRecords, 0, FOLD);
            System.arraycopy(ids, i, foldIds, 0, FOLD);
            blockSketch.addAll(foldRecords, foldIds, FOLD);
        }
        return blockSketch.count();
    }

    @Benchmark
    @OperationsPerInvocation(BenchData.BATCH)
    public double bound() {
        int d = BenchData.D;
        for (int i = 0; i < BenchData.BATCH; i++) {
            double[] v = records[i];
            for (int j = 0, o = 0; j < r; j++, o += d) {
                double s = 0;
                for (int t = 0; t < d; t++) {
                    s += omega[o + t] * v[t];
                }
                phases[j] = s;
            }
            SinCos.of(phases, r, cosines, sines);
            for (int j = 0; j < r; j++) {
                cosSum[j] += cosines[j];
                sinSum[j] += sines[j];
            }
        }
        return cosSum[0] + sinSum[r - 1];
    }
}
