package org.dpclust.eval.experiment;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.dpclust.eval.CkmExperiment;
import org.dpclust.eval.ProgressBar;
import org.dpclust.eval.ReportWriter;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.quality.ClusteringMetrics;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.sketch.MaskedSketch;
import org.dpclust.sketch.SketchMasks;

/**
 * {@code evaluate ckm-mask}: whether the streams' block masks (r cyclically consecutive features
 * from a uniform offset) change the utility of compressive k-means against paper 003's uniform
 * masks, in the paper's Figure 3 setting ({@link CkmExperiment}: d = k = 10, m = 1000, the declared
 * box [−B, B]^10, Gaussian frequencies at the default σ, add/remove release, CL-OMPR with default
 * options).
 *
 * <p>Paired: in each trial both shapes sketch the SAME records with the same frequencies and
 * identities, are released with the SAME noise (the release context names trial, α_r and ε but not
 * the shape, and not the sketch's contents) and decoded with the same decoder seed; the only
 * difference is which features each record's mask holds. Per (n, α_r, ε): the relative SSE of each
 * shape (SSE of the decoded centroids / the reference SSE of {@link CkmExperiment}) and the paired
 * difference block − uniform over the trials (mean, sd, and the trials where block is not worse). ε
 * = ∞ is the exact sketch: the masks' effect without noise.
 */
public final class CkmMaskExperiment implements Experiment {
    static final double[] EPSILONS = {0.1, 1.0, Double.POSITIVE_INFINITY};
    static final double[] ALPHAS = {0.1, 0.01};
    static final SketchMasks.Shape[] SHAPES = {SketchMasks.Shape.UNIFORM, SketchMasks.Shape.BLOCK};
    static final long SEED = 7000;
    static final int THREADS = 2;

    @Override
    public String name() {
        return "ckm-mask";
    }

    @Override
    public String description() {
        return "ckm mask shapes (uniform, block) with paired data, frequencies and noise: relative"
                + " SSE and the paired difference";
    }

    private record Config(int[] sizes, int trials) {}

