package org.dpclust.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.sketch.MaskedSketch;

/**
 * {@code bench sketch}: single-threaded cost of the compressive k-means building blocks at the paper's
 * Figure 3 size (d = k = 10, m = 1000; {@code quick}: m = 100 and few records, numbers not meaningful).
 * <ul>
 *   <li>{@code sketch-update}, one row per r ∈ {m, m/10, m/100}: {@link MaskedSketch#add} of a fixed batch of
 *       records (uniform in the declared box [0, 1]^d, each with its own 12-byte identity, so r &lt; m pays the
 *       keyed mask derivation as in the stream); {@code ns_per_record} = median time of one pass over the
 *       batch / batch size ({@link BenchEnvironment#medianNanos}: 3 warm-up passes, 7 measured),
 *       {@code records_per_second} its inverse.</li>
 *   <li>{@code clompr-decode}: {@link ClOmpr#decode} with its default options (3 replicates) of the exact
 *       sketch (r = m) of a 10-component Gaussian mixture in the unit box; {@code decode_seconds} = median
 *       of 3 measured decodes after 1 warm-up.</li>
 * </ul>
 * Fixed public seeds, a fixed test secret for the masks. Progress on standard error.
 */
public final class SketchBenchmark implements Benchmark {
    static final int D = 10;
    static final int K = 10;
    static final long SEED = 2026;

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
        int m = quick ? 100 : 1000;
        int records = quick ? 200 : 20_000;
        int warmups = quick ? 1 : 3;
        int reps = quick ? 1 : 7;
        double[] lo = new double[D];
        double[] hi = new double[D];
        Arrays.fill(hi, 1.0);
        DomainBounds box = new DomainBounds(lo, hi);
        FrequencyMatrix freq = FrequencyMatrix.draw(m, D, FrequencyMatrix.defaultSigma(K, D),
                FrequencyMatrix.DEFAULT_LAW, SEED);
        PrivacySecret secret = testSecret();
        SplittableRandom rng = new SplittableRandom(SEED); // public randomness (not privacy noise)
        double[][] points = new double[records][D];
        byte[][] ids = new byte[records][];
        for (int i = 0; i < records; i++) {
            for (int t = 0; t < D; t++) {
                points[i][t] = rng.nextDouble();
            }
            ids[i] = ByteBuffer.allocate(12).putInt(7).putLong(i).array();
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int r : new int[] {m, m / 10, m / 100}) {
            System.err.printf(Locale.ROOT, "bench sketch: sketch-update r=%d (%d records x %d passes)%n", r, records,
                    warmups + reps);
            MaskedSketch sketch = new MaskedSketch(freq, box, r, secret);
            long nanos = BenchEnvironment.medianNanos(warmups, reps, () -> {
                for (int i = 0; i < records; i++) {
                    sketch.add(points[i], ids[i]);
                }
                return sketch.state()[0];
            });
            double nsPerRecord = nanos / (double) records;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("benchmark", "sketch-update");
            row.put("r", r);
            row.put("m", m);
            row.put("d", D);
            row.put("ns_per_record", round(nsPerRecord));
            row.put("records_per_second", Math.round(1e9 / nsPerRecord));
            rows.add(BenchEnvironment.withMachine(row));
        }
        rows.add(decodeRow(m, box, freq, quick));
        return rows;
    }

    private static Map<String, Object> decodeRow(int m, DomainBounds box, FrequencyMatrix freq, boolean quick) {
        System.err.printf(Locale.ROOT, "bench sketch: clompr-decode m=%d k=%d d=%d%n", m, K, D);
        SplittableRandom rng = new SplittableRandom(SEED + 1); // public randomness (not privacy noise)
        double[][] means = new double[K][D];
        for (double[] mu : means) {
            for (int t = 0; t < D; t++) {
                mu[t] = 0.2 + 0.6 * rng.nextDouble();
            }
        }
        MaskedSketch exact = new MaskedSketch(freq, box, m, null);
        double[] x = new double[D];
        for (int i = 0; i < (quick ? 500 : 20_000); i++) {
            double[] mu = means[i % K];
            for (int t = 0; t < D; t++) {
                x[t] = mu[t] + 0.03 * rng.nextGaussian();
            }
            exact.add(x, null);
        }
        double[] z = DpSketchRelease.exactSketch(exact);
        ClOmpr.Options options = quick ? new ClOmpr.Options(1, 16, 20, SEED) : ClOmpr.Options.defaults(SEED);
        long nanos = BenchEnvironment.medianNanos(quick ? 0 : 1, quick ? 1 : 3,
                () -> Double.doubleToLongBits(ClOmpr.decode(z, freq, K, box, options).residualNorm()));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "clompr-decode");
        row.put("r", m);
        row.put("m", m);
        row.put("d", D);
        row.put("k", K);
        row.put("replicates", options.replicates());
        row.put("decode_seconds", round(nanos / 1e9));
        return BenchEnvironment.withMachine(row);
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    /** A fixed test secret for the masks (never a deployment secret). */
    static PrivacySecret testSecret() {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 0x5a);
        return PrivacySecret.of(key);
    }
}
