package org.dpclust.kmedian;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.dpclust.eval.Dataset;
import org.dpclust.eval.DatasetLoader;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;

/**
 * Pure-Java runner of Fan et al. §5 on MNIST (ALGORITHMS.md §1.9), to be wrapped by the CLI's
 * {@code evaluate kmedian}. U = the 10 000 points of {@code mnist10k.csv} (raw pixels 0..255);
 * demand sets of {@link Settings#demandSize} points drawn from U, "balanced" (uniform from U) or
 * "imbalanced" (uniform from digits 0 and 8 only); l1 and l2; methods NDP-rand, NDP-kmedian++,
 * NDP-HST (initialiser, then Arya local search), DP-rand, DP-kmedian++ (random / k-median++ on the
 * public U, then DP local search with ε), DP-HST (DP-HST init with ε/2, then DP local search with
 * ε/2).
 *
 * <p>Precomputation, once per (metric, demand set): the float matrix of demand-to-universe
 * distances ({@link DemandCosts}, 500 × 10 000 × 4 bytes = 20 MB, 500 metric rows of 10 000
 * 784-dimensional distances); once per (metric, repetition): the two trees (full depth for NDP,
 * depth ≤ {@link Settings#dpTreeLevels} for DP). The public diameter bound is Δ = 2 ecc(c) with c
 * the point of U nearest to U's mean (valid by the triangle inequality; its ratio to the largest
 * eccentricity found is printed).
 *
 * <p>Privacy of this runner: it is an evaluation, not a deployment. Its privacy randomness comes
 * from {@link PrivacyRandom} keyed by a secret derived from the public seed (SHA-256), so runs are
 * reproducible; the DP guarantees of the mechanisms hold for the sampled demand set as stated in
 * their classes, but a real deployment must use a real secret. Data are raw, unscaled pixels, so Δ
 * is a property of the public U, not of the demand set.
 */
public final class KMedianExperiment {
    private KMedianExperiment() {}

    /** Experiment settings; {@link #paper()} gives the paper's values. */
    public record Settings(
            int demandSize,
            int[] ks,
            int repetitions,
            double epsilon,
            int dpSteps,
            double alpha,
            int maxIterations,
            int dpTreeLevels,
            long seed,
            List<String> demands,
            List<String> metrics,
            List<String> methods) {

        public static Settings paper() {
            return new Settings(
                    500,
                    new int[] {2, 5, 10, 15, 20},
                    10,
                    1.0,
                    20,
                    1e-3,
                    20,
                    8,
                    2023,
                    List.of("balanced", "imbalanced"),
                    List.of("l1", "l2"),
                    METHODS);
        }

        public Settings withRepetitions(int r) {
            return new Settings(
                    demandSize,
                    ks,
                    r,
                    epsilon,
                    dpSteps,
                    alpha,
                    maxIterations,
                    dpTreeLevels,
                    seed,
                    demands,
                    metrics,
                    methods);
        }

        public Settings withDemands(List<String> d) {
            return new Settings(
                    demandSize,
                    ks,
                    repetitions,
                    epsilon,
                    dpSteps,
                    alpha,
                    maxIterations,
                    dpTreeLevels,
                    seed,
                    d,
                    metrics,
                    methods);
        }

        public Settings withMethods(List<String> m) {
            return new Settings(
                    demandSize,
                    ks,
                    repetitions,
                    epsilon,
                    dpSteps,
                    alpha,
                    maxIterations,
                    dpTreeLevels,
                    seed,
                    demands,
                    metrics,
                    m);
        }
    }

    public static final List<String> METHODS =
            List.of("NDP-rand", "NDP-kmedian++", "NDP-HST", "DP-rand", "DP-kmedian++", "DP-HST");

    /**
     * One result row (costs averaged over repetitions). For DP methods {@code finalCost} is the
     * cost of the released centres and {@code meanIterateCost} the paper's average over the
     * iterates; for NDP methods both are the local search's final cost.
     */
    public record Row(
            String dataset,
            String metric,
            String demand,
            String method,
            int k,
            double initialCost,
            double finalCost,
            double meanIterateCost,
            int repetitions,
            double initSeconds,
            double totalSeconds) {

        /** One JSON object, snake_case keys. */
        public String toJson() {
            return String.format(
                    Locale.ROOT,
                    "{\"dataset\":\"%s\",\"metric\":\"%s\",\"demand\":\"%s\",\"method\":\"%s\",\"k\":%d,"
                            + "\"initial_cost\":%.1f,\"final_cost\":%.1f,\"mean_iterate_cost\":%.1f,"
                            + "\"repetitions\":%d,\"init_seconds\":%.4f,\"total_seconds\":%.4f}",
                    dataset,
                    metric,
                    demand,
                    method,
                    k,
                    initialCost,
                    finalCost,
                    meanIterateCost,
                    repetitions,
                    initSeconds,
                    totalSeconds);
        }
    }

