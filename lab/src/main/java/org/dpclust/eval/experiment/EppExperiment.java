package org.dpclust.eval.experiment;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.eval.ProgressBar;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.io.DomainScaling;
import org.dpclust.kmeans.BagBound;
import org.dpclust.kmeans.EppKMeans;
import org.dpclust.kmeans.ExcludedErrorVariance;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.kmeans.LloydResult;
import org.dpclust.kmeans.NoisyFinalCentroids;
import org.dpclust.kmeans.PartitionMoments;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.quality.ClusteringMetrics;

/**
 * {@code evaluate epp}: the EPP experiments (docs/algorithms.md#epp-km) for KM (non-private Lloyd),
 * EPP-KM(1), EPP-KM(2) (joint-variance bounds, E_exc = within-cluster variance) and DP-KM (noisy
 * final step of a non-private partition). Data: the paper's synthetic set (3 Gaussians at [0,0],
 * [5,0], [4,4], 60 points each, sd 1, fixed seed), seeds and ukm from the shared data sets; each
 * scaled by its OWN min/max to [0,1]^d as the paper does, so no row is {@code dp} (DP-KM's
 * sensitivities use the bounds [0,1]^d, which are data-derived).
 *
 * <p>(a) ε ∈ {0.01, 0.05, 0.1, 0.5, 1}: NMI, ARI, purity, Rand index against the labels (points
 * assigned to the nearest released centroid) and AP (average perturbation against the partition's
 * exact centroids), averaged over independent Lloyd initialisations (one k-means++ seeding each,
 * public seeds). (b) ε = 0.1, fraction of the data 25–100%: the same metrics over random subsamples
 * × initialisations. (c) The adversary: for the first initialisation's partition and each ε, R
 * independent releases per method, every point re-estimated with estimator (3), measured
 * E_inc/E_exc ({@link EppAdversary}) in the row's {@code error_ratio} (Case 1 estimator for KM,
 * EPP-KM(1) and DP-KM; Case 2 for EPP-KM(2)), against e^{−ε}.
 *
 * <p>Privacy randomness (bags, Laplace noise) comes from {@link PrivacyRandom} under a fixed test
 * secret, one context per dataset, method, ε, fraction and run. EPP is not differential privacy;
 * DP-KM is paper-claimed.
 */
public final class EppExperiment implements Experiment {
    static final double[] EPSILONS = {0.01, 0.05, 0.1, 0.5, 1.0};
    static final double[] FRACTIONS = {0.25, 0.5, 0.75, 1.0};
    static final double FRACTION_EPSILON = 0.1;
    static final long SYNTHETIC_SEED = 2016;
    static final long LLOYD_SEED = 11;
    static final long SUBSAMPLE_SEED = 23;
    static final String SCALING = "own min/max (not dp)";

    /**
     * Run sizes: initialisations per ε, subsamples × initialisations per fraction, adversary
     * releases.
     */
    record Sizes(int inits, int subsamples, int subsampleInits, int adversaryReleases) {}

    static final Sizes DEFAULT = new Sizes(30, 10, 4, 1500);
    static final Sizes QUICK = new Sizes(3, 2, 1, 30);

    /** The compared methods, each a release of the final centroids of a fixed partition. */
    enum Method {
        KM("KM", "none"),
        EPP1("EPP-KM(1)", "epp"),
        EPP2("EPP-KM(2)", "epp"),
        DPKM("DP-KM", "paper-claimed");

        final String label;
        final String guarantee;

        Method(String label, String guarantee) {
            this.label = label;
            this.guarantee = guarantee;
        }

        /** The released centroids and the number of bags (NaN for non-bagging methods). */
        Released release(
                double[][] pts,
                LloydResult partition,
                double eps,
                DomainBounds box,
                PrivacyRandom rng) {
            return switch (this) {
                case KM -> new Released(partition.centroids(), Double.NaN);
                case EPP1, EPP2 -> {
                    EppKMeans.Release r =
                            EppKMeans.release(
                                    pts,
                                    partition,
                                    eps,
                                    this == EPP1
                                            ? BagBound.AdversaryCase.KNOWN_CLUSTER
                                            : BagBound.AdversaryCase.UNKNOWN_CLUSTER,
                                    BagBound.VarianceForm.JOINT,
                                    ExcludedErrorVariance.WITHIN_CLUSTER,
                                    rng);
                    yield new Released(r.centroids(), r.bound().bags());
                }
                case DPKM ->
                        new Released(
                                NoisyFinalCentroids.release(pts, partition, box, eps, rng)
                                        .centroids(),
                                Double.NaN);
            };
        }
    }

