package org.dpclust.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.bench.jmh.JmhRunner;
import org.dpclust.bench.jmh.SketchUpdateJmh;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.sketch.MaskedSketch;

/**
 * {@code bench sketch}: single-threaded cost of the compressive k-means building blocks at the
 * paper's Figure 3 size (d = k = 10, m = 1000; {@code quick}: m = 100 and few records, numbers not
 * meaningful).
 *
 * <ul>
 *   <li>{@code sketch-update}, one row per r ∈ {1000, 100, 10} at m = 1000 (JMH, {@link
 *       SketchUpdateJmh}): {@link MaskedSketch#add} of records uniform in the declared box [0,
 *       1]^d, each with its own 12-byte identity (so r &lt; m pays the keyed mask derivation as in
 *       the stream), beside the plain-loop bound of the same arithmetic ({@link BoundRows}:
 *       ns_per_record, fraction_of_bound, alloc_bytes_per_record).
 *   <li>{@code sketch-update-batch}, the same per r: {@link MaskedSketch#addAll} in batches of 128
 *       records, as the stream's phase 1 folds them (masks of a batch derived together), beside the
 *       same bound.
 *   <li>{@code sketch-update-block}, r ∈ {100, 10}: the same with block masks (the stream's: r
 *       consecutive features from a keyed uniform offset), beside the same bound.
 *   <li>{@code clompr-decode-warm}: the next window's sketch (the mixture drifted by {@link #DRIFT}
 *       per coordinate, a fresh sample) decoded warm from the first decode's centroids ({@link
 *       ClOmpr.WarmStart}), beside the cold decode of the same sketch: time, speed-up, relative
 *       residuals and the SSE of the decoded centroids to the true means.
 *   <li>{@code clompr-decode}: {@link ClOmpr#decode} with its default options (3 replicates) of the
 *       exact sketch (r = m) of a 10-component Gaussian mixture in the unit box; {@code
 *       decode_seconds} = median of 3 measured decodes after 1 warm-up (quick: m = 100, one small
 *       decode).
 * </ul>
 *
 * Fixed public seeds, a fixed test secret for the masks. Progress on standard error.
 */
public final class SketchBenchmark implements Benchmark {
    static final int D = 10;
    static final int K = 10;
    static final long SEED = 2026;
    static final int M = 1000;

    @Override
    public String name() {
        return "sketch";
    }

