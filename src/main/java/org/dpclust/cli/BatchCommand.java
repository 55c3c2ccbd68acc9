package org.dpclust.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.batch.BatchAlgorithm;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.batch.KMedianUniverse;
import org.dpclust.batch.SnapshotRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.eval.Dataset;
import org.dpclust.eval.DatasetLoader;
import org.dpclust.eval.DomainScaling;
import org.dpclust.eval.JsonRows;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.BudgetTopicReader;
import org.dpclust.jobs.BatchJob;
import org.dpclust.jobs.LocalCluster;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpclust batch}: one algorithm over a bounded snapshot.
 *
 * <ul>
 *   <li>{@code --input kafka:TOPIC --output kafka}: the Flink batch job ({@link BatchJob}) over the
 *       topic read to its end, restricted to the public interval {@code --from/--to} of stream
 *       {@code --stream} (declared in {@code --config}); the release goes to the centroids topic
 *       and the stream's ledger (shared with the streaming job) is charged, or the charge is
 *       refused (exit code 3, no release);
 *   <li>{@code --input FILE.csv --output DIR}: the same algorithm interface in plain Java, writing
 *       {@code centroids.csv} and {@code summary.json}. File runs are offline evaluations: no
 *       stream, no shared ledger, nothing charged (the summary says so).
 *   <li>k-median algorithms ({@link org.dpclust.batch.KMedianAlgorithm}) need a public universe U:
 *       {@code --universe U.csv --metric l1|l2} (the input records are snapped to their nearest
 *       point of U; a CSV input without {@code --universe} is an error — no universe is drawn
 *       implicitly), or {@code --metric graph --graph EDGES} with {@code --input} a one-column CSV
 *       of node ids, or {@code --metric graph} with {@code --input EDGES}: U is that graph and the
 *       demand set is every node once. U and diam(U) are public, so these need no {@code --bounds}.
 *       A kafka input works with an l1/l2 universe: each record of the public interval is snapped
 *       to its nearest point of U.
 * </ul>
 *
 * A non-private algorithm with {@code --output kafka} is an error: its output may not be published;
 * so is an {@code epp} algorithm (EPP is batch-only and never shares a stream or a ledger with
 * {@code dp} releases).
 */
@Command(
        name = "batch",
        mixinStandardHelpOptions = true,
        description = "Run a clustering algorithm on a bounded snapshot (CSV file or Kafka topic).")
public final class BatchCommand implements Callable<Integer> {
    static final int EXIT_REFUSED = 3;
    private static final String KAFKA_PREFIX = "kafka:";

    @Option(
            names = "--algorithm",
            required = true,
            description = "Algorithm name (lloyd, stats, ...).")
    String algorithm;

    @Option(
            names = "--mode",
            description =
                    "paper or strict: the algorithm's paper form (NAME-paper,"
                            + " paper-claimed) or its strict dp form (NAME); default: NAME as given.")
    String mode;

    @Option(names = "--input", required = true, description = "A CSV file, or kafka:TOPIC.")
    String input;

    @Option(
            names = "--k",
            description = "Number of centroids (default: the stream's k with --config).")
    Integer k;

    @Option(names = "--epsilon", description = "Epsilon of the release (private algorithms).")
    Double epsilon;

    @Option(
            names = "--bounds",
            description = "Declared bounds \"lo1,lo2;hi1,hi2\" (or use --config/--stream).")
    String bounds;

    @Option(names = "--config", description = "dpclust YAML configuration declaring the stream.")
    Path config;

    @Option(names = "--stream", description = "Stream id in --config.")
    String stream;

    @Option(
            names = "--output",
            defaultValue = "batch-out",
            description = "A directory, or kafka (default ${DEFAULT-VALUE}).")
    String output;

    @Option(
            names = "--from",
            description = "Start of the public event-time interval (ISO-8601, inclusive).")
    String from;

    @Option(
            names = "--to",
            description = "End of the public event-time interval (ISO-8601, exclusive).")
    String to;

    @Option(
            names = "--seed",
            description =
                    "Seed of the public randomness (default: the stream's public_seed, else 1).")
    Long seed;

    @Option(
            names = "--n-init",
            defaultValue = "10",
            description = "Restarts of lloyd (default ${DEFAULT-VALUE}).")
    int nInit;

