package org.dpclust.eval.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.dpclust.eval.ReportWriter;

/**
 * Writes the {@code evaluate epp} report ({@link EppExperiment}): notes on what the rows mean and
 * what they are not (no row is differentially private; EPP is not DP; DP-KM is paper-claimed), the
 * result tables, the B bound table, the adversary table and the plots NMI vs ε, AP vs ε and NMI vs
 * fraction per data set.
 */
final class EppReport {
    private EppReport() {}

    static Path write(
            ExperimentContext ctx,
            EppExperiment.Sizes sizes,
            List<EppExperiment.Setup> setups,
            List<Map<String, Object>> rows,
            List<List<Object>> adversary,
            List<List<Object>> bounds,
            double seconds) {
        ReportWriter report =
                new ReportWriter(
                        ctx.outDir(),
                        "evaluate epp: EPP-KM (paper 002) against KM and DP-KM"
                                + (ctx.quick() ? " (quick configuration)" : ""));
        report.recordCommand(ctx.command())
                .recordSeed("synthetic_seed (the 3-Gaussian set)", EppExperiment.SYNTHETIC_SEED)
                .recordSeed(
                        "lloyd_seed (initialisation i uses lloyd_seed + i, one k-means++ seeding)",
                        EppExperiment.LLOYD_SEED)
                .recordSeed(
                        "subsample_seed (subsample s uses subsample_seed + s)",
                        EppExperiment.SUBSAMPLE_SEED)
                .recordNote(
                        "NOT DIFFERENTIAL PRIVACY. EPP-KM's guarantee is error-preserving privacy (label epp): a"
                                + " second-moment condition E_inc >= e^-eps E_exc for one linear estimator. Its partition,"
                                + " cluster sizes and all Lloyd iterations but the last are exact, and its number of bags B"
                                + " depends on the data. DP-KM is paper-claimed: its noisy last step is eps-DP for a fixed"
                                + " partition, but the partition is computed exactly from the private data.")
                .recordNote(
                        "Scaling: every data set (synthetic included) is scaled by its OWN per-dimension min/max"
                                + " to [0,1]^d, as the paper does; DP-KM's sensitivities use the bounds [0,1]^d, which are"
                                + " therefore data-derived. No row of this report is dp.")
                .recordNote(
                        "EPP-KM(1)/(2): Lloyd partition, then B bags of N_k draws with replacement per cluster,"
                                + " averaged; B = max(1, floor(B_max)) capped at 1000, B_max from the Case 1 (cluster known)"
                                + " or Case 2 (cluster unknown) bound in the JOINT-variance form, E_exc = within-cluster"
                                + " variance. The table 'Bounds on B' also lists the paper's per-point form and E_exc = total"
                                + " variance: the per-point form is infeasible (B_max = 0, B = 1) on min/max-scaled data,"
                                + " because some x_rj = 0.")
                .recordNote(
                        "DP-KM: Laplace noise (LaplaceMechanism) on each cluster's centred sum (eps/2, L1"
                                + " sensitivity sum_j width_j/2) and count (eps/2); centroid = mid + noisy sum /"
                                + " max(1, noisy count), clamped into [0,1]^d.")
                .recordNote(
                        String.format(
                                Locale.ROOT,
                                "Sizes: %d initialisations per eps; %d subsamples x %d"
                                        + " initialisations per fraction (eps = %s); %d releases per method and eps in the adversary"
                                        + " experiment (partition of initialisation 0, full data). The paper uses 30 per eps and"
                                        + " 40 x 20 per fraction; fewer subsamples keep the default run within 3 minutes on 2 cores.",
                                sizes.inits(),
                                sizes.subsamples(),
                                sizes.subsampleInits(),
                                EppExperiment.FRACTION_EPSILON,
                                sizes.adversaryReleases()))
                .recordNote(
                        "Metrics: points are assigned to the nearest released centroid; NMI, ARI, purity and"
                                + " Rand index are against the data set's labels; AP = (1/K) sum_k |m_k - m~_k|_1 / |m_k|_1"
                                + " against the same partition's exact centroids (matched one-to-one).")
                .recordNote(
                        "error_ratio: measured E_inc / E_exc (E_exc = within-cluster variance) of estimator (3)"
                                + " from the releases: Case 1 (KM, EPP-KM(1), DP-KM) = the ratio averaged over the attributes"
                                + " of one cluster (the error is the same for all its points): for EPP-KM(1) the cluster whose"
                                + " exact ratio is smallest (the one that binds B), for DP-KM the smallest over clusters;"
                                + " Case 2 (EPP-KM(2)) = at the (point, attribute) whose exact ratio is smallest. Standard error about ratio * sqrt(2/(R-1)); compare with e^-eps.")
                .recordNote(
                        "Privacy randomness (bags, Laplace) comes from PrivacyRandom under a FIXED TEST SECRET"
                                + " (bytes 1..32), one context per data set, method, eps, fraction and run.")
                .recordNote(
                        String.format(
                                Locale.ROOT,
                                "Run time of the run that wrote this report: %.1f s.",
                                seconds));
        List<List<Object>> setupRows = new ArrayList<>();
        for (EppExperiment.Setup s : setups) {
            setupRows.add(
                    List.of(s.name(), s.points().length, s.points()[0].length, s.k(), s.scaling()));
        }
        report.addTable("Data sets", List.of("dataset", "N", "d", "k", "scaling"), setupRows);
        report.addTable(
                "Results against epsilon (full data)",
                List.of(
                        "dataset",
                        "method",
                        "epsilon",
                        "NMI",
                        "NMI sd",
                        "ARI",
                        "purity",
                        "Rand",
                        "AP",
                        "mean B",
                        "error ratio",
                        "e^-eps"),
                table(rows, r -> r.get("sweep").equals("epsilon"), true));
        report.addTable(
                "Results against the fraction of data used (epsilon = "
                        + EppExperiment.FRACTION_EPSILON
                        + ")",
                List.of(
                        "dataset",
                        "method",
                        "fraction",
                        "NMI",
                        "NMI sd",
                        "ARI",
                        "purity",
                        "Rand",
                        "AP",
                        "mean B"),
                table(rows, r -> r.get("sweep").equals("fraction"), false));
        report.addTable(
                "Checks of issue 7: EPP NMI against KM's, and the measured ratio against e^-eps",
                List.of(
                        "dataset",
                        "method",
                        "epsilon",
                        "NMI - NMI(KM)",
                        "|difference| <= 0.05",
                        "measured ratio",
                        "e^-eps",
                        "(measured - e^-eps) / standard error",
                        "ratio >= e^-eps - 2 standard errors"),
                checks(rows, sizes.adversaryReleases()));
        report.addTable(
                "Adversary: measured E_inc/E_exc against e^-eps",
                List.of(
                        "dataset",
                        "method",
                        "epsilon",
                        "case",
                        "B",
                        "exact ratio (joint variance)",
                        "measured ratio",
                        "standard error",
                        "e^-eps"),
                adversary);
        report.addTable(
                "Bounds on B (partition of initialisation 0)",
                List.of("dataset", "epsilon", "case", "form", "E_exc", "B_max", "B", "feasible"),
                bounds);
        for (EppExperiment.Setup s : setups) {
            plot(report, rows, s.name(), "nmi", true, "NMI vs epsilon", "nmi_vs_epsilon_");
            plot(
                    report,
                    rows,
                    s.name(),
                    "ap",
                    true,
                    "AP vs epsilon (KM has AP 0, not shown)",
                    "ap_vs_epsilon_");
            plot(
                    report,
                    rows,
                    s.name(),
                    "nmi",
                    false,
                    "NMI vs fraction of data (epsilon 0.1)",
                    "nmi_vs_fraction_");
        }
        return report.write();
    }