    @Override
    public String description() {
        return "masked sketch update (d = 10, m = 1000, r = 1000, 100, 10) and CL-OMPR decode (m = 1000, k = d = 10)";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        System.err.println(
                "bench sketch: JMH sketch-update, r = 1000, 100, 10, each with its bound");
        List<JmhRunner.Score> scores = JmhRunner.run(SketchUpdateJmh.class, quick);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String[] variant :
                new String[][] {
                    {"sketch-update", "add"},
                    {"sketch-update-batch", "addBatch"},
                    {"sketch-update-block", "addBlockBatch"}
                }) {
            for (int r : new int[] {M, M / 10, M / 100}) {
                if (r == M && variant[0].equals("sketch-update-block")) {
                    continue; // block masks need r < m
                }
                Map<String, Object> extra = new LinkedHashMap<>();
                extra.put("r", r);
                extra.put("m", M);
                extra.put("d", D);
                String p = Integer.toString(r);
                rows.add(
                        BoundRows.row(
                                variant[0],
                                extra,
                                JmhRunner.find(scores, variant[1], "r", p),
                                JmhRunner.find(scores, "bound", "r", p)));
            }
        }
        double[] lo = new double[D];
        double[] hi = new double[D];
        Arrays.fill(hi, 1.0);
        DomainBounds box = new DomainBounds(lo, hi);
        int m = quick ? 100 : M;
        FrequencyMatrix freq =
                FrequencyMatrix.draw(
                        m,
                        D,
                        FrequencyMatrix.defaultSigma(K, D),
                        FrequencyMatrix.DEFAULT_LAW,
                        SEED);
        rows.addAll(decodeRows(m, box, freq, quick));
        return rows;
    }

    private static List<Map<String, Object>> decodeRows(
            int m, DomainBounds box, FrequencyMatrix freq, boolean quick) {
        List<Map<String, Object>> rows = new ArrayList<>();
        System.err.printf(Locale.ROOT, "bench sketch: clompr-decode m=%d k=%d d=%d%n", m, K, D);
        SplittableRandom rng =
                new SplittableRandom(SEED + 1); // public randomness (not privacy noise)
        double[][] means = new double[K][D];
        for (double[] mu : means) {
            for (int t = 0; t < D; t++) {
                mu[t] = 0.2 + 0.6 * rng.nextDouble();
            }
        }
        int n = quick ? 500 : 20_000;
        double[] z = mixtureSketch(freq, box, m, means, 0.0, n, rng);
        ClOmpr.Options options =
                quick ? new ClOmpr.Options(1, 16, 20, SEED) : ClOmpr.Options.defaults(SEED);
        long nanos =
                BenchEnvironment.medianNanos(
                        quick ? 0 : 1,
                        quick ? 1 : 3,
                        () ->
                                Double.doubleToLongBits(
                                        ClOmpr.decode(z, freq, K, box, options).residualNorm()));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "clompr-decode");
        row.put("r", m);
        row.put("m", m);
        row.put("d", D);
        row.put("k", K);
        row.put("replicates", options.replicates());
        row.put("decode_seconds", Math.round(nanos / 1e3) / 1e6); // to the microsecond
        rows.add(BenchEnvironment.withMachine(row));
        // the next window: the same mixture drifted by DRIFT per coordinate, a fresh sample,
        // decoded
        // warm from the previous window's centroids (what a stream's decoder does) and cold
        ClOmpr.Result previous = ClOmpr.decode(z, freq, K, box, options);
        ClOmpr.WarmStart warm =
                new ClOmpr.WarmStart(
                        previous.unitCentroids(), ClOmpr.relativeResidual(previous, z));
        double[] next = mixtureSketch(freq, box, m, means, DRIFT, n, rng);
        ClOmpr.Result[] out = new ClOmpr.Result[2];
        long warmNanos =
                BenchEnvironment.medianNanos(
                        quick ? 0 : 1,
                        quick ? 1 : 3,
                        () -> {
                            out[0] = ClOmpr.decode(next, freq, K, box, options, warm);
                            return Double.doubleToLongBits(out[0].residualNorm());
                        });
        out[1] = ClOmpr.decode(next, freq, K, box, options);
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("benchmark", "clompr-decode-warm");
        w.put("m", m);
        w.put("d", D);
        w.put("k", K);
        w.put("drift", DRIFT);
        w.put("decode_seconds", Math.round(warmNanos / 1e3) / 1e6);
        w.put("cold_decode_seconds", Math.round(nanos / 1e3) / 1e6);
        w.put("speedup", BoundRows.round((double) nanos / warmNanos));
        w.put(
                "warm_relative_residual",
                BoundRows.round(ClOmpr.relativeResidual(out[0], next) * 1e3) / 1e3);
        w.put(
                "cold_relative_residual",
                BoundRows.round(ClOmpr.relativeResidual(out[1], next) * 1e3) / 1e3);
        w.put("warm_sse", sse(out[0].centroids(), means, DRIFT));
        w.put("cold_sse", sse(out[1].centroids(), means, DRIFT));
        rows.add(BenchEnvironment.withMachine(w));
        return rows;
    }

    /** Per-coordinate drift of the mixture between the two decoded windows. */
    static final double DRIFT = 0.01;

    /** Exact sketch of n records of the mixture with means shifted by {@code shift}. */
    private static double[] mixtureSketch(
            FrequencyMatrix freq,
            DomainBounds box,
            int m,
            double[][] means,
            double shift,
            int n,
            SplittableRandom rng) {
        MaskedSketch exact = new MaskedSketch(freq, box, m, null);
        double[] x = new double[D];
        for (int i = 0; i < n; i++) {
            double[] mu = means[i % K];
            for (int t = 0; t < D; t++) {
                x[t] = mu[t] + shift + 0.03 * rng.nextGaussian();
            }
            exact.add(x, null);
        }
        return DpSketchRelease.exactSketch(exact);
    }

    /** Σ over the true (shifted) means of the squared distance to the nearest decoded centroid. */
    private static double sse(double[][] centroids, double[][] means, double shift) {
        double total = 0;
        for (double[] mu : means) {
            double best = Double.POSITIVE_INFINITY;
            for (double[] c : centroids) {
                double s = 0;
                for (int t = 0; t < D; t++) {
                    double e = c[t] - mu[t] - shift;
                    s += e * e;
                }
                best = Math.min(best, s);
            }
            total += best;
        }
        return BoundRows.round(total * 1e6) / 1e6;
    }
}