    /** Runs the MNIST part of §5 and returns the rows; progress lines go to stderr. */
    public static List<Row> runMnist(Dataset mnist, Settings s) {
        List<Row> rows = new ArrayList<>();
        for (String metricName : s.metrics()) {
            Metric metric =
                    metricName.equals("l1")
                            ? VectorMetric.l1(mnist.points())
                            : VectorMetric.l2(mnist.points());
            long t0 = System.nanoTime();
            double delta = diameterBound(mnist.points(), metric);
            System.err.printf(
                    Locale.ROOT, "%s: Δ bound %.1f (%.2fs)%n", metricName, delta, secondsSince(t0));
            for (String demandKind : s.demands()) {
                // sums[method][k] = {initial, final, meanIterate, initSeconds, totalSeconds}
                double[][][] sums = new double[s.methods().size()][s.ks().length][5];
                for (int rep = 0; rep < s.repetitions(); rep++) {
                    long repSeed = s.seed() * 1_000_003L + rep;
                    int[] demand = demandSet(mnist, demandKind, s.demandSize(), repSeed);
                    long tc = System.nanoTime();
                    DemandCosts costs = DemandCosts.of(metric, demand, 1, delta);
                    double costSeconds = secondsSince(tc);
                    long tt = System.nanoTime();
                    Hst ndpTree = Hst.build(metric, delta, new Hst.Options(repSeed, 60, true));
                    double ndpTreeSeconds = secondsSince(tt);
                    tt = System.nanoTime();
                    Hst dpTree =
                            Hst.build(
                                    metric,
                                    delta,
                                    new Hst.Options(repSeed, s.dpTreeLevels(), true));
                    double dpTreeSeconds = secondsSince(tt);
                    System.err.printf(
                            Locale.ROOT,
                            "%s %s rep %d: cost matrix %.2fs, NDP tree %.2fs (L=%d, %d nodes), DP tree %.2fs (L=%d)%n",
                            metricName,
                            demandKind,
                            rep,
                            costSeconds,
                            ndpTreeSeconds,
                            ndpTree.levels(),
                            ndpTree.nodeCount(),
                            dpTreeSeconds,
                            dpTree.levels());
                    for (int ki = 0; ki < s.ks().length; ki++) {
                        int k = s.ks()[ki];
                        for (int mi = 0; mi < s.methods().size(); mi++) {
                            String method = s.methods().get(mi);
                            double[] r =
                                    runOne(
                                            method,
                                            metric,
                                            ndpTree,
                                            dpTree,
                                            demand,
                                            costs,
                                            k,
                                            s,
                                            secret(
                                                    s.seed(),
                                                    metricName,
                                                    demandKind,
                                                    rep,
                                                    k,
                                                    method),
                                            repSeed + 31L * k);
                            r[3] +=
                                    method.equals("NDP-HST")
                                            ? ndpTreeSeconds
                                            : method.equals("DP-HST") ? dpTreeSeconds : 0;
                            r[4] +=
                                    method.equals("NDP-HST")
                                            ? ndpTreeSeconds
                                            : method.equals("DP-HST") ? dpTreeSeconds : 0;
                            for (int q = 0; q < 5; q++) {
                                sums[mi][ki][q] += r[q];
                            }
                        }
                    }
                }
                for (int ki = 0; ki < s.ks().length; ki++) {
                    for (int mi = 0; mi < s.methods().size(); mi++) {
                        double[] a = sums[mi][ki];
                        int n = s.repetitions();
                        Row row =
                                new Row(
                                        "mnist10k",
                                        metricName,
                                        demandKind,
                                        s.methods().get(mi),
                                        s.ks()[ki],
                                        a[0] / n,
                                        a[1] / n,
                                        a[2] / n,
                                        n,
                                        a[3] / n,
                                        a[4] / n);
                        rows.add(row);
                        System.out.println(row.toJson());
                    }
                }
            }
        }
        return rows;
    }