    private static List<List<Object>> table(
            List<Map<String, Object>> rows,
            Predicate<Map<String, Object>> keep,
            boolean byEpsilon) {
        List<List<Object>> out = new ArrayList<>();
        for (Map<String, Object> r : rows) {
            if (!keep.test(r)) {
                continue;
            }
            Object bags = r.get("bags") == null ? "–" : integralAsLong((double) r.get("bags"));
            List<Object> cells =
                    new ArrayList<>(
                            List.of(
                                    r.get("dataset"),
                                    r.get("method"),
                                    byEpsilon ? r.get("epsilon") : r.get("fraction"),
                                    r.get("nmi"),
                                    r.get("nmi_sd"),
                                    r.get("ari"),
                                    r.get("purity"),
                                    r.get("rand"),
                                    r.get("ap"),
                                    bags));
            if (byEpsilon) {
                cells.add(r.get("error_ratio"));
                cells.add(Math.exp(-(double) r.get("epsilon")));
            }
            out.add(cells);
        }
        return out;
    }

    private static List<List<Object>> checks(List<Map<String, Object>> rows, int releases) {
        List<List<Object>> out = new ArrayList<>();
        for (Map<String, Object> r : rows) {
            if (!r.get("sweep").equals("epsilon") || !r.get("guarantee").equals("epp")) {
                continue;
            }
            double km =
                    rows.stream()
                            .filter(
                                    o ->
                                            o.get("sweep").equals("epsilon")
                                                    && o.get("dataset").equals(r.get("dataset"))
                                                    && o.get("epsilon").equals(r.get("epsilon"))
                                                    && o.get("method")
                                                            .equals(EppExperiment.Method.KM.label))
                            .mapToDouble(o -> (double) o.get("nmi"))
                            .findFirst()
                            .orElseThrow();
            double diff = (double) r.get("nmi") - km;
            double ratio = (double) r.get("error_ratio");
            double bound = Math.exp(-(double) r.get("epsilon"));
            double z = (ratio - bound) / (ratio * Math.sqrt(2.0 / (releases - 1)));
            out.add(
                    List.of(
                            r.get("dataset"),
                            r.get("method"),
                            r.get("epsilon"),
                            diff,
                            Math.abs(diff) <= 0.05 ? "yes" : "NO",
                            ratio,
                            bound,
                            z,
                            z >= -2 ? "yes" : "NO"));
        }
        return out;
    }