    record Released(double[][] centroids, double bags) {}

    /**
     * One data set: the scaled data (with labels), k = its number of classes, and how it was
     * scaled.
     */
    record Setup(String name, Dataset data, int k, String scaling) {
        double[][] points() {
            return data.points();
        }

        int[] labels() {
            return data.labels();
        }
    }

    @Override
    public String name() {
        return "epp";
    }

    @Override
    public String description() {
        return "EPP-KM vs KM and DP-KM (paper 002): NMI/AP vs epsilon, NMI vs data fraction, adversary error ratio";
    }

    /** The paper's synthetic set: 3 Gaussians (sd 1) at [0,0], [5,0], [4,4], 60 points each. */
    static Dataset synthetic() {
        double[][] centres = {{0, 0}, {5, 0}, {4, 4}};
        SplittableRandom rng =
                new SplittableRandom(SYNTHETIC_SEED); // public randomness (not privacy noise)
        double[][] pts = new double[180][];
        int[] labels = new int[180];
        for (int i = 0; i < 180; i++) {
            labels[i] = i / 60;
            double[] c = centres[labels[i]];
            pts[i] = new double[] {c[0] + rng.nextGaussian(), c[1] + rng.nextGaussian()};
        }
        return new Dataset("synthetic", pts, labels, DomainScaling.none());
    }

    static List<Setup> setups() {
        List<Setup> out = new ArrayList<>();
        for (Dataset raw :
                List.of(synthetic(), DatasetLoader.load("seeds"), DatasetLoader.load("ukm"))) {
            Dataset d = DomainScaling.toUnitBoxByOwnMinMax(raw);
            out.add(new Setup(d.name(), d, d.labelCount(), d.scaling().describe()));
        }
        return out;
    }

    private static PrivacyRandom rng(PrivacySecret secret, String... parts) {
        return PrivacyRandom.forContext(
                secret,
                ("evaluate-epp/" + String.join("/", parts)).getBytes(StandardCharsets.UTF_8));
    }

    private static DomainBounds unitBox(int d) {
        double[] hi = new double[d];
        Arrays.fill(hi, 1.0);
        return new DomainBounds(new double[d], hi);
    }

    private static LloydResult partition(double[][] pts, int k, long seed) {
        return Lloyd.run(pts, k, 1, Lloyd.DEFAULT_MAX_ITERATIONS, seed);
    }

    /** Metric sums over runs of one (dataset, method, ε, fraction). */
    private static final class Cell {
        final double[] sums = new double[6]; // nmi, ari, purity, rand, ap, bags
        double nmiSquares;
        int runs;

        void add(int[] labels, double[][] pts, LloydResult partition, Released r) {
            int[] assigned = ClusteringMetrics.assign(pts, r.centroids());
            double nmi = ClusteringMetrics.nmi(assigned, labels);
            double[] v = {
                nmi,
                ClusteringMetrics.adjustedRandIndex(assigned, labels),
                ClusteringMetrics.purity(assigned, labels),
                ClusteringMetrics.randIndex(assigned, labels),
                ClusteringMetrics.averagePerturbation(partition.centroids(), r.centroids()),
                r.bags()
            };
            for (int i = 0; i < v.length; i++) {
                sums[i] += v[i];
            }
            nmiSquares += nmi * nmi;
            runs++;
        }

        double mean(int i) {
            return sums[i] / runs;
        }
    }

