package org.dpclust.eval.experiment;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpclust.eval.ProgressBar;
import org.dpclust.eval.ReportWriter;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.privacy.Zcdp;
import org.dpclust.quality.ClusteringMetrics;
import org.dpclust.synthetic.DriftingGaussianMixture;

/**
 * {@code evaluate device-day}: a simulated day of device telemetry through the streaming {@code
 * stats} release, in the core (no Flink, no Kafka). D devices each report c = 5 records in every
 * 10-second window of the day (8,640 windows) from a {@link DriftingGaussianMixture} whose centres
 * go once round their circles per day; the privacy unit is the device, and every variant spends the
 * same (ε, δ) = (10, 10⁻⁹) per day:
 *
 * <ul>
 *   <li>{@code pure}: geometric noise at ε/8,640 per window (pure ε composes by summing over the
 *       windows);
 *   <li>{@code zcdp}: discrete Gaussian noise at ρ/8,640 per window, ρ = {@link Zcdp#rhoCap}(10,
 *       10⁻⁹) (zCDP composes additively; the noise grows as the square root of the windows);
 *   <li>{@code zcdp-running}: the last W {@code zcdp} releases' noisy cells summed and
 *       post-processed into centroids — pure post-processing of the per-window releases, no extra
 *       budget (docs/zcdp.md explains why this, and not a binary tree, is the running release for
 *       device units that report in every window).
 * </ul>
 *
 * Each window's exact statistics are built as the operator builds them (public partition {@link
 * PublicPointSet#uniform}, {@link FixedPointCodec}); to stay within minutes the D·c records of a
 * window are represented by R records drawn from the mixture, each counted D·c/R times (the
 * sampling error this leaves is far below the DP noise). The noise is drawn through {@link
 * PrivacyRandom} under a fixed test secret. Quality per window against the mixture's true centres
 * of that window: matched error (mean distance of the optimally matched centroids, in box widths)
 * and relative SSE (SSE of the released centroids on the window's R records over the SSE of the
 * true centres).
 */
public final class DeviceDayExperiment implements Experiment {
    static final double EPSILON_PER_DAY = 10;
    static final double DELTA = 1e-9;
    static final int C = 5;
    static final int K = 3;
    static final int CELLS = 32;
    static final long MIXTURE_SEED = 16;
    static final long PARTITION_SEED = 17;

    /**
     * A reference, not a release: what the same per-window zCDP noise leaves when the cells ARE the
     * clusters (the Voronoi cells of the window's true centres — known only to the simulation), so
     * no estimator working on one window's noisy cells can be expected to beat it by much.
     */
    static final String ORACLE = "zcdp-oracle-cells";

    static final String[] VARIANTS = {"pure", "zcdp", "zcdp-running", ORACLE};

    /** The run's sizes. */
    record Sizes(int windows, int devices, int sampled, int running) {
        long recordsPerWindow() {
            return (long) devices * C;
        }

        long multiplicity() {
            return recordsPerWindow() / sampled;
        }
    }

    /** One simulated day per device count (the full run: 2,000, 10,000 and 40,000 devices). */
    static List<Sizes> sizes(boolean quick) {
        if (quick) {
            return List.of(new Sizes(288, 10_000, 200, 12));
        }
        return List.of(
                new Sizes(8640, 2_000, 500, 360),
                new Sizes(8640, 10_000, 500, 360),
                new Sizes(8640, 20_000, 500, 360),
                new Sizes(8640, 40_000, 500, 360));
    }

    @Override
    public String name() {
        return "device-day";
    }

    @Override
    public String description() {
        return "a simulated day of 10-second windows, device units (c = 5): pure ε vs zCDP vs"
                + " zCDP running releases at the same (ε, δ) per day";
    }

