package org.dpclust.eval.experiment;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.dpclust.eval.CkmExperiment;
import org.dpclust.eval.ProgressBar;
import org.dpclust.eval.ReportWriter;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.io.DomainScaling;
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
 * {@code evaluate ckm} (and {@code ckm-full}): compressive k-means with a DP sketch in paper 003's
 * Figure 3 setting, then on shared data sets. One row per (dataset, n, α_r, ε) with the median and
 * inter-quartile range of the relative SSE over independent trials.
 *
 * <p><b>Synthetic rows</b> (dataset {@code gaussian_mixture}, guarantee {@code dp}): exactly {@link
 * CkmExperiment#grid} — d = k = 10, means ~ N(0, (1.5·k^{1/d})² I), unit covariance, m = 1000
 * Gaussian frequencies with σ = k^{−1/d}/(1.25·√d) in unit-box coordinates of the public declared
 * box [−B, B]^10, B = 4·√(s² + 1) (a function of the generating law, never of the sample), masks of
 * r = α_r·m features, add/remove release ({@link DpSketchRelease#addRemove}, default budget split),
 * CL-OMPR with default options. Trial t of size n is {@code grid(n, α_r's, ε's, 1, seed(n) + t,
 * restarts(n))}: its own data, frequencies, decoder seed and evaluation secret, so trials are
 * independent and run two at a time. Reference: the lower SSE of Lloyd with {@code restarts(n)}
 * k-means++ restarts and Lloyd started from the true means.
 *
 * <p><b>Shared data sets</b> (s1, birch2, mnist10k; k from their labels): scaled to [0, 1]^d by
 * their own per-dimension min/max and sketched with bounds [0, 1]^d. Those bounds are data-derived,
 * so these rows are NOT dp and are labelled {@value #NOT_DP}. m = 10·k·d except mnist10k (d = 784,
 * where 10·k·d = 78 400 is impractical): m = 1000. Reference: {@link Lloyd#best} on the same
 * points. Record identities (mask keys) are the row index; the evaluation secret is fixed per (data
 * set, trial).
 */
public final class CkmEvaluation implements Experiment {
    static final double[] EPSILONS = {0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0};
    static final double[] ALPHAS = {1.0, 0.1};
    static final String SYNTHETIC = "gaussian_mixture";
    static final String NOT_DP = "not-dp (bounds from the data's own min/max)";
    static final long SYNTHETIC_SEED = 4000;
    static final long DATASET_SEED = 77;
    static final int THREADS = 2;

    /** One synthetic size: n, trials, k-means++ restarts of the reference. */
    record Size(int n, int trials, int restarts) {}

    private static double[] field(List<Row> line, String key) {
        return line.stream().mapToDouble(r -> (double) r.fields().get(key)).toArray();
    }

    /** One shared data set's configuration. */
    record Shared(
            String name,
            int m,
            double[] alphas,
            double[] epsilons,
            int trials,
            ClOmpr.Options options) {}

    private final boolean full;

    public CkmEvaluation(boolean full) {
        this.full = full;
    }

    @Override
    public String name() {
        return full ? "ckm-full" : "ckm";
    }

    @Override
    public String description() {
        return "compressive k-means with a DP sketch: paper 003's Fig. 3 (d = k = 10, m = 1000) and s1, birch2,"
                + " mnist10k"
                + (full ? " (10 trials, n up to 1e7)" : "");
    }

    List<Size> sizes(boolean quick) {
        if (quick) {
            return List.of(new Size(10_000, 1, 1));
        }
        if (full) {
            return List.of(
                    new Size(100_000, 10, Lloyd.BEST_OF),
                    new Size(1_000_000, 10, 1),
                    new Size(10_000_000, 10, 1));
        }
        return List.of(new Size(100_000, 10, Lloyd.BEST_OF), new Size(1_000_000, 10, 1));
    }

    static List<Shared> shared(boolean quick) {
        if (quick) {
            return List.of(
                    new Shared(
                            "s1",
                            0,
                            new double[] {1.0},
                            new double[] {1.0},
                            1,
                            new ClOmpr.Options(1, 64, 100, DATASET_SEED)));
        }
        double[] three = {0.01, 0.1, 1.0};
        return List.of(
                new Shared("s1", 0, ALPHAS, three, 3, ClOmpr.Options.defaults(DATASET_SEED)),
                new Shared(
                        "birch2",
                        0,
                        new double[] {1.0},
                        new double[] {0.1, 1.0},
                        1,
                        new ClOmpr.Options(1, 64, 50, DATASET_SEED)),
                new Shared(
                        "mnist10k",
                        1000,
                        ALPHAS,
                        new double[] {0.1, 1.0},
                        1,
                        new ClOmpr.Options(1, 64, 100, DATASET_SEED)));
    }

    /**
     * One table row before it is printed: its identifying fields and the per-trial relative SSEs.
     */
    record Row(
            String dataset,
            int n,
            int d,
            int k,
            int m,
            double alphaR,
            double epsilon,
            String guarantee,
            double[] relativeSse) {
        Map<String, Object> fields() {
            double[] s = relativeSse.clone();
            Arrays.sort(s);
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("dataset", dataset);
            f.put("n", n);
            f.put("alpha_r", alphaR);
            f.put("epsilon", epsilon);
            f.put("median_relative_sse", quantile(s, 0.5));
            f.put("iqr", quantile(s, 0.75) - quantile(s, 0.25));
            f.put("q1_relative_sse", quantile(s, 0.25));
            f.put("q3_relative_sse", quantile(s, 0.75));
            f.put("trials", s.length);
            f.put("d", d);
            f.put("k", k);
            f.put("m", m);
            f.put("guarantee", guarantee);
            return f;
        }
    }

    @Override
    public Path run(ExperimentContext ctx) {
        List<Size> sizes = sizes(ctx.quick());
        double[] alphas = ALPHAS;
        double[] epsilons = ctx.quick() ? new double[] {0.1, 1.0} : EPSILONS;
        List<Shared> sharedSets = shared(ctx.quick());
        long started = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        Map<String, Double> seconds = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long steps =
                sizes.stream().mapToLong(Size::trials).sum()
                        + sharedSets.stream().mapToLong(Shared::trials).sum();
        try (ProgressBar progress = new ProgressBar("evaluate " + name(), steps)) {
            for (Size size : sizes) {
                long t0 = System.nanoTime();
                List<Future<List<CkmExperiment.Cell>>> trials = new ArrayList<>();
                for (int t = 0; t < size.trials(); t++) {
                    long seed = syntheticSeed(size.n()) + t;
                    trials.add(
                            pool.submit(
                                    () ->
                                            CkmExperiment.grid(
                                                    size.n(),
                                                    alphas,
                                                    epsilons,
                                                    1,
                                                    seed,
                                                    size.restarts())));
                }
                double[][] rel = new double[alphas.length * epsilons.length][size.trials()];
                for (int t = 0; t < size.trials(); t++) {
                    List<CkmExperiment.Cell> cells = get(trials.get(t));
                    for (int c = 0; c < cells.size(); c++) {
                        rel[c][t] = cells.get(c).relativeSse()[0];
                    }
                    progress.step();
                }
                for (int a = 0; a < alphas.length; a++) {
                    for (int e = 0; e < epsilons.length; e++) {
                        rows.add(
                                emit(
                                        ctx,
                                        new Row(
                                                SYNTHETIC,
                                                size.n(),
                                                CkmExperiment.D,
                                                CkmExperiment.K,
                                                CkmExperiment.M,
                                                alphas[a],
                                                epsilons[e],
                                                "dp",
                                                rel[a * epsilons.length + e])));
                    }
                }
                seconds.put(SYNTHETIC + " n=" + size.n(), (System.nanoTime() - t0) / 1e9);
            }
            for (Shared s : sharedSets) {
                long t0 = System.nanoTime();
                Dataset data = DomainScaling.toUnitBoxByOwnMinMax(DatasetLoader.load(s.name()));
                int k = data.labelCount();
                int m = s.m() > 0 ? s.m() : FrequencyMatrix.defaultSize(k, data.dimension());
                double reference = Lloyd.best(data.points(), k, DATASET_SEED).sse();
                List<Future<double[]>> trials = new ArrayList<>();
                for (int t = 0; t < s.trials(); t++) {
                    int trial = t;
                    trials.add(pool.submit(() -> datasetTrial(data, k, m, s, trial, reference)));
                }
                double[][] rel = new double[s.alphas().length * s.epsilons().length][s.trials()];
                for (int t = 0; t < s.trials(); t++) {
                    double[] cells = get(trials.get(t));
                    for (int c = 0; c < cells.length; c++) {
                        rel[c][t] = cells[c];
                    }
                    progress.step();
                }
                for (int a = 0; a < s.alphas().length; a++) {
                    for (int e = 0; e < s.epsilons().length; e++) {
                        rows.add(
                                emit(
                                        ctx,
                                        new Row(
                                                s.name(),
                                                data.size(),
                                                data.dimension(),
                                                k,
                                                m,
                                                s.alphas()[a],
                                                s.epsilons()[e],
                                                NOT_DP,
                                                rel[a * s.epsilons().length + e])));
                    }
                }
                seconds.put(s.name(), (System.nanoTime() - t0) / 1e9);
            }
        } finally {
            pool.shutdownNow();
        }
        return report(
                ctx,
                sizes,
                sharedSets,
                epsilons,
                rows,
                seconds,
                (System.nanoTime() - started) / 1e9);
    }

    static long syntheticSeed(int n) {
        return SYNTHETIC_SEED + 100L * Math.round(Math.log10(n));
    }

    private static Row emit(ExperimentContext ctx, Row row) {
        if (ctx.json() != null) {
            ctx.json().print(row.fields());
        }
        return row;
    }

    /**
     * One trial on a shared data set: one frequency draw and one sketch per α_r, one release and
     * decode per (α_r, ε); relative SSEs in the order α_r major, ε minor.
     */
    static double[] datasetTrial(
            Dataset data, int k, int m, Shared s, int trial, double reference) {
        int d = data.dimension();
        double[] lo = new double[d];
        double[] hi = new double[d];
        Arrays.fill(hi, 1.0);
        DomainBounds box = new DomainBounds(lo, hi);
        long seed = DATASET_SEED + trial;
        FrequencyMatrix freq =
                FrequencyMatrix.draw(
                        m,
                        d,
                        FrequencyMatrix.defaultSigma(k, d),
                        FrequencyMatrix.DEFAULT_LAW,
                        seed);
        PrivacySecret secret = evaluationSecret(s.name(), trial);
        double[] out = new double[s.alphas().length * s.epsilons().length];
        ByteBuffer id = ByteBuffer.allocate(8);
        for (int a = 0; a < s.alphas().length; a++) {
            MaskedSketch sketch =
                    new MaskedSketch(
                            freq, box, (int) Math.max(1, Math.round(s.alphas()[a] * m)), secret);
            for (int i = 0; i < data.size(); i++) {
                sketch.add(data.points()[i], id.clear().putLong(i).array());
            }
            byte[] digest = sketch.digest();
            for (int e = 0; e < s.epsilons().length; e++) {
                double eps = s.epsilons()[e];
                PrivacyRandom noise =
                        PrivacyRandom.forRelease(
                                secret,
                                new ReleaseContext(
                                        s.name(),
                                        trial,
                                        "ckm",
                                        "geometric/epsilon=" + eps,
                                        digest));
                double[] z = DpSketchRelease.addRemove(sketch, eps, Double.NaN, 1, noise).sketch();
                ClOmpr.Options o = s.options();
                ClOmpr.Result decoded =
                        ClOmpr.decode(
                                z,
                                freq,
                                k,
                                box,
                                new ClOmpr.Options(
                                        o.replicates(), o.candidates(), o.maxIterations(), seed));
                out[a * s.epsilons().length + e] =
                        ClusteringMetrics.relativeSse(
                                ClusteringMetrics.sse(data.points(), decoded.centroids()),
                                reference);
            }
        }
        return out;
    }

    /**
     * A fixed evaluation secret per (data set, trial): SHA-256 of a public label (never a
     * deployment secret).
     */
    static PrivacySecret evaluationSecret(String dataset, int trial) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return PrivacySecret.of(
                    sha.digest(
                            ("dpclust/ckm-evaluation/v1/" + dataset + "/" + trial)
                                    .getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static <T> T get(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a trial failed: " + e.getCause(), e.getCause());
        }
    }

    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    private Path report(
            ExperimentContext ctx,
            List<Size> sizes,
            List<Shared> sharedSets,
            double[] epsilons,
            List<Row> rows,
            Map<String, Double> seconds,
            double total) {
        ReportWriter report =
                new ReportWriter(
                        ctx.outDir(),
                        "evaluate "
                                + name()
                                + ": compressive k-means with a"
                                + " DP sketch"
                                + (ctx.quick() ? " (quick configuration)" : ""));
        report.recordCommand(ctx.command());
        for (Size s : sizes) {
            report.recordSeed(
                    String.format(
                            Locale.ROOT,
                            "gaussian_mixture n=%d: trial t uses seed %d + t (data,"
                                    + " frequencies, decoder, reference seeding; evaluation secret SHA-256(\"dpclust/ckm-experiment/v1\""
                                    + " ‖ seed))",
                            s.n(),
                            syntheticSeed(s.n())),
                    syntheticSeed(s.n()));
        }
        report.recordSeed(
                "shared data sets: trial t uses seed dataset_seed + t for the frequencies and the decoder;"
                        + " Lloyd.best reference seed dataset_seed; secret SHA-256(\"dpclust/ckm-evaluation/v1/NAME/t\")",
                DATASET_SEED);
        report.recordNote(
                "relative SSE = SSE of the decoded centroids on the (unclamped) points / reference SSE."
                        + " gaussian_mixture reference: min(Lloyd with R k-means++ restarts, Lloyd from the true means);"
                        + " R = 10 (Lloyd.best) at n = 1e5 and R = 1 at n >= 1e6, where 10 restarts on 1e6 points cost"
                        + " more than the rest of a trial; adding the true-means start keeps the reference at least as"
                        + " good as Lloyd.best would usually be, so the relative SSEs are conservative. Shared data sets:"
                        + " Lloyd.best (10 k-means++ restarts).");
        report.recordNote(
                "sigma rule (every row): Gaussian frequencies with scale sigma = k^(-1/d) / (1.25 sqrt(d))"
                        + " in unit-box coordinates of the declared bounds (FrequencyMatrix.defaultSigma): from k and d"
                        + " only, never from the data.");
        report.recordNote(
                "Release: DpSketchRelease.addRemove (add/remove one record; two-sided geometric noise on"
                        + " the fixed-point sum at L1 sensitivity r*sqrt(2) and on the count, count share of epsilon"
                        + " (4m^2)^(-1/3)/(1+(4m^2)^(-1/3)), i.e. epsilon/160 at m = 1000), calibrated from the derived"
                        + " sensitivity, not paper 003's printed Proposition 1. Decoder: ClOmpr (projected L-BFGS, NNLS).");
        report.recordNote(
                "gaussian_mixture rows are dp: the declared box [-B, B]^10, B = 4 sqrt(s^2 + 1),"
                        + " s = 1.5 k^(1/d), is a function of the generating law (points outside are clamped for the"
                        + " sketch). s1, birch2, mnist10k rows are NOT dp: they are scaled to [0, 1]^d by the data set's"
                        + " OWN per-dimension min/max (label '"
                        + NOT_DP
                        + "').");
        report.recordNote(
                "Shared data sets: m = 10 k d (s1: 300, birch2: 2000) except mnist10k, m = 1000 (chosen:"
                        + " 10 k d = 78400 features of dimension 784 would make each decode take hours; 1000 matches the"
                        + " synthetic setting). CL-OMPR options per data set are listed below; birch2 (k = 100) and"
                        + " mnist10k (d = 784) use 1 replicate and capped L-BFGS iterations to bound the run time.");
        List<List<Object>> cfg = new ArrayList<>();
        for (Size s : sizes) {
            cfg.add(
                    List.of(
                            SYNTHETIC,
                            s.n(),
                            s.trials(),
                            "R = " + s.restarts(),
                            "defaults (3 replicates, 256, 300)",
                            String.format(
                                    Locale.ROOT,
                                    "%.0f",
                                    seconds.getOrDefault(SYNTHETIC + " n=" + s.n(), 0.0))));
        }
        for (Shared s : sharedSets) {
            ClOmpr.Options o = s.options();
            cfg.add(
                    List.of(
                            s.name(),
                            "all",
                            s.trials(),
                            "Lloyd.best",
                            o.replicates()
                                    + " replicates, "
                                    + o.candidates()
                                    + " candidates, "
                                    + o.maxIterations()
                                    + " iterations",
                            String.format(
                                    Locale.ROOT, "%.0f", seconds.getOrDefault(s.name(), 0.0))));
        }
        report.addTable(
                "Configurations",
                List.of("dataset", "n", "trials", "reference", "CL-OMPR", "wall seconds"),
                cfg);
        if (!ctx.quick()) {
            report.recordNote(
                    "Trials: 10 per synthetic cell"
                            + (full
                                    ? " (n = 1e5, 1e6, 1e7)."
                                    : " (n = 1e5, 1e6;" + " `evaluate ckm --full` adds n = 1e7)."));
            report.recordNote(
                    "The shared data sets use 1 to 3 trials and fewer epsilons to bound the run time (see"
                            + " the rows' `trials`).");
        }
        report.recordNote(
                String.format(
                        Locale.ROOT,
                        "Run time of the run that wrote this report: %.0f s (2 trials in"
                                + " parallel).",
                        total));
        List<ReportWriter.Series> series = new ArrayList<>();
        boolean positive = true;
        for (Size s : sizes) {
            for (double a : ALPHAS) {
                List<Row> line =
                        rows.stream()
                                .filter(
                                        r ->
                                                r.dataset().equals(SYNTHETIC)
                                                        && r.n() == s.n()
                                                        && r.alphaR() == a)
                                .toList();
                if (line.isEmpty()) {
                    continue;
                }
                double[] x = line.stream().mapToDouble(Row::epsilon).toArray();
                double[] y = field(line, "median_relative_sse");
                double[] q1 = field(line, "q1_relative_sse");
                double[] q3 = field(line, "q3_relative_sse");
                positive &= Arrays.stream(q1).allMatch(v -> v > 0 && Double.isFinite(v));
                series.add(
                        new ReportWriter.Series(
                                String.format(
                                        Locale.ROOT, "n = %.0e, alpha_r = %s", (double) s.n(), a),
                                x,
                                y,
                                q1,
                                q3));
            }
        }
        report.addLinePlot(
                "median_relative_sse_vs_epsilon",
                "gaussian_mixture (d = k = 10, m = 1000): median relative SSE vs epsilon",
                "epsilon (log scale)",
                "median relative SSE" + (positive ? " (log scale)" : ""),
                series,
                true,
                positive,
                "interquartile range over the trials of each point (see the table's trials)");
        List<List<Object>> table = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> f = r.fields();
            table.add(
                    List.of(
                            r.dataset(),
                            r.n(),
                            r.alphaR(),
                            r.epsilon(),
                            String.format(
                                    Locale.ROOT, "%.4f", (double) f.get("median_relative_sse")),
                            String.format(Locale.ROOT, "%.4f", (double) f.get("iqr")),
                            f.get("trials"),
                            r.m(),
                            r.guarantee()));
        }
        report.addTable(
                "Median relative SSE",
                List.of(
                        "dataset",
                        "n",
                        "alpha_r",
                        "epsilon",
                        "median relative SSE",
                        "IQR",
                        "trials",
                        "m",
                        "guarantee"),
                table);
        return report.write();
    }
}