    @Override
    public Path run(ExperimentContext ctx) {
        Sizes sizes = ctx.quick() ? QUICK : DEFAULT;
        List<Setup> setups = setups();
        PrivacySecret secret = StatsReplayExperiment.testSecret();
        Method[] methods = Method.values();
        List<Map<String, Object>> rows = new ArrayList<>();
        List<List<Object>> adversaryRows = new ArrayList<>();
        List<List<Object>> boundRows = new ArrayList<>();
        long steps = (long) setups.size() * (EPSILONS.length * 2 + FRACTIONS.length);
        long started = System.nanoTime();
        try (ProgressBar progress = new ProgressBar("evaluate epp", steps)) {
            for (Setup s : setups) {
                DomainBounds box = unitBox(s.points()[0].length);
                LloydResult[] partitions = new LloydResult[sizes.inits()];
                for (int i = 0; i < partitions.length; i++) {
                    partitions[i] = partition(s.points(), s.k(), LLOYD_SEED + i);
                }
                for (double eps : EPSILONS) {
                    for (Method m : methods) {
                        Cell cell = new Cell();
                        for (int i = 0; i < partitions.length; i++) {
                            cell.add(
                                    s.labels(),
                                    s.points(),
                                    partitions[i],
                                    m.release(
                                            s.points(),
                                            partitions[i],
                                            eps,
                                            box,
                                            rng(
                                                    secret,
                                                    s.name(),
                                                    m.name(),
                                                    "eps=" + eps,
                                                    "fraction=1",
                                                    "run=" + i)));
                        }
                        double ratio =
                                errorRatio(
                                        s,
                                        partitions[0],
                                        m,
                                        eps,
                                        box,
                                        secret,
                                        sizes.adversaryReleases(),
                                        adversaryRows);
                        rows.add(row(ctx, s.name(), m, eps, 1.0, cell, ratio));
                    }
                    progress.step();
                    boundRows.addAll(boundTable(s, partitions[0], eps));
                    progress.step();
                }
                for (double f : FRACTIONS) {
                    Cell[] cells = new Cell[methods.length];
                    for (int mi = 0; mi < methods.length; mi++) {
                        cells[mi] = new Cell();
                    }
                    for (int sub = 0; sub < sizes.subsamples(); sub++) {
                        Dataset part = s.data().subsample(f, SUBSAMPLE_SEED + sub);
                        for (int i = 0; i < sizes.subsampleInits(); i++) {
                            LloydResult p = partition(part.points(), s.k(), LLOYD_SEED + i);
                            for (int mi = 0; mi < methods.length; mi++) {
                                cells[mi].add(
                                        part.labels(),
                                        part.points(),
                                        p,
                                        methods[mi].release(
                                                part.points(),
                                                p,
                                                FRACTION_EPSILON,
                                                box,
                                                rng(
                                                        secret,
                                                        s.name(),
                                                        methods[mi].name(),
                                                        "eps=" + FRACTION_EPSILON,
                                                        "fraction=" + f,
                                                        "sub=" + sub,
                                                        "run=" + i)));
                            }
                        }
                    }
                    for (int mi = 0; mi < methods.length; mi++) {
                        rows.add(
                                row(
                                        ctx,
                                        s.name(),
                                        methods[mi],
                                        FRACTION_EPSILON,
                                        f,
                                        cells[mi],
                                        null));
                    }
                    progress.step();
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return EppReport.write(ctx, sizes, setups, rows, adversaryRows, boundRows, seconds);
    }

    private static Map<String, Object> row(
            ExperimentContext ctx,
            String dataset,
            Method m,
            double eps,
            double f,
            Cell c,
            Double errorRatio) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("dataset", dataset);
        row.put("method", m.label);
        row.put("epsilon", eps);
        row.put("fraction", f);
        row.put("nmi", c.mean(0));
        row.put("ari", c.mean(1));
        row.put("purity", c.mean(2));
        row.put("rand", c.mean(3));
        row.put("ap", c.mean(4));
        row.put("error_ratio", errorRatio);
        row.put("sweep", errorRatio != null ? "epsilon" : "fraction");
        row.put("nmi_sd", Math.sqrt(Math.max(0.0, c.nmiSquares / c.runs - c.mean(0) * c.mean(0))));
        row.put("bags", Double.isNaN(c.mean(5)) ? null : c.mean(5));
        row.put("runs", c.runs);
        row.put("guarantee", m.guarantee);
        row.put("scaling", SCALING);
        if (ctx.json() != null) {
            ctx.json().print(row);
        }
        return row;
    }

    /**
     * The adversary experiment for one method and ε; adds a table row and returns the measured
     * ratio.
     */
    private static double errorRatio(
            Setup s,
            LloydResult partition,
            Method m,
            double eps,
            DomainBounds box,
            PrivacySecret secret,
            int reps,
            List<List<Object>> table) {
        double[][] pts = s.points();
        PartitionMoments moments = PartitionMoments.of(pts, partition.assignment(), s.k());
        if (m == Method.KM) {
            table.add(List.of(s.name(), m.label, eps, "1", "–", 0.0, 0.0, "–", Math.exp(-eps)));
            return 0.0; // exact centroids: estimator (3) recovers every point, E_inc = 0
        }
        List<double[][]> releases = new ArrayList<>();
        double bags = Double.NaN;
        for (int t = 0; t < reps; t++) {
            Released r =
                    m.release(
                            pts,
                            partition,
                            eps,
                            box,
                            rng(
                                    secret,
                                    s.name(),
                                    m.name(),
                                    "eps=" + eps,
                                    "adversary",
                                    "release=" + t));
            releases.add(r.centroids());
            bags = r.bags();
        }
        double se = Math.sqrt(2.0 / (reps - 1));
        if (m == Method.EPP2) {
            double[] cell =
                    EppAdversary.weakestCell(
                            pts, moments, BagBound.AdversaryCase.UNKNOWN_CLUSTER, (int) bags);
            double measured =
                    EppAdversary.case2(pts, moments, releases, (int) cell[0], (int) cell[1]);
            table.add(
                    List.of(
                            s.name(),
                            m.label,
                            eps,
                            "2",
                            (int) bags,
                            cell[2],
                            measured,
                            measured * se,
                            Math.exp(-eps)));
            return measured;
        }
        double[] weakest =
                m == Method.EPP1
                        ? EppAdversary.weakestCell(
                                pts, moments, BagBound.AdversaryCase.KNOWN_CLUSTER, (int) bags)
                        : new double[] {-1, -1, Double.NaN};
        double predicted = weakest[2];
        int cluster = weakest[0] < 0 ? -1 : moments.assignment()[(int) weakest[0]];
        double measured = EppAdversary.case1(moments, releases, cluster);
        table.add(
                List.of(
                        s.name(),
                        m.label,
                        eps,
                        "1",
                        m == Method.EPP1 ? (Object) (int) bags : "–",
                        m == Method.EPP1 ? (Object) predicted : "–",
                        measured,
                        measured * se,
                        Math.exp(-eps)));
        return measured;
    }

    /**
     * B_max and B of both cases, both variance forms (E_exc within-cluster) and the joint form with
     * E_exc total.
     */
    private static List<List<Object>> boundTable(Setup s, LloydResult partition, double eps) {
        PartitionMoments m = PartitionMoments.of(s.points(), partition.assignment(), s.k());
        List<List<Object>> out = new ArrayList<>();
        for (BagBound.AdversaryCase c : BagBound.AdversaryCase.values()) {
            for (BagBound.VarianceForm f : BagBound.VarianceForm.values()) {
                for (String exc :
                        f == BagBound.VarianceForm.JOINT
                                ? List.of("within", "total")
                                : List.of("within")) {
                    BagBound.Result r =
                            BagBound.compute(
                                    s.points(),
                                    m,
                                    c,
                                    f,
                                    exc.equals("within")
                                            ? ExcludedErrorVariance.WITHIN_CLUSTER
                                            : ExcludedErrorVariance.TOTAL,
                                    eps);
                    out.add(
                            List.of(
                                    s.name(),
                                    eps,
                                    c == BagBound.AdversaryCase.KNOWN_CLUSTER ? "1" : "2",
                                    f.name().toLowerCase(Locale.ROOT).replace('_', '-'),
                                    exc,
                                    EppReport.integralAsLong(r.bMax()),
                                    r.bags(),
                                    r.feasible() ? "yes" : "NO (B = 1 does not meet the bound)"));
                }
            }
        }
        return out;
    }
}