    @Option(
            names = "--cells",
            description =
                    "Public partition size of stats (default: the stream's, else max(64, 16k)).")
    Integer cells;

    @Option(
            names = "--secret-file",
            description = "File with the hex HMAC secret (default: env DPCLUST_SECRET).")
    Path secretFile;

    @Option(
            names = "--bootstrap-servers",
            description = "Overrides kafka.bootstrap_servers of --config.")
    String bootstrapServers;

    @Option(names = "--json", description = "Print the result as one JSON line.")
    boolean json;

    @Option(
            names = "--universe",
            description = "CSV of the public universe U of the k-median algorithms.")
    Path universe;

    @Option(
            names = "--metric",
            description =
                    "Metric of U for the k-median algorithms: l1, l2 (default with"
                            + " --universe) or graph.")
    String metric;

    @Option(
            names = "--graph",
            description = "Edge list (from,to,weight) of the public graph U (--metric graph).")
    Path graph;

    /**
     * The registry name of {@code algorithm} in {@code mode}: paper → NAME-paper (which must be
     * registered), strict → NAME (which must be dp), null → NAME; anything else is an error naming
     * {@code --mode}.
     */
    static String withMode(String algorithm, String mode) {
        if (mode == null) {
            return algorithm;
        }
        String base =
                algorithm.endsWith("-paper")
                        ? algorithm.substring(0, algorithm.length() - 6)
                        : algorithm;
        switch (mode) {
            case "paper" -> {
                if (!BatchAlgorithms.names().contains(base + "-paper")) {
                    throw new IllegalArgumentException(
                            "--mode paper: algorithm '"
                                    + base
                                    + "' has no paper form"
                                    + " (a NAME-paper algorithm); known: "
                                    + BatchAlgorithms.names());
                }
                return base + "-paper";
            }
            case "strict" -> {
                if (!BatchAlgorithm.DP.equals(BatchAlgorithms.get(base).guarantee())) {
                    throw new IllegalArgumentException(
                            "--mode strict: algorithm '"
                                    + base
                                    + "' is not dp (guarantee "
                                    + BatchAlgorithms.get(base).guarantee()
                                    + ")");
                }
                return base;
            }
            default ->
                    throw new IllegalArgumentException(
                            "--mode must be paper or strict, was '" + mode + "'");
        }
    }