    @Override
    public Path run(ExperimentContext ctx) {
        Config cfg =
                ctx.quick()
                        ? new Config(new int[] {5000}, 2)
                        : new Config(new int[] {10_000, 100_000}, 8);
        long started = System.nanoTime();
        // per (n, alpha, eps, shape): relative SSE per trial
        Map<String, double[]> sse = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (ProgressBar progress =
                new ProgressBar("evaluate ckm-mask", cfg.sizes().length * cfg.trials())) {
            for (int n : cfg.sizes()) {
                List<Future<double[]>> trials = new ArrayList<>();
                for (int t = 0; t < cfg.trials(); t++) {
                    int trial = t;
                    trials.add(pool.submit(() -> trial(n, trial)));
                }
                for (int t = 0; t < cfg.trials(); t++) {
                    double[] v = trials.get(t).get();
                    progress.step();
                    int i = 0;
                    for (double alpha : ALPHAS) {
                        for (double eps : EPSILONS) {
                            for (SketchMasks.Shape shape : SHAPES) {
                                sse.computeIfAbsent(
                                                        key(n, alpha, eps, shape),
                                                        k -> new double[cfg.trials()])[t] =
                                        v[i++];
                            }
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        List<ReportWriter.Series> plot = new ArrayList<>();
        double[] noisy = Arrays.stream(EPSILONS).filter(Double::isFinite).toArray();
        for (int n : cfg.sizes()) {
            for (double alpha : ALPHAS) {
                double[] mean = new double[noisy.length];
                double[] low = new double[noisy.length];
                double[] high = new double[noisy.length];
                for (int e = 0; e < noisy.length; e++) {
                    double[] diff =
                            pairedDiff(
                                    sse.get(key(n, alpha, noisy[e], SketchMasks.Shape.UNIFORM)),
                                    sse.get(key(n, alpha, noisy[e], SketchMasks.Shape.BLOCK)));
                    mean[e] = Arrays.stream(diff).average().orElse(0);
                    double se = HstSnapExperiment.sd(diff) / Math.sqrt(diff.length);
                    low[e] = mean[e] - 2 * se;
                    high[e] = mean[e] + 2 * se;
                }
                plot.add(
                        new ReportWriter.Series(
                                "n = " + n + ", alpha_r = " + alpha, noisy, mean, low, high));
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        for (int n : cfg.sizes()) {
            for (double alpha : ALPHAS) {
                for (double eps : EPSILONS) {
                    double[] u = sse.get(key(n, alpha, eps, SketchMasks.Shape.UNIFORM));
                    double[] b = sse.get(key(n, alpha, eps, SketchMasks.Shape.BLOCK));
                    double[] diff = pairedDiff(u, b);
                    int notWorse = (int) Arrays.stream(diff).filter(x -> x <= 0).count();
                    double meanDiff = Arrays.stream(diff).average().orElse(0);
                    rows.add(
                            List.of(
                                    n,
                                    alpha,
                                    epsilonLabel(eps),
                                    String.format("%.4f", median(u)),
                                    String.format("%.4f", median(b)),
                                    String.format("%+.4f", meanDiff),
                                    String.format("%.4f", HstSnapExperiment.sd(diff)),
                                    notWorse + "/" + diff.length));
                    if (ctx.json() != null) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("n", n);
                        row.put("alpha_r", alpha);
                        row.put("epsilon", epsilonLabel(eps));
                        row.put("median_relative_sse_uniform", median(u));
                        row.put("median_relative_sse_block", median(b));
                        row.put("paired_diff_mean", meanDiff);
                        row.put("paired_diff_sd", HstSnapExperiment.sd(diff));
                        row.put("block_not_worse", notWorse);
                        row.put("trials", diff.length);
                        ctx.json().print(row);
                    }
                }
            }
        }
        ReportWriter report =
                new ReportWriter(
                        ctx.outDir(),
                        "evaluate ckm-mask: uniform and block masks, paired"
                                + (ctx.quick() ? " (quick configuration)" : ""));
        report.recordCommand(ctx.command())
                .recordSeed(
                        "trial t of size n uses seed base + n + t (data, frequencies, decoder,"
                                + " reference seeding)",
                        SEED)
                .recordNote(
                        "Figure 3 setting of paper 003 (as evaluate ckm): d = k = 10, m = "
                                + CkmExperiment.M
                                + ", the declared box [-B, B]^10, default sigma, add/remove release,"
                                + " CL-OMPR with default options; "
                                + cfg.trials()
                                + " trials per n.")
                .recordNote(
                        "Paired: both shapes sketch the same records (same identities) with the same"
                                + " frequencies, get the same noise (a FIXED TEST SECRET and a release"
                                + " context naming trial, alpha_r and epsilon, not the shape) and the same"
                                + " decoder seed.")
                .recordNote(
                        "relative SSE = SSE of the decoded centroids / min(Lloyd with 10 k-means++"
                                + " restarts, Lloyd from the true means); paired diff = block minus"
                                + " uniform per trial (mean, sd); not worse = trials with diff <= 0.")
                .recordNote(
                        String.format("Run time: %.1f s (%d trials at a time).", seconds, THREADS))
                .addLinePlot(
                        "paired_difference_vs_epsilon",
                        "block minus uniform masks: relative SSE, paired, per trial",
                        "epsilon (log scale)",
                        "mean paired difference in relative SSE",
                        plot,
                        true,
                        false,
                        "mean ± 2 standard errors of the paired difference over the trials"
                                + " (below 0: block better)")
                .addTable(
                        "Relative SSE (median over trials) and the paired difference",
                        List.of(
                                "n",
                                "alpha_r",
                                "epsilon",
                                "uniform",
                                "block",
                                "paired diff",
                                "sd diff",
                                "block not worse"),
                        rows);
        return report.write();
    }

    /**
     * One trial: relative SSE per (α_r, ε, shape), in that nesting order; everything but the shape
     * shared.
     */
    static double[] trial(int n, int trial) {
        CkmExperiment.Setting setting = CkmExperiment.Setting.of(n, SEED + n + trial, 10);
        double[][] points = setting.points();
        DomainBounds bounds = setting.bounds();
        FrequencyMatrix freq = setting.frequencies();
        long decoderSeed = setting.decoderSeed();
        double reference = setting.reference();
        PrivacySecret secret = StatsReplayExperiment.testSecret();
        double[] out = new double[ALPHAS.length * EPSILONS.length * SHAPES.length];
        ByteBuffer id = ByteBuffer.allocate(12);
        int i = 0;
        for (double alpha : ALPHAS) {
            int r = (int) Math.max(1, Math.round(alpha * CkmExperiment.M));
            MaskedSketch[] sketches = new MaskedSketch[SHAPES.length];
            for (int s = 0; s < SHAPES.length; s++) {
                sketches[s] = new MaskedSketch(freq, bounds, r, SHAPES[s], secret);
                for (int p = 0; p < n; p++) {
                    id.clear();
                    id.putInt(trial).putLong(p);
                    sketches[s].add(points[p], id.array());
                }
            }
            for (double eps : EPSILONS) {
                for (MaskedSketch sketch : sketches) {
                    double[] z;
                    if (Double.isInfinite(eps)) {
                        z = DpSketchRelease.exactSketch(sketch);
                    } else {
                        PrivacyRandom noise =
                                PrivacyRandom.forRelease(
                                        secret,
                                        new ReleaseContext(
                                                "ckm-mask/n=" + n + "/alpha=" + alpha,
                                                trial,
                                                "ckm",
                                                "geometric/epsilon=" + eps,
                                                new byte[0]));
                        z = DpSketchRelease.addRemove(sketch, eps, Double.NaN, 1, noise).sketch();
                    }
                    ClOmpr.Result decoded =
                            ClOmpr.decode(
                                    z,
                                    freq,
                                    CkmExperiment.K,
                                    bounds,
                                    ClOmpr.Options.defaults(decoderSeed));
                    out[i++] =
                            ClusteringMetrics.relativeSse(
                                    ClusteringMetrics.sse(points, decoded.centroids()), reference);
                }
            }
        }
        return out;
    }

    /** block − uniform, trial by trial. */
    private static double[] pairedDiff(double[] uniform, double[] block) {
        double[] diff = new double[uniform.length];
        for (int t = 0; t < diff.length; t++) {
            diff[t] = block[t] - uniform[t];
        }
        return diff;
    }

    private static String key(int n, double alpha, double eps, SketchMasks.Shape shape) {
        return n + "/" + alpha + "/" + eps + "/" + shape;
    }

    private static String epsilonLabel(double eps) {
        return Double.isInfinite(eps) ? "inf" : Double.toString(eps);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int h = s.length / 2;
        return s.length % 2 == 1 ? s[h] : (s[h - 1] + s[h]) / 2;
    }
}
