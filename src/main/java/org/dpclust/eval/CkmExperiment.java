package org.dpclust.eval;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.sketch.MaskedSketch;

/**
 * Paper 003's Figure 3 experiment for compressive k-means with a DP sketch: a mixture of k = 10 unit-
 * covariance Gaussians in d = 10 with means μ ~ N(0, (1.5·k^{1/d})² I) and equal weights, m = 1000
 * frequencies from the default law and σ rule of {@link FrequencyMatrix}, masks of r = round(α_r·m) features, the add/remove
 * release of {@link DpSketchRelease} (default budget split), CL-OMPR with default options, and the
 * relative SSE against {@link Lloyd#best} on the same points.
 *
 * <p>Declared bounds: the box [−B, B]^d with B = 4·√(s² + 1), s = 1.5·k^{1/d}, i.e. four standard
 * deviations of the marginal law of one coordinate. It is public (a function of the generating law, not
 * of the sample), so the releases are genuinely ε-DP with respect to the declared domain; points outside
 * are clamped for the sketch (the SSE is measured on the unclamped points).
 *
 * <p>Reproducibility: trial t uses the public seed {@code seed + t} for the data, the frequencies and the
 * decoder, and a privacy secret derived as SHA-256("dpclust/ckm-experiment/v1" ‖ seed) — an evaluation
 * secret, never a deployment one. {@code epsilon = +∞} decodes the exact sketch (the noiseless baseline).
 */
public final class CkmExperiment {
    public static final int K = 10;
    public static final int D = 10;
    public static final int M = 1000;

    private CkmExperiment() {}

    /**
     * Result of one cell.
     *
     * @param relativeSse per-trial relative SSE, in trial order
     */
    public record Cell(int n, double alphaR, double epsilon, int trials, double medianRelativeSse, double iqr,
            double[] relativeSse, long millis) {
        public String summary() {
            return String.format(Locale.ROOT,
                    "n=%d alpha_r=%.3g epsilon=%s trials=%d median_relative_sse=%.4f iqr=%.4f time=%.1fs per-trial=%s",
                    n, alphaR, Double.toString(epsilon), trials, medianRelativeSse, iqr, millis / 1000.0,
                    Arrays.toString(Arrays.stream(relativeSse)
                            .mapToObj(v -> String.format(Locale.ROOT, "%.3f", v)).toArray()));
        }
    }

    /** Median relative SSE over {@code trials} trials of the Figure 3 setting. */
    public static Cell run(int n, double alphaR, double epsilon, int trials, long seed) {
        if (n < K || trials < 1 || !(alphaR > 0 && alphaR <= 1) || !(epsilon > 0)) {
            throw new IllegalArgumentException("need n >= k, trials >= 1, alpha_r in (0, 1], epsilon > 0");
        }
        long start = System.nanoTime();
        PrivacySecret secret = secret(seed);
        double[] rel = new double[trials];
        for (int t = 0; t < trials; t++) {
            rel[t] = trial(n, alphaR, epsilon, seed + t, t, secret);
        }
        double[] sorted = rel.clone();
        Arrays.sort(sorted);
        return new Cell(n, alphaR, epsilon, trials, quantile(sorted, 0.5),
                quantile(sorted, 0.75) - quantile(sorted, 0.25), rel, (System.nanoTime() - start) / 1_000_000);
    }

    /** The declared half-width B = 4·√(s² + 1), s = 1.5·k^{1/d}. */
    public static double boundHalfWidth() {
        double s = 1.5 * Math.pow(K, 1.0 / D);
        return 4.0 * Math.sqrt(s * s + 1.0);
    }

    static double trial(int n, double alphaR, double epsilon, long trialSeed, int trialIndex, PrivacySecret secret) {
        SplittableRandom rng = new SplittableRandom(trialSeed); // public randomness (not privacy noise)
        double[][] points = mixture(n, rng);
        double b = boundHalfWidth();
        double[] lo = new double[D];
        double[] hi = new double[D];
        Arrays.fill(lo, -b);
        Arrays.fill(hi, b);
        DomainBounds bounds = new DomainBounds(lo, hi);
        FrequencyMatrix freq = FrequencyMatrix.draw(M, D, FrequencyMatrix.defaultSigma(K, D),
                FrequencyMatrix.DEFAULT_LAW, rng.nextLong());
        int r = (int) Math.max(1, Math.round(alphaR * M));
        MaskedSketch sketch = new MaskedSketch(freq, bounds, r, secret);
        ByteBuffer id = ByteBuffer.allocate(12);
        for (int i = 0; i < n; i++) {
            id.clear();
            id.putInt(trialIndex).putLong(i);
            sketch.add(points[i], id.array());
        }
        double[] z;
        if (Double.isInfinite(epsilon)) {
            z = DpSketchRelease.exactSketch(sketch);
        } else {
            PrivacyRandom noise = PrivacyRandom.forRelease(secret,
                    new ReleaseContext("ckm-experiment", trialIndex, "ckm", "geometric", sketch.digest()));
            z = DpSketchRelease.addRemove(sketch, epsilon, Double.NaN, 1, noise).sketch();
        }
        ClOmpr.Result decoded = ClOmpr.decode(z, freq, K, bounds, ClOmpr.Options.defaults(rng.nextLong()));
        double reference = Lloyd.best(points, K, rng.nextLong()).sse();
        return ClusteringMetrics.relativeSse(ClusteringMetrics.sse(points, decoded.centroids()), reference);
    }

    /** n points, equal-weight mixture of K unit Gaussians with means ~ N(0, (1.5 K^{1/D})² I). */
    static double[][] mixture(int n, SplittableRandom rng) {
        double s = 1.5 * Math.pow(K, 1.0 / D);
        double[][] means = new double[K][D];
        for (double[] mu : means) {
            for (int t = 0; t < D; t++) {
                mu[t] = s * rng.nextGaussian();
            }
        }
        double[][] points = new double[n][D];
        for (int i = 0; i < n; i++) {
            double[] mu = means[rng.nextInt(K)];
            for (int t = 0; t < D; t++) {
                points[i][t] = mu[t] + rng.nextGaussian();
            }
        }
        return points;
    }

    private static PrivacySecret secret(long seed) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update("dpclust/ckm-experiment/v1".getBytes(StandardCharsets.UTF_8));
            sha.update(ByteBuffer.allocate(8).putLong(seed).array());
            return PrivacySecret.of(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    /**
     * Runs one cell and prints its summary: {@code n alpha_r epsilon trials seed} (epsilon "inf" for the
     * noiseless sketch).
     */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        double alphaR = Double.parseDouble(args[1]);
        double epsilon = args[2].equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(args[2]);
        int trials = Integer.parseInt(args[3]);
        long seed = Long.parseLong(args[4]);
        System.out.println(run(n, alphaR, epsilon, trials, seed).summary());
    }
}
