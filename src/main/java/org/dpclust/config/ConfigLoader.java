package org.dpclust.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpclust.kmeans.CellRule;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.privacy.Accounting;
import org.dpclust.sketch.FrequencyMatrix;

/**
 * Reads and validates the dpclust YAML configuration (every option is in docs/configuration.md).
 * Every problem is reported as a {@link ConfigException} naming the option's path, at start-up,
 * before any Flink or Kafka resource is created. Unknown options are errors too (a typo must not
 * silently fall back to a default that changes the privacy guarantee).
 */
public final class ConfigLoader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private ConfigLoader() {}

    /**
     * Reads and validates a configuration file. A file that cannot be read raises an {@link
     * UncheckedIOException} whose cause is the {@link IOException} (a {@link
     * java.nio.file.NoSuchFileException} names the file); a YAML syntax error is a {@link
     * ConfigException} naming the file, line and column.
     */
    public static DpclustConfig load(Path file) {
        if (Files.isDirectory(file)) {
            throw new UncheckedIOException(
                    new java.nio.file.FileSystemException(
                            file.toString(), null, "a directory, not a configuration file"));
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read configuration " + file + ": " + e.getMessage(), e);
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(text, file.toString(), dir != null ? dir : Path.of("."));
    }

    /** Parses and validates configuration text; see {@link #load}. */
    public static DpclustConfig parse(String yaml) {
        return parse(yaml, "configuration", Path.of("."));
    }

    /**
     * The largest configuration accepted, in characters: a real one is a few KiB, and the YAML
     * scanner is slow on megabytes (a 30 MB scalar takes minutes), so larger text is refused before
     * it is parsed.
     */
    static final int MAX_CHARS = 1 << 20;

    private static DpclustConfig parse(String yaml, String source, Path baseDir) {
        if (yaml.length() > MAX_CHARS) {
            throw new ConfigException(
                    source,
                    "too large for a configuration: "
                            + yaml.length()
                            + " characters (at most "
                            + MAX_CHARS
                            + ")");
        }
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new ConfigException(
                    source + " " + yamlPlace(e),
                    "not valid YAML: " + yamlProblem(e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException("(file)", "expected a mapping with keys kafka, job, streams");
        }
        allowOnly(root, "", Set.of("kafka", "job", "streams"));
        KafkaSettings kafka = kafka(root.path("kafka"));
        TopicFormats formats = formats(root.path("kafka").path("formats"));
        JobSettings job = job(root.path("job"));
        JsonNode streams = root.path("streams");
        if (!streams.isArray() || streams.isEmpty()) {
            throw new ConfigException("streams", "at least one stream must be declared");
        }
        List<StreamSpec> specs = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        SharedSettings shared = new SharedSettings();
        for (int i = 0; i < streams.size(); i++) {
            String p = "streams[" + i + "]";
            for (StreamSets.Member m :
                    StreamSets.expand(streams.get(i), p, baseDir, specs.size())) {
                StreamSpec spec = shared.of(stream(m.options(), m.path()));
                if (!ids.add(spec.id())) {
                    throw new ConfigException(
                            m.path() + ".id", "duplicate stream id '" + spec.id() + "'");
                }
                specs.add(spec);
            }
            if (specs.size() > StreamSets.MAX_STREAMS) {
                throw new ConfigException(
                        p, "more than " + StreamSets.MAX_STREAMS + " streams in one configuration");
            }
        }
        List<InputTopic> inputs =
                InputsParser.parse(
                        root.path("kafka").path("inputs"),
                        root.path("kafka").path("topics").has("input"));
        return new DpclustConfig(kafka, job, List.copyOf(specs), formats, inputs);
    }

    private static final Pattern YAML_MARK =
            Pattern.compile(" in '[^']*', (line \\d+, column \\d+)");

    /**
     * Where the YAML problem is: SnakeYAML's problem mark (the last "line L, column C" of its
     * message), else the parser's location.
     */
    private static String yamlPlace(JsonProcessingException e) {
        Matcher m = YAML_MARK.matcher(String.valueOf(e.getOriginalMessage()));
        String place = null;
        while (m.find()) {
            place = m.group(1);
        }
        if (place != null) {
            return place;
        }
        JsonLocation at = e.getLocation();
        return at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    /**
     * The problem sentence of a SnakeYAML message ("context / in 'reader', line …/ problem / in
     * 'reader', line …"): the line before the last location line.
     */
    private static String yamlProblem(String message) {
        List<String> lines = message.lines().toList();
        for (int i = lines.size() - 1; i > 0; i--) {
            if (lines.get(i).startsWith(" in ")) {
                return lines.get(i - 1).strip();
            }
        }
        return lines.isEmpty() ? "" : lines.get(0).strip();
    }

    private static KafkaSettings kafka(JsonNode n) {
        String p = "kafka";
        allowOnly(
                n,
                p,
                Set.of(
                        "bootstrap_servers",
                        "topics",
                        "group_id",
                        "transactional_id_prefix",
                        "transaction_timeout",
                        "starting_offsets",
                        "properties",
                        "formats",
                        "inputs"));
        JsonNode t = n.path("topics");
        allowOnly(
                t,
                p + ".topics",
                Set.of("input", "centroids", "sketches", "cells", "running", "budget", "dlq"));
        String offsets = text(n, p, "starting_offsets", "committed");
        if (!Set.of("committed", "earliest", "latest").contains(offsets)) {
            throw new ConfigException(
                    p + ".starting_offsets",
                    "must be committed, earliest or latest, was '" + offsets + "'");
        }
        Duration txTimeout = duration(n, p, "transaction_timeout", Duration.ofMinutes(5));
        if (txTimeout.compareTo(Duration.ofMinutes(15)) >= 0) {
            throw new ConfigException(
                    p + ".transaction_timeout",
                    "must be below the broker's transaction.max.timeout.ms (15 min by default), was "
                            + txTimeout);
        }
        return new KafkaSettings(
                text(n, p, "bootstrap_servers", "localhost:9092"),
                text(t, p + ".topics", "input", KafkaSettings.DEFAULT_INPUT),
                text(t, p + ".topics", "centroids", KafkaSettings.DEFAULT_CENTROIDS),
                text(t, p + ".topics", "sketches", KafkaSettings.DEFAULT_SKETCHES),
                text(t, p + ".topics", "cells", KafkaSettings.DEFAULT_CELLS),
                text(t, p + ".topics", "running", KafkaSettings.DEFAULT_RUNNING),
                text(t, p + ".topics", "budget", KafkaSettings.DEFAULT_BUDGET),
                text(t, p + ".topics", "dlq", KafkaSettings.DEFAULT_DLQ),
                text(n, p, "group_id", "dpclust"),
                text(n, p, "transactional_id_prefix", "dpclust"),
                txTimeout,
                offsets,
                clientProperties(n.path("properties"), p + ".properties"));
    }

    /**
     * {@code kafka.properties}: Kafka client properties, a mapping of property name to a scalar
     * value (validated by {@link KafkaConnection#validate}; values are never put into messages).
     */
    private static Map<String, String> clientProperties(JsonNode n, String p) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new ConfigException(p, "expected a mapping of Kafka client property to value");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new ConfigException(
                        p + "." + e.getKey(), "must be a single value (string, number or boolean)");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return KafkaConnection.validate(p, out);
    }

    /**
     * {@code kafka.formats}: avro (default) or json per published topic; the budget topic is the
     * ledger's log and stays Avro (docs/wire-format.md#budget-topic).
     */
    private static TopicFormats formats(JsonNode n) {
        String p = "kafka.formats";
        if (n.has("budget")) {
            throw new ConfigException(
                    p + ".budget",
                    "the budget topic is the fenced ledger's log and is always avro"
                            + " (docs/wire-format.md#budget-topic)");
        }
        allowOnly(n, p, Set.of("centroids", "sketches", "dlq", "cells", "running"));
        return new TopicFormats(
                WireFormat.parse(p + ".centroids", text(n, p, "centroids", "avro")),
                WireFormat.parse(p + ".sketches", text(n, p, "sketches", "avro")),
                WireFormat.parse(p + ".dlq", text(n, p, "dlq", "avro")),
                WireFormat.parse(p + ".cells", text(n, p, "cells", "avro")),
                WireFormat.parse(p + ".running", text(n, p, "running", "avro")));
    }

    private static JobSettings job(JsonNode n) {
        String p = "job";
        allowOnly(n, p, JOB_OPTIONS);
        Duration checkpoint =
                positive(
                        p + ".checkpoint_interval",
                        duration(n, p, "checkpoint_interval", Duration.ofSeconds(10)));
        Duration ooo = duration(n, p, "max_out_of_orderness", Duration.ofSeconds(2));
        if (ooo.isNegative()) {
            throw new ConfigException(p + ".max_out_of_orderness", "must not be negative");
        }
        JobSettings.ReleaseClock clock =
                switch (text(n, p, "release_clock", "ticks")) {
                    case "ticks" -> JobSettings.ReleaseClock.TICKS;
                    case "records" -> JobSettings.ReleaseClock.RECORDS;
                    default ->
                            throw new ConfigException(
                                    p + ".release_clock",
                                    "must be ticks or records, was '"
                                            + n.path("release_clock").asText()
                                            + "'");
                };
        boolean bounded = n.path("bounded_input").asBoolean(false);
        if (clock == JobSettings.ReleaseClock.TICKS && !bounded && n.has("idle_timeout")) {
            throw new ConfigException(
                    p + ".idle_timeout",
                    "only with job.release_clock: records or bounded_input: true; the release"
                            + " clock's ticks keep every partition's watermark moving, so no"
                            + " partition is declared idle (docs/event-time.md#the-release-clock)");
        }
        Duration idle =
                positive(
                        p + ".idle_timeout",
                        duration(n, p, "idle_timeout", Duration.ofSeconds(30)));
        Duration tick =
                positive(p + ".tick_interval", duration(n, p, "tick_interval", TICK_INTERVAL));
        if (tick.compareTo(Duration.ofMillis(100)) < 0) {
            throw new ConfigException(
                    p + ".tick_interval",
                    "must be at least PT0.1S (each tick is a record on every input partition),"
                            + " was "
                            + tick);
        }
        if (tick.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new ConfigException(
                    p + ".tick_interval",
                    "must be at most PT1M (it delays every release), was " + tick);
        }
        if (clock == JobSettings.ReleaseClock.RECORDS && n.has("tick_interval")) {
            throw new ConfigException(p + ".tick_interval", "only with job.release_clock: ticks");
        }
        int parallelism = integer(n, p, "parallelism", 0);
        if (parallelism < 0) {
            throw new ConfigException(p + ".parallelism", "must be >= 0 (0 = Flink default)");
        }
        int decodeParallelism = integer(n, p, "decode_parallelism", 0);
        if (decodeParallelism < 0) {
            throw new ConfigException(
                    p + ".decode_parallelism", "must be >= 0 (0 = the job parallelism)");
        }
        Duration lateness = duration(n, p, "max_lateness", Duration.ofMinutes(10));
        if (lateness.isNegative()) {
            throw new ConfigException(p + ".max_lateness", "must not be negative, was " + lateness);
        }
        Duration future = duration(n, p, "max_future", Duration.ofMinutes(1));
        if (future.isNegative()) {
            throw new ConfigException(p + ".max_future", "must not be negative, was " + future);
        }
        Instant start = instant(n, p, "start");
        Instant end = instant(n, p, "end");
        if (start != null && end != null && !end.isAfter(start)) {
            throw new ConfigException(p + ".end", "must be after job.start (" + start + ")");
        }
        if (end != null && start == null) {
            throw new ConfigException(p + ".start", "required when job.end is set");
        }
        return new JobSettings(
                checkpoint,
                ooo,
                idle,
                bounded,
                parallelism,
                decodeParallelism,
                lateness,
                future,
                start,
                end,
                clock,
                tick);
    }

    /** Default {@code job.tick_interval}. */
    static final Duration TICK_INTERVAL = Duration.ofSeconds(1);

    /** An optional ISO-8601 instant (e.g. 2026-01-01T00:00:00Z); null if absent. */
    private static Instant instant(JsonNode n, String p, String f) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            return null;
        }
        try {
            return Instant.parse(v.asText());
        } catch (DateTimeParseException e) {
            throw new ConfigException(
                    p + "." + f,
                    "not an ISO-8601 instant (e.g. 2026-01-01T00:00:00Z): '" + v.asText() + "'");
        }
    }

    /**
     * Reads stream {@code p} (e.g. {@code streams[0]}): the YAML nodes become the settings records
     * and the {@link StreamSpec}, whose constructors validate; their option paths are placed under
     * {@code p}. Defaults that depend on k and d are taken from clamped values so that an invalid k
     * or d is reported by the spec, naming it.
     */
    static StreamSpec stream(JsonNode n, String p) {
        if (!n.isObject()) {
            throw new ConfigException(p, "expected a mapping");
        }
        allowOnly(n, p, STREAM_OPTIONS);
        String id = required(n, p, "id").asText();
        int d = integer(n, p, "dimension", -1);
        int k = integer(n, p, "k", -1);
        int dk = Math.max(1, k);
        int dd = Math.max(1, d);
        try {
            return new StreamSpec(
                    id,
                    d,
                    vector(required(n, p, "lower"), p + ".lower"),
                    vector(required(n, p, "upper"), p + ".upper"),
                    k,
                    duration(n, p, "window", null),
                    summaries(n.path("summaries"), p + ".summaries"),
                    new BudgetSettings(
                            epsilonPerRelease(n, p),
                            number(n, p, "budget_cap", Double.NaN),
                            duration(n, p, "budget_period", BudgetSettings.DEFAULT_PERIOD)),
                    unit(n, p),
                    stats(
                            section(n, p, "stats", STATS_OPTIONS),
                            p,
                            dk,
                            dd,
                            number(n, p, "epsilon_per_release", Double.NaN)),
                    ckm(section(n, p, "ckm", CKM_OPTIONS), p, dk, dd),
                    hst(section(n, p, "hst", HST_OPTIONS), p),
                    n.has("public_seed") ? n.get("public_seed").asLong() : id.hashCode(),
                    n.has("initial_centroids")
                            ? points(n.get("initial_centroids"), p + ".initial_centroids")
                            : null,
                    integer(n, p, "salt_buckets", 1),
                    accounting(n, p, number(n, p, "budget_cap", Double.NaN)),
                    running(section(n, p, "running", RUNNING_OPTIONS), p));
        } catch (ConfigException e) {
            throw e.option().startsWith(p + ".") ? e : e.under(p); // read errors name p already
        }
    }

    static final Set<String> STREAM_OPTIONS =
            Set.of(
                    "id",
                    "dimension",
                    "lower",
                    "upper",
                    "k",
                    "window",
                    "epsilon_per_release",
                    "budget_cap",
                    "budget_period",
                    "privacy_unit",
                    "device_contribution_bound",
                    "summaries",
                    "stats",
                    "ckm",
                    "hst",
                    "public_seed",
                    "initial_centroids",
                    "salt_buckets",
                    "accounting",
                    "budget_delta",
                    "lifetime_cap",
                    "rho_per_release",
                    "running");

    /**
     * epsilon_per_release: required under pure accounting; under zcdp optional and unused by the
     * Gaussian releases (their ρ is rho_per_release or the even split), 1 when absent so the budget
     * settings validate.
     */
    private static double epsilonPerRelease(JsonNode n, String p) {
        boolean zcdp = "zcdp".equals(n.path("accounting").asText(""));
        return zcdp && !n.has("epsilon_per_release")
                ? 1.0
                : number(n, p, "epsilon_per_release", Double.NaN);
    }

    static final String[] CKM_OPTIONS = {
        "m", "r", "law", "sigma", "count_fraction", "replicates", "warm_start", "decode_every"
    };

    static final String[] STATS_OPTIONS = {
        "cells", "count_fraction", "update", "publish_cells", "records_hint"
    };

    static final String[] HST_OPTIONS = {"universe", "max_levels", "snap"};

    static final String[] RUNNING_OPTIONS = {"windows", "mode"};

    static final Set<String> JOB_OPTIONS =
            Set.of(
                    "checkpoint_interval",
                    "max_out_of_orderness",
                    "idle_timeout",
                    "bounded_input",
                    "parallelism",
                    "decode_parallelism",
                    "max_lateness",
                    "max_future",
                    "start",
                    "end",
                    "release_clock",
                    "tick_interval");

    /**
     * Every option of a stream, sections as {@code section.option} (the public-specification test
     * enumerates them: each must be pinned across a restore or declared why not).
     */
    static Set<String> streamOptions() {
        Set<String> out = new TreeSet<>(STREAM_OPTIONS);
        out.removeAll(Set.of("stats", "ckm", "hst", "running"));
        for (String o : STATS_OPTIONS) {
            out.add("stats." + o);
        }
        for (String o : CKM_OPTIONS) {
            out.add("ckm." + o);
        }
        for (String o : HST_OPTIONS) {
            out.add("hst." + o);
        }
        for (String o : RUNNING_OPTIONS) {
            out.add("running." + o);
        }
        return out;
    }

    /** Sub-mapping {@code f} of stream {@code p}, checked for unknown options. */
    private static JsonNode section(JsonNode n, String p, String f, String... options) {
        JsonNode s = n.path(f);
        allowOnly(s, p + "." + f, Set.of(options));
        return s;
    }

    /** The summaries list; absent = stats only, a non-list or empty list is refused by the spec. */
    private static List<Summary> summaries(JsonNode sn, String p) {
        if (sn.isMissingNode()) {
            return List.of(Summary.STATS);
        }
        List<Summary> summaries = new ArrayList<>();
        for (int i = 0; sn.isArray() && i < sn.size(); i++) {
            summaries.add(Summary.parse(p + "[" + i + "]", sn.get(i).asText()));
        }
        return summaries;
    }

    /** accounting, budget_delta and lifetime_cap of one stream (see {@link BudgetAccounting}). */
    private static BudgetAccounting accounting(JsonNode n, String p, double cap) {
        String modeText = text(n, p, "accounting", "pure");
        Accounting mode =
                switch (modeText) {
                    case "pure" -> Accounting.PURE;
                    case "zcdp" -> Accounting.ZCDP;
                    default ->
                            throw new ConfigException(
                                    p + ".accounting",
                                    "must be pure or zcdp, was '" + modeText + "'");
                };
        double delta = number(n, p, "budget_delta", Double.NaN);
        if (mode == Accounting.PURE && n.has("budget_delta")) {
            throw new ConfigException(p + ".budget_delta", "applies only to accounting: zcdp");
        }
        if (mode == Accounting.ZCDP && !(delta > 0 && delta < 1)) {
            throw new ConfigException(
                    p + ".budget_delta",
                    "required with accounting: zcdp, must be a number in (0, 1), e.g. 1e-9");
        }
        double lifetime = number(n, p, "lifetime_cap", Double.POSITIVE_INFINITY);
        if (!(lifetime > 0) || (n.has("lifetime_cap") && Double.isInfinite(lifetime))) {
            throw new ConfigException(p + ".lifetime_cap", "must be a finite number > 0");
        }
        if (lifetime < cap) {
            throw new ConfigException(
                    p + ".lifetime_cap", "must be >= budget_cap (" + cap + "), was " + lifetime);
        }
        double rho = number(n, p, "rho_per_release", Double.NaN);
        if (n.has("rho_per_release") && !(mode == Accounting.ZCDP && rho > 0 && rho < 1e6)) {
            throw new ConfigException(
                    p + ".rho_per_release",
                    "applies only to accounting: zcdp, must be a number in (0, 1e6)");
        }
        return new BudgetAccounting(
                mode, mode == Accounting.ZCDP ? delta : Double.NaN, lifetime, rho);
    }

    /**
     * {@code running}: absent = off; {@code windows} is an integer W or {@code period}; {@code
     * mode} is {@code sum} (default) or {@code tree}, whose span is always the period ({@code
     * windows} then optional) ({@link RunningSettings}).
     */
    private static RunningSettings running(JsonNode r, String p) {
        if (r.isMissingNode() || r.isNull()) {
            return RunningSettings.NONE;
        }
        String modeText = text(r, p + ".running", "mode", "sum");
        RunningSettings.Mode mode =
                switch (modeText) {
                    case "sum" -> RunningSettings.Mode.SUM;
                    case "tree" -> RunningSettings.Mode.TREE;
                    default ->
                            throw new ConfigException(
                                    p + ".running.mode",
                                    "must be sum or tree, was '" + modeText + "'");
                };
        if (mode == RunningSettings.Mode.TREE && !r.has("windows")) {
            return new RunningSettings(0, true, mode);
        }
        JsonNode w = required(r, p + ".running", "windows");
        if (w.isTextual() && "period".equals(w.asText())) {
            return new RunningSettings(0, true, mode);
        }
        if (!w.canConvertToInt() || !w.isIntegralNumber() || w.asInt() < 2) {
            throw new ConfigException(
                    p + ".running.windows",
                    "must be an integer >= 2 or period, was '" + w.asText() + "'");
        }
        return new RunningSettings(w.asInt(), false, mode);
    }

    private static UnitSettings unit(JsonNode n, String p) {
        return new UnitSettings(
                PrivacyUnit.parse(text(n, p, "privacy_unit", "record")),
                integer(n, p, "device_contribution_bound", 1));
    }

    /**
     * The stats section. {@code stats.records_hint} (a declared, public expected number of records
     * per window) sets the cells by {@link CellRule#cells} at {@code epsilon_per_release} instead
     * of the default; it excludes {@code stats.cells}.
     */
    private static StatsSettings stats(JsonNode s, String p, int k, int d, double epsilon) {
        String sp = p + ".stats";
        int cells = StatsSettings.defaultCells(k);
        if (s.has("records_hint")) {
            if (s.has("cells")) {
                throw new ConfigException(
                        sp + ".records_hint", "set stats.cells or stats.records_hint, not both");
            }
            int hint = integer(s, sp, "records_hint", 0);
            if (hint < 1) {
                throw new ConfigException(sp + ".records_hint", "must be >= 1, was " + hint);
            }
            if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
                throw new ConfigException(
                        sp + ".records_hint", "needs a finite epsilon_per_release > 0");
            }
            cells = CellRule.cells(k, d, epsilon, hint);
        }
        return new StatsSettings(
                integer(s, sp, "cells", cells),
                number(s, sp, "count_fraction", Double.NaN),
                StatsSettings.update(
                        text(s, sp, "update", DpClusterStatistics.Update.MEAN.wireName())),
                flag(s, sp, "publish_cells"));
    }

    /** An optional boolean option (false when absent). */
    private static boolean flag(JsonNode n, String p, String f) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new ConfigException(
                    p + "." + f, "must be true or false, was '" + v.asText() + "'");
        }
        return v.asBoolean();
    }

    private static CkmSettings ckm(JsonNode c, String p, int k, int d) {
        String cp = p + ".ckm";
        int m = integer(c, cp, "m", FrequencyMatrix.defaultSize(k, d));
        return new CkmSettings(
                m,
                integer(c, cp, "r", m),
                text(c, cp, "law", "gaussian"),
                number(c, cp, "sigma", FrequencyMatrix.defaultSigma(k, d)),
                number(c, cp, "count_fraction", Double.NaN),
                integer(c, cp, "replicates", 3),
                bool(c, cp, "warm_start", false),
                integer(c, cp, "decode_every", 1));
    }

    private static HstSettings hst(JsonNode h, String p) {
        String hp = p + ".hst";
        return new HstSettings(
                integer(h, hp, "universe", HstSettings.DEFAULT.universe()),
                integer(h, hp, "max_levels", HstSettings.DEFAULT.maxLevels()),
                text(h, hp, "snap", HstSettings.DEFAULT.snap()));
    }

    static void allowOnly(JsonNode n, String path, Set<String> allowed) {
        if (n.isMissingNode() || n.isNull()) {
            return;
        }
        if (!n.isObject()) {
            throw new ConfigException(path.isEmpty() ? "(file)" : path, "expected a mapping");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new ConfigException(
                        path.isEmpty() ? f : path + "." + f,
                        "unknown option (known here: "
                                + String.join(", ", new TreeSet<>(allowed))
                                + ")");
            }
        }
    }

    private static JsonNode required(JsonNode n, String p, String f) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            throw new ConfigException(p + "." + f, "required");
        }
        return v;
    }

    private static boolean bool(JsonNode n, String p, String f, boolean dflt) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw new ConfigException(p + "." + f, "must be true or false");
        }
        return v.asBoolean();
    }

    private static String text(JsonNode n, String p, String f, String dflt) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw new ConfigException(p + "." + f, "must be a non-empty string");
        }
        return v.asText();
    }

    private static int integer(JsonNode n, String p, String f, int dflt) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ConfigException(p + "." + f, "must be an integer, was '" + v.asText() + "'");
        }
        return v.asInt();
    }

    private static double number(JsonNode n, String p, String f, double dflt) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        if (!v.isNumber()) {
            throw new ConfigException(p + "." + f, "must be a number, was '" + v.asText() + "'");
        }
        return v.asDouble();
    }

    private static Duration duration(JsonNode n, String p, String f, Duration dflt) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            if (dflt == null) {
                throw new ConfigException(
                        p + "." + f, "required (ISO-8601 duration such as PT10S)");
            }
            return dflt;
        }
        try {
            return Duration.parse(v.asText());
        } catch (DateTimeParseException e) {
            throw new ConfigException(
                    p + "." + f,
                    "not an ISO-8601 duration (e.g. PT10S, PT1M, P1D): '" + v.asText() + "'");
        }
    }

    private static Duration positive(String option, Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new ConfigException(option, "must be positive, was " + d);
        }
        return d;
    }

    /**
     * The numbers of list {@code v}. A non-list reads as an empty list, which the spec refuses
     * naming the expected length; finiteness is the spec's to check.
     */
    private static double[] vector(JsonNode v, String p) {
        double[] out = new double[v.isArray() ? v.size() : 0];
        for (int j = 0; j < out.length; j++) {
            JsonNode x = v.get(j);
            if (!x.isNumber()) {
                throw new ConfigException(p + "[" + j + "]", "must be a finite number");
            }
            out[j] = x.asDouble();
        }
        return out;
    }

    /** The points of list {@code v} (a non-list reads as no points, which the spec refuses). */
    private static double[][] points(JsonNode v, String p) {
        double[][] out = new double[v.isArray() ? v.size() : 0][];
        for (int i = 0; i < out.length; i++) {
            out[i] = vector(v.get(i), p + "[" + i + "]");
        }
        return out;
    }
}
