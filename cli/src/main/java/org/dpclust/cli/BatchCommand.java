package org.dpclust.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.batch.BatchAlgorithm;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.batch.DeclaredBounds;
import org.dpclust.batch.FileRun;
import org.dpclust.batch.FileSnapshot;
import org.dpclust.batch.KMedianUniverse;
import org.dpclust.batch.KafkaRunReport;
import org.dpclust.batch.LedgerChange;
import org.dpclust.batch.OutputDirectory;
import org.dpclust.batch.PublicInterval;
import org.dpclust.batch.PublishPolicy;
import org.dpclust.batch.UniverseSpec;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.eval.JsonRows;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.jobs.BatchJob;
import org.dpclust.jobs.BatchRun;
import org.dpclust.jobs.LocalCluster;
import org.dpclust.kmeans.CellRule;
import org.dpclust.launch.BootstrapServersOption;
import org.dpclust.launch.BrokerCheck;
import org.dpclust.launch.ConfigOption;
import org.dpclust.launch.SecretFileOption;
import org.dpclust.launch.StartupLog;
import org.dpclust.ledger.KafkaLedgerClient;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
 * Only {@code dp} output may go to {@code --output kafka} ({@link PublishPolicy}): a non-private,
 * {@code epp} or {@code paper-claimed} algorithm (e.g. {@code --mode paper}) is refused at start-up
 * with one line naming the option (exit code 2); they stay available for file output.
 *
 * <p>This class only wires options to the {@code batch} package (parsing, snapshot, output, ledger
 * comparison live there) and to {@link BatchJob}. It logs at INFO what it does — input, algorithm
 * and mode, the ledger decision, the output — never the secret or any record.
 */
@Command(
        name = "batch",
        mixinStandardHelpOptions = true,
        description = "Run a clustering algorithm on a bounded snapshot (CSV file or Kafka topic).")
public final class BatchCommand implements Callable<Integer> {
    static final int EXIT_REFUSED = 3;
    private static final String KAFKA_PREFIX = "kafka:";
    private static final Logger LOG = LoggerFactory.getLogger(BatchCommand.class);

    /** The configuration of --config (with the --bootstrap-servers override), or null. */
    private DpclustConfig cfg;

    @Option(
            names = "--algorithm",
            required = true,
            completionCandidates = AlgorithmNames.class,
            description = "Algorithm: ${COMPLETION-CANDIDATES}.")
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

