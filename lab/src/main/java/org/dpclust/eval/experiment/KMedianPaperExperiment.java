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
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.dpclust.eval.ProgressBar;
import org.dpclust.geometry.Diameters;
import org.dpclust.geometry.Metric;
import org.dpclust.geometry.PublicPermutation;
import org.dpclust.geometry.SyntheticGraph;
import org.dpclust.geometry.VectorMetric;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.kmedian.DemandCosts;
import org.dpclust.kmedian.DpHstInitializer;
import org.dpclust.kmedian.DpLocalSearch;
import org.dpclust.kmedian.Hst;
import org.dpclust.kmedian.KMedianPlusPlus;
import org.dpclust.kmedian.LocalSearch;
import org.dpclust.kmedian.NdpHstInitializer;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code evaluate kmedian}: docs/algorithms.md#fan-et-al-experiments, on the repository's mnist10k
 * (data/) and on the paper's synthetic graphs ({@link SyntheticGraph}, 3000 nodes, r ∈ {100, 1}).
 *
 * <p>Setting. The universe U is PUBLIC (mnist10k's 10 000 raw-pixel points with l1 or l2; the
 * graph's nodes with the shortest-path metric); the demand set D (500 points of U, "balanced" =
 * uniform from U, "imbalanced" = uniform from digits 0 and 8, or from graph clusters 0 and 1) is
 * PRIVATE. The sensitivity of every cost is Δ = diam(U), the EXACT diameter of the public U ({@link
 * Diameters#exact}; costs no privacy), which also scales the HSTs. Methods: NDP-rand, NDP-kmedian++
 * (on D), NDP-HST (full-depth tree), each followed by Arya local search (α = 10^-3, ≤ 20 swaps);
 * DP-rand, DP-kmedian++ (on the public U), each followed by DP local search with ε = 1, T = 20;
 * DP-HST (DP-HST init with ε/2 on a tree of depth ≤ 8, then DP local search with ε/2). Privacy
 * noise: {@link PrivacyRandom} keyed by the fixed TEST secret of {@link
 * StatsReplayExperiment#testSecret()} and the cell's context; public randomness from fixed seeds.
 *
 * <p>Reported per (dataset, metric, demand, method, k), averaged over the repetitions (each
 * repetition a fresh demand set and fresh trees): initial cost, final cost (DP: the released
 * iterate), the paper's mean cost over the T+1 iterates, and the §5.3 iteration cost (the 1-based
 * iterate index minimising the moving average of the iterate costs, window {@link Config#window()},
 * and that minimum). Also: exact vs upper-bound diameter and DP-HST's initial cost under each
 * (imbalanced mnist), and the initialisation time of HST (build + NDP-HST) vs k-median++ on U
 * against k and against n (mnist10k l2, sequential). Repetitions run on {@link Config#threads()}
 * threads; every cell has its own seeds, so the results do not depend on the thread count.
 */
public final class KMedianPaperExperiment implements Experiment {
    static final long SEED = 2023;
    static final List<String> METHODS =
            List.of("NDP-rand", "NDP-kmedian++", "NDP-HST", "DP-rand", "DP-kmedian++", "DP-HST");
    static final double EPSILON = 1.0;
    static final int STEPS = 20;
    static final double ALPHA = 1e-3;
    static final int NDP_TREE_LEVELS = 60;
    static final int DP_TREE_LEVELS = 8;

    /**
     * Sizes of a run.
     *
     * @param mnistPoints |U| for mnist (10 000 = all)
     * @param demandSize |D|
     * @param ks the k values
     * @param mnistReps repetitions per mnist demand kind: {balanced, imbalanced}
     * @param graphNodes nodes of each synthetic graph
     * @param graphReps repetitions per graph demand kind
     * @param metrics mnist metrics
     * @param graphRs the r values of the graphs
     * @param window moving-average window of the iteration cost
     * @param timingKs k values of the init-time study (at n = mnistPoints)
     * @param timingNs n values of the init-time study (at k = 10)
     * @param threads worker threads
     */
    record Config(
            int mnistPoints,
            int demandSize,
            int[] ks,
            int[] mnistReps,
            int graphNodes,
            int graphReps,
            List<String> metrics,
            double[] graphRs,
            int window,
            int[] timingKs,
            int[] timingNs,
            int threads) {
        static Config full() {
            return new Config(
                    10_000,
                    500,
                    new int[] {2, 5, 10, 15, 20},
                    new int[] {4, 10},
                    3000,
                    3,
                    List.of("l1", "l2"),
                    new double[] {100, 1},
                    3,
                    new int[] {2, 5, 10, 15, 20},
                    new int[] {1000, 2000, 5000, 10_000},
                    defaultThreads());
        }

        static Config quick() {
            return new Config(
                    600,
                    60,
                    new int[] {2, 5},
                    new int[] {1, 2},
                    200,
                    1,
                    List.of("l1"),
                    new double[] {100},
                    3,
                    new int[] {2, 5},
                    new int[] {300, 600},
                    defaultThreads());
        }

        private static int defaultThreads() {
            return Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
        }
    }

    /**
     * One universe: public points/graph with metric, labels for the imbalanced pool, both
     * diameters.
     */
    record Universe(
            String dataset,
            String metricName,
            Metric metric,
            int[] labels,
            int[] imbalancedLabels,
            double exactDelta,
            double boundDelta,
            double diameterSeconds,
            long pairs) {}

    /**
     * One cell's outcome: per method and k, {initial, final, mean iterate, iteration index, best
     * MA, init s}.
     */
    record RepResult(
            Universe u, String demand, int rep, double[][][] values, double[] hstBoundInitial) {}

    @Override
    public String name() {
        return "kmedian";
    }

    @Override
    public String description() {
        return "Fan et al. §5: HST vs k-median++ initialisation, NDP and DP local search, mnist10k and graphs";
    }

    @Override
    public Path run(ExperimentContext ctx) {
        Config c = ctx.quick() ? Config.quick() : Config.full();
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(c.threads());
        List<Universe> universes;
        try {
            universes = universes(c, pool);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "building a universe failed: " + e.getCause(), e.getCause());
        }
        List<Object[]> cells = new ArrayList<>();
        for (Universe u : universes) {
            boolean graph = u.metricName().equals("shortest_path");
            for (String demand : List.of("balanced", "imbalanced")) {
                int reps = graph ? c.graphReps() : c.mnistReps()[demand.equals("balanced") ? 0 : 1];
                for (int rep = 0; rep < reps; rep++) {
                    cells.add(new Object[] {u, demand, rep});
                }
            }
        }
        List<RepResult> results = new ArrayList<>();
        try (ProgressBar progress = new ProgressBar("evaluate kmedian", cells.size())) {
            List<Future<RepResult>> futures = new ArrayList<>();
            for (Object[] cell : cells) {
                futures.add(
                        pool.submit(
                                () -> {
                                    RepResult r =
                                            runRep(
                                                    c,
                                                    (Universe) cell[0],
                                                    (String) cell[1],
                                                    (int) cell[2]);
                                    synchronized (progress) {
                                        progress.step();
                                    }
                                    return r;
                                }));
            }
            for (Future<RepResult> f : futures) {
                results.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a repetition failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        List<Map<String, Object>> rows = costRows(c, universes, results);
        List<Map<String, Object>> diameterRows = diameterRows(universes, results);
        List<Map<String, Object>> timing = timingRows(c);
        if (ctx.json() != null) {
            rows.forEach(ctx.json()::print);
            diameterRows.forEach(ctx.json()::print);
            timing.forEach(ctx.json()::print);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return new KMedianReport(ctx, c, universes, rows, diameterRows, timing, seconds).write();
    }

    /**
     * The public universes with their exact and bounded diameters, built concurrently on {@code
     * pool}.
     */
    static List<Universe> universes(Config c, ExecutorService pool)
            throws InterruptedException, ExecutionException {
        List<Callable<Universe>> tasks = new ArrayList<>();
        Dataset all = DatasetLoader.load("mnist10k");
        Dataset mnist =
                c.mnistPoints() < all.size()
                        ? all.subsample((double) c.mnistPoints() / all.size(), SEED)
                        : all;
        for (String m : c.metrics()) {
            tasks.add(
                    () -> {
                        VectorMetric vm =
                                m.equals("l1")
                                        ? VectorMetric.l1(mnist.points())
                                        : VectorMetric.l2(mnist.points());
                        int pivot = Diameters.nearestToMean(mnist.points(), vm);
                        return universe(
                                "mnist10k",
                                m,
                                vm,
                                mnist.labels(),
                                new int[] {0, 8},
                                pivot,
                                () -> Diameters.exactVectors(mnist.points(), vm.norm(), pivot));
                    });
        }
        for (double r : c.graphRs()) {
            tasks.add(
                    () -> {
                        SyntheticGraph g =
                                SyntheticGraph.generate(c.graphNodes(), r, SEED + (long) r);
                        Metric matrix = new MatrixMetric(g.metric());
                        return universe(
                                String.format(
                                        Locale.ROOT,
                                        "graph_r%s",
                                        r == Math.rint(r) ? "" + (long) r : "" + r),
                                "shortest_path",
                                matrix,
                                g.labels(),
                                new int[] {0, 1},
                                0,
                                () -> Diameters.exact(matrix, 0));
                    });
        }
        List<Universe> out = new ArrayList<>();
        for (Future<Universe> f : pool.invokeAll(tasks)) {
            out.add(f.get());
        }
        return out;
    }

    private static Universe universe(
            String dataset,
            String metricName,
            Metric metric,
            int[] labels,
            int[] imbalanced,
            int pivot,
            Supplier<Diameters.Exact> exactDiameter) {
        double ecc = 0;
        for (int j = 0; j < metric.size(); j++) {
            ecc = Math.max(ecc, metric.distance(pivot, j));
        }
        long t0 = System.nanoTime();
        Diameters.Exact exact = exactDiameter.get();
        double s = (System.nanoTime() - t0) / 1e9;
        System.err.printf(
                Locale.ROOT,
                "%s %s: exact diameter %.6g in %.1f s (%d pairs), bound 2·ecc %.6g%n",
                dataset,
                metricName,
                exact.diameter(),
                s,
                exact.pairsEvaluated(),
                2 * ecc);
        return new Universe(
                dataset,
                metricName,
                metric,
                labels,
                imbalanced,
                exact.diameter(),
                2 * ecc,
                s,
                exact.pairsEvaluated());
    }

    /**
     * A thread-safe, fully precomputed distance matrix (float) of a metric: n rows, computed once.
     */
    static final class MatrixMetric implements Metric {
        private final float[][] d;

        MatrixMetric(Metric m) {
            d = new float[m.size()][];
            for (int i = 0; i < d.length; i++) {
                double[] row = m.distancesFrom(i);
                d[i] = new float[row.length];
                for (int j = 0; j < row.length; j++) {
                    d[i][j] = (float) row[j];
                }
            }
        }

        @Override
        public int size() {
            return d.length;
        }

        @Override
        public double distance(int i, int j) {
            return d[i][j];
        }
    }

    /**
     * Demand indices: balanced = uniform from U without replacement, imbalanced = from the label
     * pool.
     */
    static int[] demandSet(Universe u, String kind, int size, long seed) {
        int[] pool =
                kind.equals("balanced")
                        ? IntStream.range(0, u.metric().size()).toArray()
                        : IntStream.range(0, u.metric().size())
                                .filter(
                                        i ->
                                                Arrays.stream(u.imbalancedLabels())
                                                        .anyMatch(l -> l == u.labels()[i]))
                                .toArray();
        int[] perm = PublicPermutation.of(pool.length, new SplittableRandom(seed));
        int[] out = new int[Math.min(size, pool.length)];
        for (int i = 0; i < out.length; i++) {
            out[i] = pool[perm[i]];
        }
        return out;
    }

    static RepResult runRep(Config c, Universe u, String demandKind, int rep) {
        long repSeed = SEED * 1_000_003L + rep + 7919L * (demandKind.equals("balanced") ? 1 : 2);
        int[] demand = demandSet(u, demandKind, c.demandSize(), repSeed);
        Metric metric = u.metric();
        double delta = u.exactDelta();
        DemandCosts costs = DemandCosts.of(metric, demand, 1, delta);
        long t0 = System.nanoTime();
        Hst ndpTree = Hst.build(metric, delta, new Hst.Options(repSeed, NDP_TREE_LEVELS, true));
        double ndpTreeSeconds = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        Hst dpTree = Hst.build(metric, delta, new Hst.Options(repSeed, DP_TREE_LEVELS, true));
        double dpTreeSeconds = (System.nanoTime() - t0) / 1e9;
        boolean boundStudy = demandKind.equals("imbalanced") && u.dataset().equals("mnist10k");
        Hst boundTree =
                boundStudy
                        ? Hst.build(
                                metric,
                                u.boundDelta(),
                                new Hst.Options(repSeed, DP_TREE_LEVELS, true))
                        : null;
        int[] universe = IntStream.range(0, metric.size()).toArray();
        double[][][] values = new double[METHODS.size()][c.ks().length][];
        double[] hstBound = new double[c.ks().length];
        for (int ki = 0; ki < c.ks().length; ki++) {
            int k = c.ks()[ki];
            for (int mi = 0; mi < METHODS.size(); mi++) {
                String method = METHODS.get(mi);
                PrivacyRandom rng =
                        PrivacyRandom.forContext(
                                StatsReplayExperiment.testSecret(),
                                ("evaluate-kmedian/"
                                                + u.dataset()
                                                + "/"
                                                + u.metricName()
                                                + "/"
                                                + demandKind
                                                + "/"
                                                + rep
                                                + "/"
                                                + k
                                                + "/"
                                                + method)
                                        .getBytes(StandardCharsets.UTF_8));
                SplittableRandom pub = new SplittableRandom(repSeed + 31L * k); // public randomness
                long ti = System.nanoTime();
                int[] init =
                        switch (method) {
                            case "NDP-rand", "DP-rand" ->
                                    Arrays.copyOf(PublicPermutation.of(metric.size(), pub), k);
                            case "NDP-kmedian++" ->
                                    KMedianPlusPlus.select(metric, demand, k, 1, pub);
                            case "DP-kmedian++" ->
                                    KMedianPlusPlus.select(metric, universe, k, 1, pub);
                            case "NDP-HST" -> NdpHstInitializer.initialize(ndpTree, demand, k);
                            case "DP-HST" ->
                                    DpHstInitializer.initialize(
                                            dpTree, demand, k, EPSILON / 2, rng);
                            default -> throw new IllegalStateException(method);
                        };
                double initSeconds =
                        (System.nanoTime() - ti) / 1e9
                                + (method.equals("NDP-HST")
                                        ? ndpTreeSeconds
                                        : method.equals("DP-HST") ? dpTreeSeconds : 0);
                double initial = costs.cost(init);
                double[] v;
                if (method.startsWith("NDP")) {
                    LocalSearch.Result r = LocalSearch.run(costs, init, ALPHA, STEPS);
                    v =
                            new double[] {
                                initial, r.cost(), r.cost(), Double.NaN, Double.NaN, initSeconds
                            };
                } else {
                    DpLocalSearch.Result r =
                            DpLocalSearch.run(
                                    costs,
                                    init,
                                    method.equals("DP-HST") ? EPSILON / 2 : EPSILON,
                                    STEPS,
                                    rng);
                    double[] seq = r.iterates().stream().mapToDouble(costs::cost).toArray();
                    double[] ma = movingAverage(seq, c.window());
                    int arg = 0;
                    for (int i = 1; i < ma.length; i++) {
                        arg = ma[i] < ma[arg] ? i : arg;
                    }
                    v =
                            new double[] {
                                initial,
                                costs.cost(r.centres()),
                                Arrays.stream(seq).average().orElseThrow(),
                                arg + c.window(),
                                ma[arg],
                                initSeconds
                            };
                }
                values[mi][ki] = v;
                if (boundStudy && method.equals("DP-HST")) {
                    PrivacyRandom rb =
                            PrivacyRandom.forContext(
                                    StatsReplayExperiment.testSecret(),
                                    ("evaluate-kmedian/bound/"
                                                    + u.metricName()
                                                    + "/"
                                                    + rep
                                                    + "/"
                                                    + k)
                                            .getBytes(StandardCharsets.UTF_8));
                    hstBound[ki] =
                            costs.cost(
                                    DpHstInitializer.initialize(
                                            boundTree, demand, k, EPSILON / 2, rb));
                }
            }
        }
        return new RepResult(u, demandKind, rep, values, boundStudy ? hstBound : null);
    }

    /**
     * Trailing moving averages of {@code seq} with window w (clamped to the length): entry i is the
     * mean of seq[i .. i+w-1], so the entry index + w is the 1-based index of the window's last
     * iterate.
     */
    static double[] movingAverage(double[] seq, int w) {
        int win = Math.max(1, Math.min(w, seq.length));
        double[] out = new double[seq.length - win + 1];
        for (int i = 0; i < out.length; i++) {
            double s = 0;
            for (int j = i; j < i + win; j++) {
                s += seq[j];
            }
            out[i] = s / win;
        }
        return out;
    }

    private static List<Map<String, Object>> costRows(
            Config c, List<Universe> universes, List<RepResult> results) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Universe u : universes) {
            for (String demand : List.of("balanced", "imbalanced")) {
                List<RepResult> rs =
                        results.stream()
                                .filter(r -> r.u() == u && r.demand().equals(demand))
                                .toList();
                for (int ki = 0; ki < c.ks().length; ki++) {
                    for (int mi = 0; mi < METHODS.size(); mi++) {
                        int fmi = mi;
                        int fki = ki;
                        double[][] per =
                                rs.stream().map(r -> r.values()[fmi][fki]).toArray(double[][]::new);
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("row", "cost");
                        row.put("dataset", u.dataset());
                        row.put("metric", u.metricName());
                        row.put("demand", demand);
                        row.put("method", METHODS.get(mi));
                        row.put("k", c.ks()[ki]);
                        row.put("initial_cost", mean(per, 0));
                        row.put("final_cost", mean(per, 1));
                        row.put("repetitions", per.length);
                        row.put("initial_cost_sd", sd(per, 0));
                        row.put("final_cost_sd", sd(per, 1));
                        row.put("mean_iterate_cost", mean(per, 2));
                        boolean dp = METHODS.get(mi).startsWith("DP");
                        row.put("iteration_cost", dp ? mean(per, 3) : null);
                        row.put("best_moving_average_cost", dp ? mean(per, 4) : null);
                        row.put("moving_average_window", c.window());
                        row.put("init_seconds", mean(per, 5));
                        row.put("delta", u.exactDelta());
                        row.put("guarantee", dp ? "dp" : "none");
                        rows.add(row);
                    }
                }
            }
        }
        return rows;
    }

    private static List<Map<String, Object>> diameterRows(
            List<Universe> universes, List<RepResult> results) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Universe u : universes) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("row", "diameter");
            row.put("dataset", u.dataset());
            row.put("metric", u.metricName());
            row.put("exact_diameter", u.exactDelta());
            row.put("diameter_bound", u.boundDelta());
            row.put("bound_ratio", u.boundDelta() / u.exactDelta());
            row.put("exact_seconds", u.diameterSeconds());
            row.put("pairs_evaluated", u.pairs());
            List<RepResult> rs =
                    results.stream()
                            .filter(r -> r.u() == u && r.hstBoundInitial() != null)
                            .toList();
            if (!rs.isEmpty()) {
                row.put(
                        "dp_hst_initial_cost_with_bound",
                        IntStream.range(0, rs.get(0).hstBoundInitial().length)
                                .mapToObj(
                                        ki ->
                                                rs.stream()
                                                        .mapToDouble(r -> r.hstBoundInitial()[ki])
                                                        .average()
                                                        .orElseThrow())
                                .toList());
                row.put(
                        "dp_hst_initial_cost_with_bound_per_rep",
                        rs.stream().map(r -> r.hstBoundInitial()).toList());
                int hst = METHODS.indexOf("DP-HST");
                int pp = METHODS.indexOf("DP-kmedian++");
                row.put(
                        "dp_hst_initial_cost_per_rep",
                        rs.stream().map(r -> column(r.values()[hst])).toList());
                row.put(
                        "dp_kmedianpp_initial_cost_per_rep",
                        rs.stream().map(r -> column(r.values()[pp])).toList());
            }
            rows.add(row);
        }
        return rows;
    }

    private static double[] column(double[][] perK) {
        return Arrays.stream(perK).mapToDouble(v -> v[0]).toArray();
    }

    /**
     * Initialisation time (sequential, after the cost runs): HST = tree build + NDP-HST on a demand
     * set of min(500, n) points; k-median++ = {@link KMedianPlusPlus} over all of U (the
     * DP-kmedian++ seeding), on mnist l2 (the first metric), against k at n = |U| and against n at
     * k = 10.
     */
    private static List<Map<String, Object>> timingRows(Config c) {
        Dataset mnist = DatasetLoader.load("mnist10k");
        List<Map<String, Object>> rows = new ArrayList<>();
        List<int[]> grid = new ArrayList<>();
        for (int k : c.timingKs()) {
            grid.add(new int[] {c.mnistPoints(), k, 0});
        }
        for (int n : c.timingNs()) {
            grid.add(new int[] {n, 10, 1});
        }
        for (int[] g : grid) {
            int n = g[0];
            int k = g[1];
            double[][] pts = Arrays.copyOf(mnist.shuffled(SEED).points(), n);
            VectorMetric vm = VectorMetric.l2(pts);
            double delta =
                    2
                            * Arrays.stream(vm.distancesFrom(Diameters.nearestToMean(pts, vm)))
                                    .max()
                                    .orElseThrow();
            int[] demand = IntStream.range(0, Math.min(500, n)).toArray();
            long t0 = System.nanoTime();
            Hst tree = Hst.build(vm, delta, new Hst.Options(SEED, NDP_TREE_LEVELS, true));
            NdpHstInitializer.initialize(tree, demand, k);
            double hst = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            KMedianPlusPlus.select(
                    vm, IntStream.range(0, n).toArray(), k, 1, new SplittableRandom(SEED));
            double pp = (System.nanoTime() - t0) / 1e9;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("row", "init_time");
            row.put("sweep", g[2] == 0 ? "k" : "n");
            row.put("metric", "l2");
            row.put("n", n);
            row.put("k", k);
            row.put("hst_seconds", hst);
            row.put("kmedianpp_seconds", pp);
            rows.add(row);
        }
        return rows;
    }

    static double mean(double[][] per, int q) {
        return Arrays.stream(per).mapToDouble(v -> v[q]).average().orElse(Double.NaN);
    }

    static double sd(double[][] per, int q) {
        if (per.length < 2) {
            return Double.NaN;
        }
        double m = mean(per, q);
        return Math.sqrt(
                Arrays.stream(per).mapToDouble(v -> (v[q] - m) * (v[q] - m)).sum()
                        / (per.length - 1));
    }
}