    /** An integral value as a long, so the table shows 60 rather than 6E+1. */
    static Object integralAsLong(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? (Object) (long) v : (Object) v;
    }

    private static void plot(
            ReportWriter report,
            List<Map<String, Object>> rows,
            String dataset,
            String metric,
            boolean againstEpsilon,
            String title,
            String file) {
        List<ReportWriter.Series> series = new ArrayList<>();
        // NMI is a mean over the runs with its sd in the rows: draw its 95% interval
        boolean spread = metric.equals("nmi");
        int runs = 0;
        for (EppExperiment.Method m : EppExperiment.Method.values()) {
            if (metric.equals("ap") && m == EppExperiment.Method.KM) {
                continue;
            }
            List<Map<String, Object>> line =
                    rows.stream()
                            .filter(
                                    r ->
                                            r.get("sweep")
                                                            .equals(
                                                                    againstEpsilon
                                                                            ? "epsilon"
                                                                            : "fraction")
                                                    && r.get("dataset").equals(dataset)
                                                    && r.get("method").equals(m.label))
                            .toList();
            double[] x =
                    line.stream()
                            .mapToDouble(
                                    r -> (double) r.get(againstEpsilon ? "epsilon" : "fraction"))
                            .toArray();
            double[] y = line.stream().mapToDouble(r -> (double) r.get(metric)).toArray();
            double[] low = null;
            double[] high = null;
            if (spread && !line.isEmpty()) {
                low = new double[y.length];
                high = new double[y.length];
                for (int i = 0; i < y.length; i++) {
                    Map<String, Object> r = line.get(i);
                    runs = ((Number) r.get("runs")).intValue();
                    double half = 1.96 * (double) r.get("nmi_sd") / Math.sqrt(runs);
                    low[i] = y[i] - half;
                    high[i] = y[i] + half;
                }
            }
            if (!line.isEmpty()) {
                series.add(new ReportWriter.Series(m.label, x, y, low, high));
            }
        }
        boolean logY =
                metric.equals("ap")
                        && series.stream().allMatch(l -> Arrays.stream(l.y()).allMatch(y -> y > 0));
        report.addLinePlot(
                file + dataset,
                title + ": " + dataset,
                againstEpsilon ? "epsilon (log scale)" : "fraction of the data used",
                metric.toUpperCase(Locale.ROOT) + (logY ? " (log scale)" : ""),
                series,
                againstEpsilon,
                logY,
                spread
                        ? "95% interval of the mean NMI over the "
                                + runs
                                + " runs (mean ± 1.96 sd / √runs)"
                        : null);
    }
}
