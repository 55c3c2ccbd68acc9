package org.dpclust.eval;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.quality.ClusteringMetrics;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.sketch.MaskedSketch;

/**
 * Paper 003's Figure 3 experiment for compressive k-means with a DP sketch: a mixture of k = 10
 * unit- covariance Gaussians in d = 10 with means μ ~ N(0, (1.5·k^{1/d})² I) and equal weights, m =
 * 1000 frequencies from the default law and σ rule of {@link FrequencyMatrix}, masks of r =
 * round(α_r·m) features, the add/remove release of {@link DpSketchRelease} (default budget split),
 * CL-OMPR with default options, and the relative SSE against a Lloyd reference on the same points
 * ({@link #run}: Lloyd.best; {@link #grid}: see there).
 *
 * <p>Declared bounds: the box [−B, B]^d with B = 4·√(s² + 1), s = 1.5·k^{1/d}, i.e. four standard
 * deviations of the marginal law of one coordinate. It is public (a function of the generating law,
 * not of the sample), so the releases are genuinely ε-DP with respect to the declared domain;
 * points outside are clamped for the sketch (the SSE is measured on the unclamped points).
 *
 * <p>Reproducibility: trial t uses the public seed {@code seed + t} for the data, the frequencies
 * and the decoder, and a privacy secret derived as SHA-256("dpclust/ckm-experiment/v1" ‖ seed) — an
 * evaluation secret, never a deployment one. {@code epsilon = +∞} decodes the exact sketch (the
 * noiseless baseline).
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
    public record Cell(
            int n,
            double alphaR,
            double epsilon,
            int trials,
            double medianRelativeSse,
            double iqr,
            double[] relativeSse,
            long millis) {
        public String summary() {
            return String.format(
                    Locale.ROOT,
                    "n=%d alpha_r=%.3g epsilon=%s trials=%d median_relative_sse=%.4f iqr=%.4f time=%.1fs per-trial=%s",
                    n,
                    alphaR,
                    Double.toString(epsilon),
                    trials,
                    medianRelativeSse,
                    iqr,
                    millis / 1000.0,
                    Arrays.toString(
                            Arrays.stream(relativeSse)
                                    .mapToObj(v -> String.format(Locale.ROOT, "%.3f", v))
                                    .toArray()));
        }
    }

    /**
     * Median relative SSE over {@code trials} trials of one cell, with the {@link Lloyd#best}
     * reference.
     */
    public static Cell run(int n, double alphaR, double epsilon, int trials, long seed) {
        return grid(n, new double[] {alphaR}, new double[] {epsilon}, trials, seed, Lloyd.BEST_OF)
                .get(0);
    }

    /**
     * All cells (α_r, ε) of one n on shared data: trial t draws one dataset, computes one
     * reference, one sketch per α_r (the sketch does not depend on ε) and one release and decode
     * per (α_r, ε), so the cells of a trial are paired comparisons. The reference SSE is the lower
     * of Lloyd with {@code referenceRestarts} k-means++ restarts ({@link Lloyd#run}, {@value
     * Lloyd#DEFAULT_MAX_ITERATIONS} iterations; {@link Lloyd#best} when it is {@value
     * Lloyd#BEST_OF}) and Lloyd started from the true means: never worse than Lloyd.best alone, so
     * relative SSEs are conservative.
     *
     * @return cells in the order α_r major, ε minor
     */
    public static List<Cell> grid(
            int n,
            double[] alphas,
            double[] epsilons,
            int trials,
            long seed,
            int referenceRestarts) {
        for (double alphaR : alphas) {
            if (!(alphaR > 0 && alphaR <= 1)) {
                throw new IllegalArgumentException("alpha_r must be in (0, 1], got " + alphaR);
            }
        }
        for (double epsilon : epsilons) {
            if (!(epsilon > 0)) {
                throw new IllegalArgumentException(
                        "epsilon must be > 0 (or +inf for noiseless), got " + epsilon);
            }
        }
        if (n < K || trials < 1 || referenceRestarts < 1) {
            throw new IllegalArgumentException("need n >= k, trials >= 1, referenceRestarts >= 1");
        }
        long start = System.nanoTime();
        PrivacySecret secret = secret(seed);
        double[][] rel = new double[alphas.length * epsilons.length][trials];
        for (int t = 0; t < trials; t++) {
            double[][] cells = trial(n, alphas, epsilons, seed + t, t, secret, referenceRestarts);
            for (int c = 0; c < cells.length; c++) {
                rel[c][t] = cells[c][0];
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        List<Cell> out = new ArrayList<>();
        for (int a = 0; a < alphas.length; a++) {
            for (int e = 0; e < epsilons.length; e++) {
                double[] r = rel[a * epsilons.length + e];
                double[] sorted = r.clone();
                Arrays.sort(sorted);
                out.add(
                        new Cell(
                                n,
                                alphas[a],
                                epsilons[e],
                                trials,
                                quantile(sorted, 0.5),
                                quantile(sorted, 0.75) - quantile(sorted, 0.25),
                                r,
                                millis));
            }
        }
        return out;
    }

    /** The declared half-width B = 4·√(s² + 1), s = 1.5·k^{1/d}. */
    public static double boundHalfWidth() {
        double s = 1.5 * Math.pow(K, 1.0 / D);
        return 4.0 * Math.sqrt(s * s + 1.0);
    }

    /** One trial: relative SSE per cell (α_r major, ε minor), each as a one-element row. */
    static double[][] trial(
            int n,
            double[] alphas,
            double[] epsilons,
            long trialSeed,
            int trialIndex,
            PrivacySecret secret,
            int referenceRestarts) {
        Setting setting = Setting.of(n, trialSeed, referenceRestarts);
        double[][] points = setting.points();
        DomainBounds bounds = setting.bounds();
        FrequencyMatrix freq = setting.frequencies();
        long decoderSeed = setting.decoderSeed();
        double reference = setting.reference();
        double[][] out = new double[alphas.length * epsilons.length][1];
        ByteBuffer id = ByteBuffer.allocate(12);
        for (int a = 0; a < alphas.length; a++) {
            int r = (int) Math.max(1, Math.round(alphas[a] * M));
            MaskedSketch sketch = new MaskedSketch(freq, bounds, r, secret);
            for (int i = 0; i < n; i++) {
                id.clear();
                id.putInt(trialIndex).putLong(i);
                sketch.add(points[i], id.array());
            }
            byte[] digest = sketch.digest();
            for (int e = 0; e < epsilons.length; e++) {
                double epsilon = epsilons[e];
                double[] z;
                if (Double.isInfinite(epsilon)) {
                    z = DpSketchRelease.exactSketch(sketch);
                } else {
                    PrivacyRandom noise =
                            PrivacyRandom.forRelease(
                                    secret,
                                    new ReleaseContext(
                                            "ckm-experiment",
                                            trialIndex,
                                            "ckm",
                                            "geometric/epsilon=" + epsilon,
                                            digest));
                    z = DpSketchRelease.addRemove(sketch, epsilon, Double.NaN, 1, noise).sketch();
                }
                ClOmpr.Result decoded =
                        ClOmpr.decode(z, freq, K, bounds, ClOmpr.Options.defaults(decoderSeed));
                out[a * epsilons.length + e][0] =
                        ClusteringMetrics.relativeSse(
                                ClusteringMetrics.sse(points, decoded.centroids()), reference);
            }
        }
        return out;
    }

    /**
     * One trial's public setting, all drawn from {@code trialSeed} in this order: the K means, n
     * mixture points, the frequencies' seed, the decoder's seed and the reference's k-means++ seed;
     * the declared box [−B, B]^D; the reference SSE min(Lloyd with {@code referenceRestarts}
     * k-means++ restarts, Lloyd from the true means).
     */
    public record Setting(
            double[][] points,
            DomainBounds bounds,
            FrequencyMatrix frequencies,
            long decoderSeed,
            double reference) {
        public static Setting of(int n, long trialSeed, int referenceRestarts) {
            SplittableRandom rng =
                    new SplittableRandom(trialSeed); // public randomness (not privacy noise)
            double[][] means = means(rng);
            double[][] points = mixture(n, means, rng);
            double b = boundHalfWidth();
            double[] lo = new double[D];
            double[] hi = new double[D];
            Arrays.fill(lo, -b);
            Arrays.fill(hi, b);
            FrequencyMatrix freq =
                    FrequencyMatrix.draw(
                            M,
                            D,
                            FrequencyMatrix.defaultSigma(K, D),
                            FrequencyMatrix.DEFAULT_LAW,
                            rng.nextLong());
            long decoderSeed = rng.nextLong();
            double reference =
                    Math.min(
                            Lloyd.run(
                                            points,
                                            K,
                                            referenceRestarts,
                                            Lloyd.DEFAULT_MAX_ITERATIONS,
                                            rng.nextLong())
                                    .sse(),
                            Lloyd.runFrom(points, means, Lloyd.DEFAULT_MAX_ITERATIONS).sse());
            return new Setting(points, new DomainBounds(lo, hi), freq, decoderSeed, reference);
        }
    }

    /** K means ~ N(0, (1.5 K^{1/D})² I). */
    static double[][] means(SplittableRandom rng) {
        double s = 1.5 * Math.pow(K, 1.0 / D);
        double[][] means = new double[K][D];
        for (double[] mu : means) {
            for (int t = 0; t < D; t++) {
                mu[t] = s * rng.nextGaussian();
            }
        }
        return means;
    }

    /** n points, equal-weight mixture of unit Gaussians around {@code means}. */
    static double[][] mixture(int n, double[][] means, SplittableRandom rng) {
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
     * Prints one line per cell: {@code n alpha_r[,alpha_r..] epsilon[,epsilon..] trials seed
     * [referenceRestarts]} (epsilon "inf" for the noiseless sketch; referenceRestarts defaults to
     * {@value Lloyd#BEST_OF}).
     */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        double[] alphas =
                Arrays.stream(args[1].split(",")).mapToDouble(Double::parseDouble).toArray();
        double[] epsilons =
                Arrays.stream(args[2].split(","))
                        .mapToDouble(
                                v ->
                                        v.equals("inf")
                                                ? Double.POSITIVE_INFINITY
                                                : Double.parseDouble(v))
                        .toArray();
        int trials = Integer.parseInt(args[3]);
        long seed = Long.parseLong(args[4]);
        int restarts = args.length > 5 ? Integer.parseInt(args[5]) : Lloyd.BEST_OF;
        for (Cell cell : grid(n, alphas, epsilons, trials, seed, restarts)) {
            System.out.println(cell.summary() + " reference_restarts=" + restarts);
        }
    }
}