    @Override
    public Integer call() throws Exception {
        BatchAlgorithm alg = BatchAlgorithms.get(withMode(algorithm, mode));
        boolean toKafka = "kafka".equals(output);
        if (toKafka) {
            if (BatchAlgorithm.EPP.equals(alg.guarantee())) {
                throw new IllegalArgumentException(
                        "--output kafka: algorithm '"
                                + alg.name()
                                + "' has guarantee epp"
                                + " (error-preserving privacy, not differential privacy); EPP output is batch-only and may"
                                + " not reach a stream's centroids topic or charge its dp ledger, use --output DIR");
            }
            BatchJob.requirePublishable(alg);
        }
        DpclustConfig cfg = null;
        StreamSpec spec = null;
        if (config != null) {
            if (stream == null) {
                throw new IllegalArgumentException(
                        "--stream: required with --config (which stream to run on)");
            }
            DpclustConfig loaded = ConfigLoader.load(config);
            cfg = loaded;
            spec =
                    loaded.stream(stream)
                            .orElseThrow(
                                    () ->
                                            new IllegalArgumentException(
                                                    "--stream: stream '"
                                                            + stream
                                                            + "' is not declared in "
                                                            + config
                                                            + "; declared: "
                                                            + String.join(
                                                                    ", ",
                                                                    loaded.streamsById()
                                                                            .keySet())));
            if (bounds != null) {
                throw new IllegalArgumentException(
                        "--bounds: give either --bounds or --config/--stream (the stream"
                                + " declares its bounds)");
            }
        } else if (stream != null) {
            throw new IllegalArgumentException("--config: --stream needs --config");
        }
        DomainBounds b =
                bounds != null
                        ? parseBounds(bounds)
                        : spec != null ? new DomainBounds(spec.lower(), spec.upper()) : null;
        if (k == null && spec == null) {
            throw new IllegalArgumentException(
                    "--k: required (or --config/--stream for the stream's k)");
        }
        int kk = k != null ? k : spec.k();
        if (alg.isPrivate() && epsilon == null) {
            throw new IllegalArgumentException(
                    "--epsilon: algorithm "
                            + alg.name()
                            + " is private (guarantee "
                            + alg.guarantee()
                            + ") and needs --epsilon");
        }
        // EPP calibrates nothing to bounds (its number of bags comes from the partition's own
        // moments);
        // k-median algorithms take their sensitivity from the public universe's diameter
        KMedianUniverse u = kmedianUniverse();
        if (alg.isPrivate()
                && !BatchAlgorithm.EPP.equals(alg.guarantee())
                && b == null
                && u == null) {
            throw new IllegalArgumentException(
                    "--bounds: algorithm "
                            + alg.name()
                            + " is private and needs declared"
                            + " bounds (--bounds or --config/--stream); bounds computed from the data would void its guarantee");
        }
        BatchParams params =
                new BatchParams(
                                kk,
                                epsilon == null ? Double.NaN : epsilon,
                                b,
                                seed != null ? seed : spec != null ? spec.publicSeed() : 1L,
                                nInit,
                                cells != null
                                        ? cells
                                        : spec != null
                                                ? spec.statsCells()
                                                : BatchParams.defaultCells(kk),
                                spec != null ? spec.statsCountFraction() : Double.NaN,
                                spec != null ? spec.unitContribution() : 1)
                        .withUniverse(u);
        if (input.startsWith(KAFKA_PREFIX)) {
            if (u != null && u.kind() == KMedianUniverse.Kind.GRAPH) {
                throw new IllegalArgumentException(
                        "--input: a kafka input carries feature vectors; a graph universe "
                                + "(--metric graph) needs a CSV of node ids");
            }
            if (u != null && spec != null && u.coordinates(0).length != spec.dimension()) {
                throw new IllegalArgumentException(
                        "--universe: its points have dimension "
                                + u.coordinates(0).length
                                + ", stream '"
                                + spec.id()
                                + "' declares "
                                + spec.dimension());
            }
            return runKafka(alg, cfg, spec, params, toKafka);
        }
        return runFile(alg, params, toKafka);
    }

    private int runKafka(
            BatchAlgorithm alg,
            DpclustConfig cfg,
            StreamSpec spec,
            BatchParams params,
            boolean toKafka)
            throws Exception {
        if (spec == null) {
            throw new IllegalArgumentException(
                    "--config: a kafka input needs --config and --stream (bounds, cap,"
                            + " budget period of the stream)");
        }
        if (!toKafka) {
            throw new IllegalArgumentException(
                    "--output: a kafka input writes to the centroids topic; use --output kafka");
        }
        if (spec.privacyUnit() == PrivacyUnit.DEVICE) {
            throw new IllegalArgumentException(
                    "--stream: stream '"
                            + spec.id()
                            + "' has device units; batch runs"
                            + " support record units only");
        }
        if (from == null || to == null) {
            throw new IllegalArgumentException(
                    (from == null ? "--from" : "--to")
                            + ": a kafka input needs the public event-time interval --from/--to");
        }
        long start = parseInstant("--from", from);
        long end = parseInstant("--to", to);
        if (end <= start) {
            throw new IllegalArgumentException("--to: must be after --from");
        }
        String topic = input.substring(KAFKA_PREFIX.length());
        if (topic.isBlank()) {
            throw new IllegalArgumentException("--input: kafka:TOPIC needs a topic name");
        }
        if (bootstrapServers != null) {
            cfg = cfg.withKafka(cfg.kafka().withBootstrapServers(bootstrapServers));
        }
        SecretSource secret = SecretSource.of(secretFile);
        secret.load(); // fails here, at start-up, naming the option; the operator loads it again
        PrivacyLedger.Interval interval = new PrivacyLedger.Interval(start, end);
        Map<String, Double> before = readLedger(cfg, spec);
        BatchJob.fromKafka(cfg, topic, spec, alg.name(), params, interval, secret, before)
                .execute(StreamExecutionEnvironment.getExecutionEnvironment(LocalCluster.config()));
        Map<String, Double> after = readLedger(cfg, spec);
        double totalBefore = before.getOrDefault(interval.key(), 0.0);
        double totalAfter = after.getOrDefault(interval.key(), 0.0);
        boolean charged = totalAfter > totalBefore;
        PrivacyLedger ledger = new PrivacyLedger(spec.cap(), spec.budgetPeriodMillis(), false);
        after.forEach((key, v) -> ledger.restore(PrivacyLedger.Interval.parse(key), v));
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("status", charged ? "charged" : "refused");
        summary.put("algorithm", alg.name());
        summary.put("guarantee", alg.guarantee());
        summary.put("stream_id", spec.id());
        summary.put("from", Instant.ofEpochMilli(start).toString());
        summary.put("to", Instant.ofEpochMilli(end).toString());
        summary.put("epsilon", params.epsilon());
        summary.put("interval_total", totalAfter);
        summary.put("spent", ledger.spent(start));
        summary.put("cap", spec.cap());
        summary.put("centroids_topic", cfg.kafka().centroidsTopic());
        summary.put("budget_topic", cfg.kafka().budgetTopic());
        if (json) {
            new JsonRows(System.out).print(summary);
        } else if (charged) {
            System.out.printf(
                    Locale.ROOT,
                    "released %s (%s) for stream %s [%s, %s): epsilon %s, spent %.6g of cap %s%n",
                    alg.name(),
                    alg.guarantee(),
                    spec.id(),
                    summary.get("from"),
                    summary.get("to"),
                    params.epsilon(),
                    ledger.spent(start),
                    spec.cap());
        } else {
            System.err.printf(
                    Locale.ROOT,
                    "dpclust batch: REFUSED: epsilon %s would exceed the cap %s of stream %s"
                            + " (spent %.6g); nothing was released%n",
                    params.epsilon(),
                    spec.cap(),
                    spec.id(),
                    ledger.spent(start));
        }
        return charged ? 0 : EXIT_REFUSED;
    }