    /** {initial cost, final cost, mean iterate cost, init seconds, total seconds}. */
    static double[] runOne(
            String method,
            Metric metric,
            Hst ndpTree,
            Hst dpTree,
            int[] demand,
            DemandCosts costs,
            int k,
            Settings s,
            PrivacyRandom rng,
            long publicSeed) {
        SplittableRandom pub =
                new SplittableRandom(publicSeed); // public randomness (not privacy noise)
        int[] universe = IntStream.range(0, metric.size()).toArray();
        long t0 = System.nanoTime();
        double eps = s.epsilon();
        int[] init =
                switch (method) {
                    case "NDP-rand", "DP-rand" ->
                            Arrays.copyOf(
                                    org.dpclust.geometry.PublicPermutation.of(metric.size(), pub),
                                    k);
                    case "NDP-kmedian++" -> KMedianPlusPlus.select(metric, demand, k, 1, pub);
                    case "DP-kmedian++" -> KMedianPlusPlus.select(metric, universe, k, 1, pub);
                    case "NDP-HST" -> NdpHstInitializer.initialize(ndpTree, demand, k);
                    case "DP-HST" -> DpHstInitializer.initialize(dpTree, demand, k, eps / 2, rng);
                    default -> throw new IllegalArgumentException("unknown method " + method);
                };
        double initSeconds = secondsSince(t0);
        double initial = costs.cost(init);
        if (method.startsWith("NDP")) {
            LocalSearch.Result r = LocalSearch.run(costs, init, s.alpha(), s.maxIterations());
            return new double[] {initial, r.cost(), r.cost(), initSeconds, secondsSince(t0)};
        }
        double searchEps = method.equals("DP-HST") ? eps / 2 : eps;
        DpLocalSearch.Result r = DpLocalSearch.run(costs, init, searchEps, s.dpSteps(), rng);
        double mean = r.iterates().stream().mapToDouble(costs::cost).average().orElseThrow();
        return new double[] {initial, costs.cost(r.centres()), mean, initSeconds, secondsSince(t0)};
    }

    /** Demand indices: "balanced" uniform from U, "imbalanced" uniform from labels 0 and 8. */
    static int[] demandSet(Dataset data, String kind, int size, long seed) {
        int[] pool =
                switch (kind) {
                    case "balanced" -> IntStream.range(0, data.size()).toArray();
                    case "imbalanced" ->
                            IntStream.range(0, data.size())
                                    .filter(i -> data.labels()[i] == 0 || data.labels()[i] == 8)
                                    .toArray();
                    default -> throw new IllegalArgumentException("unknown demand kind " + kind);
                };
        int[] perm =
                org.dpclust.geometry.PublicPermutation.of(
                        pool.length,
                        new SplittableRandom(seed)); // public randomness (not privacy noise)
        int[] out = new int[Math.min(size, pool.length)];
        for (int i = 0; i < out.length; i++) {
            out[i] = pool[perm[i]];
        }
        return out;
    }

    /** Δ = 2 ecc(c), c the point of U nearest to U's mean: a valid public bound on diam(U). */
    static double diameterBound(double[][] points, Metric metric) {
        int c = org.dpclust.geometry.Diameters.nearestToMean(points, (VectorMetric) metric);
        double ecc = 0;
        for (int j = 0; j < points.length; j++) {
            ecc = Math.max(ecc, metric.distance(c, j));
        }
        return 2 * ecc;
    }

    private static PrivacyRandom secret(
            long seed, String metric, String demand, int rep, int k, String method) {
        try {
            byte[] key =
                    MessageDigest.getInstance("SHA-256")
                            .digest(
                                    ("dpclust/kmedian-experiment/secret/" + seed)
                                            .getBytes(StandardCharsets.UTF_8));
            String ctx =
                    "dpclust/kmedian-experiment/"
                            + metric
                            + "/"
                            + demand
                            + "/"
                            + rep
                            + "/"
                            + k
                            + "/"
                            + method;
            return PrivacyRandom.forContext(
                    PrivacySecret.of(key), ctx.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static double secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * Usage: {@code KMedianExperiment [repetitions] [demands comma list] [methods comma list]};
     * rows are printed as JSON lines on stdout.
     */
    public static void main(String[] args) {
        Settings s = Settings.paper();
        if (args.length > 0) {
            s = s.withRepetitions(Integer.parseInt(args[0]));
        }
        if (args.length > 1) {
            s = s.withDemands(List.of(args[1].split(",")));
        }
        if (args.length > 2) {
            s = s.withMethods(List.of(args[2].split(",")));
        }
        long t0 = System.nanoTime();
        Dataset mnist = DatasetLoader.load("mnist10k");
        System.err.printf(
                Locale.ROOT,
                "loaded %s: %d x %d in %.1fs%n",
                mnist.name(),
                mnist.size(),
                mnist.dimension(),
                secondsSince(t0));
        runMnist(mnist, s);
        System.err.printf(Locale.ROOT, "total %.1fs%n", secondsSince(t0));
    }
}