    @Mixin ConfigOption config;

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
            names = "--records-hint",
            description =
                    "A declared (public) expected number of records: sets the cells of stats by"
                            + " the signal rule (kmeans.CellRule) at --epsilon instead of --cells.")
    Long recordsHint;

    @Mixin SecretFileOption secretFile;

    @Mixin BootstrapServersOption kafka;

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

    @Override
    public Integer call() throws Exception {
        BatchAlgorithm alg = BatchAlgorithms.get(BatchAlgorithms.withMode(algorithm, mode));
        boolean toKafka = "kafka".equals(output);
        if (toKafka) {
            PublishPolicy.requirePublishable(alg);
        }
        StreamSpec spec = streamSpec();
        if (bounds != null && spec != null) {
            throw new IllegalArgumentException(
                    "--bounds: give either --bounds or --config/--stream (the stream"
                            + " declares its bounds)");
        }
        DomainBounds b =
                bounds != null
                        ? DeclaredBounds.parse(bounds)
                        : spec != null ? new DomainBounds(spec.lower(), spec.upper()) : null;
        if (k == null && spec == null) {
            throw new IllegalArgumentException(
                    "--k: required (or --config/--stream for the stream's k)");
        }
        if (alg.isPrivate() && epsilon == null) {
            throw new IllegalArgumentException(
                    "--epsilon: algorithm "
                            + alg.name()
                            + " is private (guarantee "
                            + alg.guarantee()
                            + ") and needs --epsilon");
        }
        UniverseSpec universeSpec = new UniverseSpec(metric, universe, graph);
        KMedianUniverse u = universeSpec.load(Path.of(input));
        // k-median algorithms take their sensitivity from the public universe's diameter
        if (alg.needsDeclaredBounds() && b == null && u == null) {
            throw new IllegalArgumentException(
                    "--bounds: algorithm "
                            + alg.name()
                            + " is private and needs declared bounds (--bounds or --config/--stream);"
                            + " bounds computed from the data would void its guarantee");
        }
        int kk = k != null ? k : spec.k();
        BatchParams params =
                new BatchParams(
                                kk,
                                epsilon == null ? Double.NaN : epsilon,
                                b,
                                seed != null ? seed : spec != null ? spec.publicSeed() : 1L,
                                nInit,
                                statsCells(kk, b, spec),
                                spec != null ? spec.statsCountFraction() : Double.NaN,
                                spec != null ? spec.unitContribution() : 1)
                        .withUniverse(u);
        alg.checkParams(params);
        LOG.info(
                "batch {} (guarantee {}, mode {}): input {}, k {}, epsilon {}, output {}",
                alg.name(),
                alg.guarantee(),
                mode == null ? "as named" : mode,
                input,
                params.k(),
                alg.isPrivate() ? params.epsilon() : "none",
                output);
        if (alg.isPrivate()) {
            warn(StartupLog.epsilonWarning("--epsilon", params.epsilon()));
        }
        if (input.startsWith(KAFKA_PREFIX)) {
            return runKafka(alg, spec, params, toKafka);
        }
        return runFile(alg, params, universeSpec.demandIsEveryNode() ? u : null, toKafka);
    }

    /**
     * The cells of {@code stats}: {@code --cells}, else {@link CellRule#cells} at {@code
     * --records-hint} (public, declared), else the stream's, else the default.
     */
    private int statsCells(int kk, DomainBounds b, StreamSpec spec) {
        if (recordsHint == null) {
            return cells != null
                    ? cells
                    : spec != null ? spec.statsCells() : BatchParams.defaultCells(kk);
        }
        if (cells != null) {
            throw new IllegalArgumentException(
                    "--records-hint: give either --cells or --records-hint, not both");
        }
        if (recordsHint < 1) {
            throw new IllegalArgumentException("--records-hint: must be >= 1, was " + recordsHint);
        }
        if (epsilon == null || b == null) {
            throw new IllegalArgumentException(
                    "--records-hint: needs --epsilon and declared bounds");
        }
        return CellRule.cells(kk, b.dimension(), epsilon, recordsHint);
    }

    /** The stream of --config/--stream, or null without --config. */
    private StreamSpec streamSpec() {
        if (!config.given()) {
            if (stream != null) {
                throw new IllegalArgumentException("--config: --stream needs --config");
            }
            return null;
        }
        if (stream == null) {
            throw new IllegalArgumentException(
                    "--stream: required with --config (which stream to run on)");
        }
        DpclustConfig loaded = config.load(kafka);
        cfg = loaded;
        return loaded.stream(stream)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "--stream: stream '"
                                                + stream
                                                + "' is not declared in "
                                                + config.path()
                                                + "; declared: "
                                                + String.join(
                                                        ", ", loaded.streamsById().keySet())));
    }

    private int runKafka(BatchAlgorithm alg, StreamSpec spec, BatchParams params, boolean toKafka)
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
        PrivacyLedger.Interval interval = PublicInterval.parse(from, to);
        String topic = input.substring(KAFKA_PREFIX.length());
        if (topic.isBlank()) {
            throw new IllegalArgumentException("--input: kafka:TOPIC needs a topic name");
        }
        SecretSource secret = secretFile.source();
        // fails here, at start-up, naming the option; the operator loads it again
        warn(StartupLog.secretWarning(secret.load(), secretFile.describe()));
        BrokerCheck.require(
                kafka.optionName(), cfg.kafka().connection(), kafka.propertiesOptionName());
        // BatchRun makes every check of the run before anything is read or started
        BatchRun run = BatchRun.create(cfg, spec, alg.name(), params, interval, secret);
        LOG.info(
                "batch {}: stream {}, interval {}, topic {}; ledger {}",
                alg.name(),
                spec.id(),
                interval.iso(),
                topic,
                cfg.kafka().budgetTopic());
        BatchJob job = BatchJob.fromKafka(topic, run);
        job.execute(StreamExecutionEnvironment.getExecutionEnvironment(LocalCluster.config()));
        LedgerChange change = decisionOf(cfg, spec, job.chargeKey());
        LOG.info(
                "batch {}: ledger decision {} for stream {} interval {} (spent {} of cap {});"
                        + " output {}",
                alg.name(),
                change.charged() ? "CHARGE" : "REFUSED",
                spec.id(),
                interval.iso(),
                change.spent(),
                spec.cap(),
                change.charged() ? cfg.kafka().centroidsTopic() : "none");
        KafkaRunReport report =
                new KafkaRunReport(alg, spec, interval, params.epsilon(), change, cfg.kafka());
        if (json) {
            new JsonRows(System.out).print(report.summary());
        } else if (change.charged()) {
            System.out.println(report.line());
        } else {
            System.err.println("dpclust batch: " + report.line());
        }
        return change.charged() ? 0 : EXIT_REFUSED;
    }

    /** The decision the stream's fenced writer recorded under the run's own charge key. */
    private static LedgerChange decisionOf(DpclustConfig cfg, StreamSpec spec, String chargeKey) {
        BudgetStatus d;
        try (KafkaLedgerClient ledger = KafkaLedgerClient.open(LedgerSettings.of(cfg.kafka()))) {
            d = ledger.decision(spec.id(), chargeKey);
        }
        if (d == null) {
            throw new IllegalStateException(
                    "the batch job finished but the budget topic "
                            + cfg.kafka().budgetTopic()
                            + " holds no decision for its charge "
                            + chargeKey);
        }
        return new LedgerChange(
                d.getKind() == BudgetEventKind.CHARGE, d.getWindowTotal(), d.getSpent());
    }

    private int runFile(
            BatchAlgorithm alg, BatchParams params, KMedianUniverse everyNodeOf, boolean toKafka) {
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
        FileSnapshot snapshot = FileSnapshot.load(csv, params.bounds(), everyNodeOf);
        if (!alg.isPrivate() && params.k() > snapshot.points().length) {
            // the record count of a non-private run is no secret; a private run's is
            throw new IllegalArgumentException(
                    "--k: "
                            + params.k()
                            + " centroids from the "
                            + snapshot.points().length
                            + " records of "
                            + csv
                            + " (a non-private run needs k <= records)");
        }
        PrivacySecret secret = alg.isPrivate() ? secretFile.resolve() : null;
        if (secret != null) {
            warn(StartupLog.secretWarning(secret, secretFile.describe()));
        }
        OutputDirectory dir = new OutputDirectory(Path.of(output));
        Map<String, Object> summary = new FileRun(alg, params, csv, dir).execute(snapshot, secret);
        LOG.info(
                "batch {}: {} records of {}; ledger not charged (offline file run); output {}",
                alg.name(),
                snapshot.points().length,
                csv,
                dir.dir());
        if (json) {
            new JsonRows(System.out).print(summary);
        } else {
            System.out.printf(
                    "%s (%s): %d centroids written to %s%n",
                    alg.name(), alg.guarantee(), params.k(), dir.centroidsFile());
        }
        return 0;
    }

    /**
     * Logs {@code line} at WARN unless it is null (valid settings that protect next to nothing).
     */
    private static void warn(String line) {
        if (line != null) {
            LOG.warn(line);
        }
    }

    /** The registered batch algorithms, for {@code --help}. */
    static final class AlgorithmNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return BatchAlgorithms.names().iterator();
        }
    }
}