    private static Map<String, Double> readLedger(DpclustConfig cfg, StreamSpec spec) {
        return BudgetTopicReader.read(
                        cfg.kafka().bootstrapServers(),
                        cfg.kafka().budgetTopic(),
                        StreamingJob.LEDGER_READ_TIMEOUT)
                .getOrDefault(spec.id(), Map.of());
    }

    private int runFile(BatchAlgorithm alg, BatchParams params, boolean toKafka) {
        if (toKafka) {
            throw new IllegalArgumentException(
                    "--output: a file input writes files (no stream ledger to charge);"
                            + " use --output DIR");
        }
        if (from != null || to != null) {
            throw new IllegalArgumentException(
                    (from != null ? "--from" : "--to")
                            + ": a file input has no event time; --from/--to apply to kafka inputs");
        }
        Path csv = Path.of(input);
        if (!Files.isRegularFile(csv)) {
            throw new IllegalArgumentException("--input: no such file " + csv);
        }
        Dataset data =
                params.universe() != null && graph == null && "graph".equals(metric)
                        ? allNodes(csv, params.universe())
                        : DatasetLoader.loadCsv(csv);
        double[][] points = new double[data.size()][];
        for (int i = 0; i < points.length; i++) {
            points[i] = data.points()[i].clone();
            if (params.bounds() != null) {
                if (points[i].length != params.bounds().dimension()) {
                    throw new IllegalArgumentException(
                            "--bounds: "
                                    + params.bounds().dimension()
                                    + " dimensions declared, the data has "
                                    + points[i].length);
                }
                params.bounds().clamp(points[i], points[i]);
            }
        }
        PrivacySecret secret = alg.isPrivate() ? SecretSource.resolve(secretFile) : null;
        SnapshotRelease.Outcome o =
                SnapshotRelease.run(
                        alg,
                        params,
                        points,
                        data.name(),
                        new PrivacyLedger.Interval(0, 1),
                        null,
                        secret);
        Path dir = Path.of(output);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("algorithm", alg.name());
        summary.put("guarantee", alg.guarantee());
        summary.put("input", csv.toString());
        summary.put("records", data.size());
        summary.put("dimension", data.dimension());
        summary.put("k", params.k());
        summary.put("epsilon", alg.isPrivate() ? params.epsilon() : null);
        summary.put("seed", params.seed());
        summary.put("ledger", "not charged (offline file run, no stream ledger)");
        summary.put("parameters", o.result().parameters());
        summary.put("centroids_file", dir.resolve("centroids.csv").toString());
        try {
            Files.createDirectories(dir);
            Files.writeString(
                    dir.resolve("centroids.csv"),
                    centroidsCsv(o.result().centroids()),
                    StandardCharsets.UTF_8);
            Files.writeString(
                    dir.resolve("summary.json"),
                    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(summary)
                            + "\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "--output: cannot write " + dir + ": " + e.getMessage(), e);
        }
        if (json) {
            new JsonRows(System.out).print(summary);
        } else {
            System.out.printf(
                    "%s (%s): %d centroids written to %s%n",
                    alg.name(), alg.guarantee(), params.k(), dir.resolve("centroids.csv"));
        }
        return 0;
    }

    /** The k-median universe of --universe/--metric/--graph, or null when none is given. */
    private KMedianUniverse kmedianUniverse() {
        if (metric == null && universe == null && graph == null) {
            return null;
        }
        String m = metric == null ? "l2" : metric;
        if (m.equals("graph")) {
            if (universe != null) {
                throw new IllegalArgumentException(
                        "--universe: --metric graph takes the universe from --graph"
                                + " (or from --input, an edge list)");
            }
            return KMedianUniverse.readEdgeList(
                    graph != null ? graph : Path.of(input), graph != null ? "--graph" : "--input");
        }
        if (!m.equals("l1") && !m.equals("l2")) {
            throw new IllegalArgumentException(
                    "--metric: expected l1, l2 or graph, was '" + m + "'");
        }
        if (graph != null) {
            throw new IllegalArgumentException("--graph: needs --metric graph");
        }
        if (universe == null) {
            throw new IllegalArgumentException(
                    "--universe: --metric " + m + " needs the public universe U as a CSV");
        }
        if (!Files.isRegularFile(universe)) {
            throw new IllegalArgumentException("--universe: no such file " + universe);
        }
        return KMedianUniverse.vectors(
                DatasetLoader.loadCsv(universe).points(),
                m.equals("l1") ? KMedianUniverse.Kind.L1 : KMedianUniverse.Kind.L2);
    }

    /** An edge-list input: the demand set is every node of the graph once. */
    private static Dataset allNodes(Path edges, KMedianUniverse u) {
        double[][] nodes = new double[u.size()][];
        for (int v = 0; v < nodes.length; v++) {
            nodes[v] = new double[] {v};
        }
        return new Dataset(edges.getFileName().toString(), nodes, null, DomainScaling.none());
    }

    static String centroidsCsv(double[][] centroids) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < centroids[0].length; j++) {
            sb.append(j > 0 ? "," : "").append('x').append(j + 1);
        }
        sb.append('\n');
        for (double[] c : centroids) {
            for (int j = 0; j < c.length; j++) {
                sb.append(j > 0 ? "," : "").append(c[j]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Parses {@code "lo1,lo2;hi1,hi2"}; every problem names {@code --bounds}. */
    static DomainBounds parseBounds(String text) {
        String[] parts = text.split(";", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException(
                    "--bounds: expected \"lo1,lo2,...;hi1,hi2,...\", was '" + text + "'");
        }
        double[] lo = numbers(parts[0]);
        double[] hi = numbers(parts[1]);
        if (lo.length != hi.length) {
            throw new IllegalArgumentException(
                    "--bounds: " + lo.length + " lower but " + hi.length + " upper bounds");
        }
        try {
            return new DomainBounds(lo, hi);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--bounds: " + e.getMessage(), e);
        }
    }

    private static double[] numbers(String csv) {
        String[] f = csv.split(",", -1);
        double[] v = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            try {
                v[i] = Double.parseDouble(f[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "--bounds: '" + f[i].trim() + "' is not a number", e);
            }
            if (!Double.isFinite(v[i])) {
                throw new IllegalArgumentException("--bounds: '" + f[i].trim() + "' is not finite");
            }
        }
        return v;
    }

    private static long parseInstant(String option, String value) {
        try {
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    option
                            + ": '"
                            + value
                            + "' is not an ISO-8601 instant"
                            + " (e.g. 2026-01-01T00:00:00Z)",
                    e);
        }
    }
}
