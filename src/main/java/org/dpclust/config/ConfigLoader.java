package org.dpclust.config;

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
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.dpclust.kmeans.DpClusterStatistics;
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

    public static DpclustConfig load(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read configuration " + file + ": " + e.getMessage(), e);
        }
    }

    public static DpclustConfig parse(String yaml) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (IOException e) {
            throw new ConfigException(
                    "(file)", "not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException("(file)", "expected a mapping with keys kafka, job, streams");
        }
        allowOnly(root, "", Set.of("kafka", "job", "streams"));
        KafkaSettings kafka = kafka(root.path("kafka"));
        JobSettings job = job(root.path("job"));
        JsonNode streams = root.path("streams");
        if (!streams.isArray() || streams.isEmpty()) {
            throw new ConfigException("streams", "at least one stream must be declared");
        }
        List<StreamSpec> specs = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < streams.size(); i++) {
            StreamSpec spec = stream(streams.get(i), "streams[" + i + "]");
            if (!ids.add(spec.id())) {
                throw new ConfigException(
                        "streams[" + i + "].id", "duplicate stream id '" + spec.id() + "'");
            }
            specs.add(spec);
        }
        return new DpclustConfig(kafka, job, List.copyOf(specs));
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
                        "starting_offsets"));
        JsonNode t = n.path("topics");
        allowOnly(t, p + ".topics", Set.of("input", "centroids", "sketches", "budget", "dlq"));
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
                text(t, p + ".topics", "budget", KafkaSettings.DEFAULT_BUDGET),
                text(t, p + ".topics", "dlq", KafkaSettings.DEFAULT_DLQ),
                text(n, p, "group_id", "dpclust"),
                text(n, p, "transactional_id_prefix", "dpclust"),
                txTimeout,
                offsets);
    }

    private static JobSettings job(JsonNode n) {
        String p = "job";
        allowOnly(
                n,
                p,
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
                        "end"));
        Duration checkpoint =
                positive(
                        p + ".checkpoint_interval",
                        duration(n, p, "checkpoint_interval", Duration.ofSeconds(10)));
        Duration ooo = duration(n, p, "max_out_of_orderness", Duration.ofSeconds(2));
        if (ooo.isNegative()) {
            throw new ConfigException(p + ".max_out_of_orderness", "must not be negative");
        }
        Duration idle =
                positive(
                        p + ".idle_timeout",
                        duration(n, p, "idle_timeout", Duration.ofSeconds(30)));
        int parallelism = integer(n, p, "parallelism", 0);
        if (parallelism < 0) {
            throw new ConfigException(p + ".parallelism", "must be >= 0 (0 = Flink default)");
        }
        int decodeParallelism = integer(n, p, "decode_parallelism", 0);
        if (decodeParallelism < 0) {
            throw new ConfigException(
                    p + ".decode_parallelism", "must be >= 0 (0 = the job parallelism)");
        }
        boolean bounded = n.path("bounded_input").asBoolean(false);
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
                end);
    }

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
     * Upper limit of a stream's salt_buckets (sub-keys beyond the cluster's parallelism do not
     * help).
     */
    public static final int MAX_SALT_BUCKETS = 1024;

    static StreamSpec stream(JsonNode n, String p) {
        if (!n.isObject()) {
            throw new ConfigException(p, "expected a mapping");
        }
        allowOnly(
                n,
                p,
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
                        "salt_buckets"));
        String id = required(n, p, "id").asText();
        if (id.isBlank() || id.contains("|")) {
            throw new ConfigException(p + ".id", "must be non-blank and must not contain '|'");
        }
        int d = integer(n, p, "dimension", -1);
        if (d < 1) {
            throw new ConfigException(p + ".dimension", "required, must be >= 1");
        }
        double[] lower = vector(required(n, p, "lower"), p + ".lower", d);
        double[] upper = vector(required(n, p, "upper"), p + ".upper", d);
        for (int j = 0; j < d; j++) {
            if (!(upper[j] > lower[j])) {
                throw new ConfigException(
                        p + ".upper[" + j + "]",
                        "must be greater than lower[" + j + "] = " + lower[j]);
            }
        }
        int k = integer(n, p, "k", -1);
        if (k < 1) {
            throw new ConfigException(p + ".k", "required, must be >= 1");
        }
        Duration window = positive(p + ".window", duration(n, p, "window", null));
        double eps = number(n, p, "epsilon_per_release", Double.NaN);
        if (!(eps > 0) || Double.isInfinite(eps)) {
            throw new ConfigException(
                    p + ".epsilon_per_release", "required, must be a finite number > 0");
        }
        double cap = number(n, p, "budget_cap", Double.NaN);
        if (!(cap > 0) || Double.isInfinite(cap)) {
            throw new ConfigException(p + ".budget_cap", "required, must be a finite number > 0");
        }
        Duration period =
                positive(p + ".budget_period", duration(n, p, "budget_period", Duration.ofDays(1)));
        if (period.toMillis() % window.toMillis() != 0) {
            throw new ConfigException(
                    p + ".budget_period", "must be a whole number of windows (" + window + ")");
        }
        String unitText = text(n, p, "privacy_unit", "record");
        PrivacyUnit unit =
                switch (unitText) {
                    case "record" -> PrivacyUnit.RECORD;
                    case "device" -> PrivacyUnit.DEVICE;
                    default ->
                            throw new ConfigException(
                                    p + ".privacy_unit",
                                    "must be record or device, was '" + unitText + "'");
                };
        int c = integer(n, p, "device_contribution_bound", 1);
        if (c < 1) {
            throw new ConfigException(p + ".device_contribution_bound", "must be >= 1");
        }
        if (unit == PrivacyUnit.RECORD && n.has("device_contribution_bound") && c != 1) {
            throw new ConfigException(
                    p + ".device_contribution_bound", "applies only to privacy_unit: device");
        }
        List<Summary> summaries = new ArrayList<>();
        JsonNode sn = n.path("summaries");
        if (sn.isMissingNode()) {
            summaries.add(Summary.STATS);
        } else if (!sn.isArray() || sn.isEmpty()) {
            throw new ConfigException(p + ".summaries", "must be a non-empty list");
        } else {
            for (int i = 0; i < sn.size(); i++) {
                Summary s = Summary.parse(p + ".summaries[" + i + "]", sn.get(i).asText());
                if (!summaries.contains(s)) {
                    summaries.add(s);
                }
            }
            summaries.sort(null);
        }
        JsonNode stats = n.path("stats");
        allowOnly(stats, p + ".stats", Set.of("cells", "count_fraction", "update"));
        int cells = integer(stats, p + ".stats", "cells", Math.max(64, 16 * k));
        if (cells < k) {
            throw new ConfigException(p + ".stats.cells", "must be >= k (" + k + ")");
        }
        double countFraction = number(stats, p + ".stats", "count_fraction", Double.NaN);
        if (stats.has("count_fraction") && !(countFraction > 0 && countFraction < 1)) {
            throw new ConfigException(p + ".stats.count_fraction", "must be in (0, 1)");
        }
        String updateText =
                text(stats, p + ".stats", "update", DpClusterStatistics.Update.MEAN.wireName());
        DpClusterStatistics.Update update =
                Arrays.stream(DpClusterStatistics.Update.values())
                        .filter(u -> u.wireName().equals(updateText))
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new ConfigException(
                                                p + ".stats.update",
                                                "must be mean or expdp-zone, was '"
                                                        + updateText
                                                        + "'"));
        JsonNode ck = n.path("ckm");
        allowOnly(ck, p + ".ckm", Set.of("m", "r", "law", "sigma", "count_fraction", "replicates"));
        int m = integer(ck, p + ".ckm", "m", FrequencyMatrix.defaultSize(k, d));
        if (m < 1 || m > 1 << 16) {
            throw new ConfigException(p + ".ckm.m", "must be in [1, 65536], was " + m);
        }
        int r = integer(ck, p + ".ckm", "r", m);
        if (r < 1 || r > m) {
            throw new ConfigException(p + ".ckm.r", "must be in [1, m = " + m + "], was " + r);
        }
        String law = text(ck, p + ".ckm", "law", "gaussian");
        if (!law.equals("gaussian") && !law.equals("adapted-radius")) {
            throw new ConfigException(
                    p + ".ckm.law", "must be gaussian or adapted-radius, was '" + law + "'");
        }
        double sigma = number(ck, p + ".ckm", "sigma", FrequencyMatrix.defaultSigma(k, d));
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new ConfigException(p + ".ckm.sigma", "must be a finite number > 0");
        }
        double ckmCount = number(ck, p + ".ckm", "count_fraction", Double.NaN);
        if (ck.has("count_fraction") && !(ckmCount > 0 && ckmCount < 1)) {
            throw new ConfigException(p + ".ckm.count_fraction", "must be in (0, 1)");
        }
        int replicates = integer(ck, p + ".ckm", "replicates", 3);
        if (replicates < 1) {
            throw new ConfigException(p + ".ckm.replicates", "must be >= 1");
        }
        CkmSettings ckm = new CkmSettings(m, r, law, sigma, ckmCount, replicates);
        JsonNode hst = n.path("hst");
        allowOnly(hst, p + ".hst", Set.of("universe", "max_levels"));
        int universe = integer(hst, p + ".hst", "universe", 4096);
        if (universe < k || universe > 1 << 20) {
            throw new ConfigException(p + ".hst.universe", "must be in [k, 2^20], was " + universe);
        }
        int maxLevels = integer(hst, p + ".hst", "max_levels", 12);
        if (maxLevels < 1 || maxLevels > 60) {
            throw new ConfigException(p + ".hst.max_levels", "must be in 1..60, was " + maxLevels);
        }
        long seed = n.has("public_seed") ? n.get("public_seed").asLong() : id.hashCode();
        double[][] init = null;
        if (n.has("initial_centroids")) {
            JsonNode in = n.get("initial_centroids");
            if (!in.isArray() || in.size() != k) {
                throw new ConfigException(
                        p + ".initial_centroids", "must be a list of k = " + k + " points");
            }
            init = new double[k][];
            for (int i = 0; i < k; i++) {
                init[i] = vector(in.get(i), p + ".initial_centroids[" + i + "]", d);
            }
        }
        int salt = integer(n, p, "salt_buckets", 1);
        if (salt < 1 || salt > MAX_SALT_BUCKETS) {
            throw new ConfigException(
                    p + ".salt_buckets", "must be in [1, " + MAX_SALT_BUCKETS + "], was " + salt);
        }
        if (salt > 1 && unit == PrivacyUnit.DEVICE) {
            throw new ConfigException(
                    p + ".salt_buckets",
                    "applies only to privacy_unit: record (device "
                            + "contribution bounding needs all of a device's records of a window in one place)");
        }
        return new StreamSpec(
                id,
                d,
                lower,
                upper,
                k,
                window,
                eps,
                cap,
                period,
                unit,
                unit == PrivacyUnit.DEVICE ? c : 1,
                List.copyOf(summaries),
                cells,
                countFraction,
                update,
                ckm,
                universe,
                maxLevels,
                seed,
                init,
                salt);
    }

    private static void allowOnly(JsonNode n, String path, Set<String> allowed) {
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

    private static double[] vector(JsonNode v, String p, int d) {
        if (!v.isArray() || v.size() != d) {
            throw new ConfigException(p, "must be a list of " + d + " numbers");
        }
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            JsonNode x = v.get(j);
            if (!x.isNumber() || !Double.isFinite(x.asDouble())) {
                throw new ConfigException(p + "[" + j + "]", "must be a finite number");
            }
            out[j] = x.asDouble();
        }
        return out;
    }
}