    @Override
    public Path run(ExperimentContext ctx) {
        List<Sizes> all = sizes(ctx.quick());
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, double[]> noise = new LinkedHashMap<>();
        long started = System.nanoTime();
        try (ProgressBar progress =
                new ProgressBar(
                        "evaluate device-day", all.stream().mapToLong(Sizes::windows).sum())) {
            for (Sizes z : all) {
                simulate(ctx, z, rows, noise, progress);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return report(ctx, all, rows, noise, seconds);
    }

    /** One simulated day at sizes z: appends its rows and, per variant, its noise sd's. */
    private static void simulate(
            ExperimentContext ctx,
            Sizes z,
            List<Map<String, Object>> rows,
            Map<String, double[]> noise,
            ProgressBar progress) {
        DomainBounds box = new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
        FixedPointCodec codec = new FixedPointCodec(box);
        PublicPointSet cells = PublicPointSet.uniform(box, CELLS, PARTITION_SEED);
        DriftingGaussianMixture mixture =
                new DriftingGaussianMixture(
                        box.lowerCopy(),
                        box.upperCopy(),
                        K,
                        0.03,
                        2 * Math.PI / z.windows(),
                        MIXTURE_SEED);
        double epsilonWindow = EPSILON_PER_DAY / z.windows();
        double rhoDay = Zcdp.rhoCap(EPSILON_PER_DAY, DELTA);
        double rhoWindow = rhoDay * (1 - 1e-9) / z.windows();
        PrivacySecret secret = StatsReplayExperiment.testSecret();
        double[][] initial = SnapshotStatistics.publicInitialCentroids(box, K, PARTITION_SEED);
        double[][][] previous = {initial, initial, initial, initial};
        ArrayDeque<DpClusterStatistics.NoisyCells> recent = new ArrayDeque<>();
        long[] runningCounts = new long[CELLS];
        long[] runningSums = new long[CELLS * 2];
        {
            for (int w = 0; w < z.windows(); w++) {
                double[][] pts = mixture.sample(w, z.sampled());
                double[][] truth = mixture.centers(w);
                ClusterStatistics stats = SnapshotStatistics.accumulate(pts, codec, cells);
                long[] state = stats.state();
                for (int i = 0; i < state.length; i++) {
                    state[i] *= z.multiplicity();
                }
                double trueSse = ClusteringMetrics.sse(pts, truth);
                DpClusterStatistics.NoisyCells pureCells =
                        DpClusterStatistics.noise(
                                stats,
                                codec,
                                epsilonWindow,
                                Double.NaN,
                                C,
                                rng(secret, w, "pure", stats));
                DpClusterStatistics.NoisyCells gaussCells =
                        DpClusterStatistics.noiseGaussian(
                                stats,
                                codec,
                                rhoWindow,
                                Double.NaN,
                                C,
                                rng(secret, w, "zcdp", stats));
                recent.addLast(gaussCells);
                addInto(runningCounts, gaussCells.counts(), 1);
                addInto(runningSums, gaussCells.sums(), 1);
                if (recent.size() > z.running()) {
                    DpClusterStatistics.NoisyCells old = recent.removeFirst();
                    addInto(runningCounts, old.counts(), -1);
                    addInto(runningSums, old.sums(), -1);
                }
                double root = Math.sqrt(recent.size());
                DpClusterStatistics.NoisyCells running =
                        new DpClusterStatistics.NoisyCells(
                                runningCounts.clone(),
                                runningSums.clone(),
                                gaussCells.epsilonCount(),
                                gaussCells.epsilonSum(),
                                gaussCells.countSensitivity(),
                                gaussCells.sumSensitivity(),
                                gaussCells.countScale() * root,
                                gaussCells.sumScale() * root,
                                true);
                ClusterStatistics oracleStats =
                        SnapshotStatistics.accumulate(pts, codec, new PublicPointSet(truth));
                long[] oracleState = oracleStats.state();
                for (int i = 0; i < oracleState.length; i++) {
                    oracleState[i] *= z.multiplicity();
                }
                DpClusterStatistics.NoisyCells oracleCells =
                        DpClusterStatistics.noiseGaussian(
                                oracleStats,
                                codec,
                                rhoWindow,
                                Double.NaN,
                                C,
                                rng(secret, w, ORACLE, oracleStats));
                previous[3] = truth;
                DpClusterStatistics.NoisyCells[] released = {
                    pureCells, gaussCells, running, oracleCells
                };
                for (int v = 0; v < VARIANTS.length; v++) {
                    DpClusterStatistics.Release r =
                            DpClusterStatistics.postProcess(
                                    released[v],
                                    codec,
                                    previous[v],
                                    rng(secret, w, VARIANTS[v] + "/post", stats));
                    previous[v] = r.centroids();
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("devices", z.devices());
                    row.put("variant", VARIANTS[v]);
                    row.put("window", w);
                    row.put(
                            "matched_error",
                            ClusteringMetrics.meanMatchedDistance(truth, r.centroids()));
                    row.put(
                            "relative_sse",
                            ClusteringMetrics.relativeSse(
                                    ClusteringMetrics.sse(pts, r.centroids()), trueSse));
                    row.put("cells_used", r.parameters().get("cells_used").intValue());
                    rows.add(row);
                    if (ctx.json() != null && (w % 60 == 0 || w == z.windows() - 1)) {
                        ctx.json().print(row);
                    }
                    noise.put(
                            z.devices() + "/" + VARIANTS[v],
                            new double[] {
                                released[v].countScale() * (v == 0 ? Math.sqrt(2) : 1),
                                released[v].sumScale() / 0x1p32 * (v == 0 ? Math.sqrt(2) : 1)
                            });
                }
                progress.step();
            }
        }
    }

    private static PrivacyRandom rng(
            PrivacySecret secret, int window, String variant, ClusterStatistics stats) {
        return PrivacyRandom.forRelease(
                secret,
                new ReleaseContext(
                        "device-day", window, "stats/" + variant, "device-day-v1", stats.digest()));
    }

    private static void addInto(long[] into, long[] part, int sign) {
        for (int i = 0; i < into.length; i++) {
            into[i] += sign * part[i];
        }
    }

    /** The q-quantile (nearest rank) of the variant's values of {@code key} at D devices. */
    static double quantile(
            List<Map<String, Object>> rows, int devices, String variant, String key, double q) {
        double[] v =
                rows.stream()
                        .filter(
                                r ->
                                        r.get("variant").equals(variant)
                                                && (int) r.get("devices") == devices)
                        .mapToDouble(r -> ((Number) r.get(key)).doubleValue())
                        .sorted()
                        .toArray();
        return v[Math.min(v.length - 1, (int) Math.ceil(q * v.length) - 1)];
    }

    private Path report(
            ExperimentContext ctx,
            List<Sizes> all,
            List<Map<String, Object>> rows,
            Map<String, double[]> noise,
            double seconds) {
        int windows = all.get(0).windows();
        double epsilonWindow = EPSILON_PER_DAY / windows;
        double rhoDay = Zcdp.rhoCap(EPSILON_PER_DAY, DELTA);
        double rhoWindow = rhoDay * (1 - 1e-9) / windows;
        ReportWriter report =
                new ReportWriter(
                        ctx.outDir(),
                        "evaluate device-day: a day of device telemetry, pure ε vs zCDP"
                                + (ctx.quick() ? " (quick configuration)" : ""));
        report.recordCommand(ctx.command())
                .recordSeed("mixture_seed (DriftingGaussianMixture)", MIXTURE_SEED)
                .recordSeed(
                        "partition_seed (PublicPointSet.uniform and initial centroids)",
                        PARTITION_SEED)
                .recordNote(
                        String.format(
                                Locale.ROOT,
                                "Setup: %d windows of 10 s (one day); D devices x c = %d records per"
                                        + " window, D in %s, represented by %d records drawn from the"
                                        + " mixture each counted D·c/%d times; d = 2, box [0, 1]^2, k ="
                                        + " %d clusters (sd 0.03 box widths, centres circling 0.04 widths"
                                        + " once per day), %d public cells; device units with c = %d.",
                                windows,
                                C,
                                all.stream().map(z -> String.valueOf(z.devices())).toList(),
                                all.get(0).sampled(),
                                all.get(0).sampled(),
                                K,
                                CELLS,
                                C))
                .recordNote(
                        String.format(
                                Locale.ROOT,
                                "Budget per day for every variant: (epsilon, delta) = (%s, %s)."
                                        + " pure: epsilon %.6g per window (sum over the day = %s)."
                                        + " zcdp: rho %.6g per window, the day's rho cap %.6f"
                                        + " (Zcdp.rhoCap: the CKS20 conversion; BS16 would give %.6f)."
                                        + " zcdp-running: the sum of the last %d zcdp windows' noisy"
                                        + " cells, post-processing, no extra budget.",
                                EPSILON_PER_DAY,
                                DELTA,
                                epsilonWindow,
                                EPSILON_PER_DAY,
                                rhoWindow,
                                rhoDay,
                                bs16Rho(),
                                all.get(0).running()))
                .recordNote(
                        "Privacy noise: DpClusterStatistics.noise (geometric) and noiseGaussian"
                                + " (discrete Gaussian) through PrivacyRandom keyed by a FIXED TEST"
                                + " SECRET (bytes 1..32), the window and the variant.")
                .recordNote(
                        "matched error = mean distance between the true centres and the optimally"
                                + " matched released centroids, in box widths; relative SSE = SSE of"
                                + " the released centroids on the window's sampled records / SSE of"
                                + " the true centres on them (1 = as good as the truth).")
                .recordNote(
                        ORACLE
                                + ": a reference, not a release: the zcdp noise of one window on"
                                + " the Voronoi cells of that window's TRUE centres (one cell per"
                                + " cluster, the truth as the start), which only the simulation"
                                + " knows. It is what one window's noisy cells give when the cells"
                                + " are the clusters; a per-window release cannot be expected to"
                                + " beat it, so pure / reference bounds the per-window zcdp gain"
                                + " over pure at each device count.")
                .recordNote(
                        "Noise sd columns: per cell of one release; for zcdp-running they are of the"
                                + " summed cells of the last W windows (sqrt(W) times a window's, against W"
                                + " times the records), for pure the geometric noise's sd (sqrt(2) x its"
                                + " scale).");
        for (Sizes z : all) {
            double pure = quantile(rows, z.devices(), "pure", "matched_error", 0.5);
            double zcdp = quantile(rows, z.devices(), "zcdp", "matched_error", 0.5);
            double running = quantile(rows, z.devices(), "zcdp-running", "matched_error", 0.5);
            double oracle = quantile(rows, z.devices(), ORACLE, "matched_error", 0.5);
            report.recordNote(
                    String.format(
                            Locale.ROOT,
                            "Result at %d devices: median matched error pure %.4f, zcdp %.4f (%.1fx"
                                    + " lower), zcdp-running %.4f (%.1fx lower than pure);"
                                    + " reference %s %.4f (pure / reference %.1fx).",
                            z.devices(),
                            pure,
                            zcdp,
                            pure / zcdp,
                            running,
                            pure / running,
                            ORACLE,
                            oracle,
                            pure / oracle));
        }
        report.recordNote(
                String.format(
                        Locale.ROOT,
                        "Run time of the run that wrote this report: %.1f s.",
                        seconds));
        List<List<Object>> summary = new ArrayList<>();
        for (Sizes z : all) {
            for (String v : VARIANTS) {
                int d = z.devices();
                summary.add(
                        List.of(
                                d,
                                v,
                                quantile(rows, d, v, "matched_error", 0.5),
                                quantile(rows, d, v, "matched_error", 0.9),
                                quantile(rows, d, v, "relative_sse", 0.5),
                                quantile(rows, d, v, "relative_sse", 0.9),
                                noise.get(d + "/" + v)[0],
                                noise.get(d + "/" + v)[1]));
            }
        }
        report.addTable(
                "Per-window quality over the day and noise standard deviations",
                List.of(
                        "devices",
                        "variant",
                        "matched error median",
                        "matched error p90",
                        "relative SSE median",
                        "relative SSE p90",
                        "count noise sd (records)",
                        "sum noise sd per coordinate (box widths x records)"),
                summary);
        for (Sizes z : all) {
            addErrorPlot(report, z, rows);
        }
        List<List<Object>> trajectory = new ArrayList<>();
        Map<String, double[][]> spent = new LinkedHashMap<>();
        double[] hx = new double[25];
        double[] pureEps = new double[25];
        double[] zcdpEps = new double[25];
        for (int h = 0; h <= 24; h++) {
            long released = Math.round(h * windows / 24.0);
            double rho = released * rhoWindow;
            hx[h] = h;
            pureEps[h] = released * epsilonWindow;
            zcdpEps[h] = released == 0 ? 0 : Zcdp.epsilon(rho, DELTA);
            if (h % 3 == 0) {
                trajectory.add(List.of(h, released, pureEps[h], rho, zcdpEps[h]));
            }
        }
        spent.put("pure: epsilon spent", new double[][] {hx, pureEps});
        spent.put("zcdp: epsilon (delta 1e-9) of rho spent", new double[][] {hx, zcdpEps});
        report.addTable(
                "Budget trajectory (both zcdp variants spend the same)",
                List.of(
                        "hour",
                        "windows released",
                        "pure epsilon spent",
                        "zcdp rho spent",
                        "zcdp epsilon at delta 1e-9"),
                trajectory);
        report.addLinePlot(
                "budget_trajectory",
                "budget spent over the day",
                "hour of the day",
                "epsilon spent",
                spent,
                false);
        return report.write();
    }

    /** Median matched error per 1/24 of the day, per variant, at z's device count. */
    private static void addErrorPlot(ReportWriter report, Sizes z, List<Map<String, Object>> rows) {
        int perHour = Math.max(1, z.windows() / 24);
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (String v : VARIANTS) {
            double[] errors =
                    rows.stream()
                            .filter(
                                    r ->
                                            r.get("variant").equals(v)
                                                    && (int) r.get("devices") == z.devices())
                            .mapToDouble(r -> (double) r.get("matched_error"))
                            .toArray();
            int hours = errors.length / perHour;
            double[] x = new double[hours];
            double[] y = new double[hours];
            for (int h = 0; h < hours; h++) {
                double[] slice = Arrays.copyOfRange(errors, h * perHour, (h + 1) * perHour);
                Arrays.sort(slice);
                x[h] = h;
                y[h] = Math.max(slice[slice.length / 2], 1e-6);
            }
            series.put(v, new double[][] {x, y});
        }
        report.addLinePlot(
                "matched_error_per_hour_" + z.devices() + "_devices",
                "median matched error per 1/24 of the day, " + z.devices() + " devices",
                "hour of the day",
                "matched error, box widths (log scale)",
                series,
                true);
    }

    /** The BS16 ρ cap for the report: (√(ln 1/δ + ε) − √(ln 1/δ))². */
    private static double bs16Rho() {
        double l = Math.log(1 / DELTA);
        double r = Math.sqrt(l + EPSILON_PER_DAY) - Math.sqrt(l);
        return r * r;
    }
}
