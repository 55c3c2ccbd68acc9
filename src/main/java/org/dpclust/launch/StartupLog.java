package org.dpclust.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestOptions;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.JobSettings;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.config.TopicFormats;
import org.slf4j.Logger;

/**
 * What a job logs at start-up, so that a person can follow it: the resolved configuration (Kafka,
 * topics, job settings, each stream's windows and budget), where the secret comes from (never the
 * secret itself: it is not part of {@link DpclustConfig}), and the Flink web UI when the job is
 * submitted to a cluster. Only formats and logs; every value is public configuration, except the
 * Kafka client properties, of which only the keys are logged (and the values of {@code
 * security.protocol} and {@code sasl.mechanism}: {@link
 * org.dpclust.config.KafkaConnection#describe()}).
 */
public final class StartupLog {
    private StartupLog() {}

    /** Logs the resolved configuration at INFO, one line per topic group and per stream. */
    public static void configuration(Logger log, DpclustConfig cfg, String secretSource) {
        KafkaSettings k = cfg.kafka();
        log.info(kafka(k));
        log.info(topics(k));
        log.info(formats(cfg.formats()));
        JobSettings j = cfg.job();
        log.info(job(j));
        streams(cfg.streams()).forEach(log::info);
        log.info("privacy secret: {} (never logged)", secretSource);
        warnings(cfg).forEach(log::warn);
    }

    /** The job line: checkpoints, the time rules' lag, what moves time, parallelism, input. */
    static String job(JobSettings j) {
        String clock =
                j.ticks()
                        ? "release clock: a tick every " + j.tickInterval()
                        : j.boundedInput()
                                ? "bounded: the end of input releases, idle timeout "
                                        + j.idleTimeout()
                                : "release_clock records: releases wait for records, idle timeout "
                                        + j.idleTimeout();
        return "job: checkpoint every "
                + j.checkpointInterval()
                + ", max out-of-orderness "
                + j.maxOutOfOrderness()
                + ", "
                + clock
                + ", parallelism "
                + (j.parallelism() > 0 ? Integer.toString(j.parallelism()) : "default")
                + ", "
                + (j.boundedInput() ? "bounded" : "unbounded")
                + " input";
    }

    /** Ids named in one grouped stream line before "…". */
    static final int IDS_SHOWN = 5;

    /**
     * One line per distinct set of public parameters, in configuration order: a stream alone as
     * {@link #stream}, streams sharing every parameter but the id (a fleet's stream set) as one
     * line naming how many and the first and last ids, so 10,000 streams log a handful of lines.
     */
    static List<String> streams(List<StreamSpec> streams) {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        for (StreamSpec s : streams) {
            String line = stream(s);
            String parameters = line.substring(("stream " + s.id()).length());
            ids.computeIfAbsent(parameters, k -> new ArrayList<>()).add(s.id());
        }
        List<String> out = new ArrayList<>();
        ids.forEach(
                (parameters, group) -> {
                    if (group.size() == 1) {
                        out.add("stream " + group.get(0) + parameters);
                    } else {
                        String named =
                                group.size() <= IDS_SHOWN
                                        ? String.join(", ", group)
                                        : String.join(", ", group.subList(0, IDS_SHOWN - 1))
                                                + ", …, "
                                                + group.get(group.size() - 1);
                        out.add(group.size() + " streams " + named + parameters);
                    }
                });
        return out;
    }

    /** ε per release above which a stream's releases protect next to nothing (e^ε > 22,000). */
    public static final double LARGE_EPSILON = 10;

    /** Configuration that is valid but protects next to nothing, as WARN lines. */
    static List<String> warnings(DpclustConfig cfg) {
        List<String> out = new ArrayList<>();
        for (StreamSpec s : cfg.streams()) {
            String w =
                    s.zcdp()
                            ? null // no epsilon_per_release: its releases spend rho
                            : epsilonWarning(
                                    "stream " + s.id() + ": epsilon_per_release",
                                    s.epsilonPerRelease());
            if (w != null) {
                out.add(w);
            }
        }
        return out;
    }

    /**
     * The WARN line for an ε above {@link #LARGE_EPSILON} (valid, but it protects next to nothing),
     * or null; {@code what} names the setting (e.g. {@code --epsilon}).
     */
    public static String epsilonWarning(String what, double epsilon) {
        return epsilon > LARGE_EPSILON
                ? what
                        + " "
                        + epsilon
                        + " is above "
                        + LARGE_EPSILON
                        + ": its releases protect next to nothing"
                : null;
    }

    /** The WARN line for a secret that is evidently not random, or null. */
    public static String secretWarning(org.dpclust.privacy.PrivacySecret secret, String source) {
        return secret.evidentlyNotRandom()
                ? "privacy secret from "
                        + source
                        + " is evidently not random (a repeated byte pattern): anyone can predict"
                        + " the noise; use openssl rand -hex 32"
                : null;
    }

    /**
     * The Kafka connection: servers, group, transactional ids, and the client properties by key
     * only ({@link org.dpclust.config.KafkaConnection#describe()}: their values may be secrets).
     */
    static String kafka(KafkaSettings k) {
        return "kafka: bootstrap servers "
                + k.bootstrapServers()
                + ", consumer group "
                + k.groupId()
                + ", transactional ids "
                + k.transactionalIdPrefix()
                + "-*, transaction timeout "
                + k.transactionTimeout()
                + ", starting offsets "
                + k.startingOffsets()
                + ", client properties "
                + k.connection().describe();
    }

    /** One line naming every topic dpclust reads or writes. */
    public static String topics(KafkaSettings k) {
        return "topics: input "
                + k.inputTopic()
                + ", centroids "
                + k.centroidsTopic()
                + ", sketches "
                + k.sketchesTopic()
                + ", cells "
                + k.cellsTopic()
                + ", running "
                + k.runningTopic()
                + ", budget "
                + k.budgetTopic()
                + " (compacted ledger), dead letters "
                + k.dlqTopic();
    }

    /** One line naming the value format of every published topic (docs/wire-format.md). */
    static String formats(TopicFormats f) {
        return "formats: centroids "
                + f.centroids().wireName()
                + ", sketches "
                + f.sketches().wireName()
                + ", dead letters "
                + f.dlq().wireName()
                + ", budget avro (the ledger's log)";
    }

    /** One stream's public settings: domain, k, event-time windows, privacy budget. */
    static String stream(StreamSpec s) {
        String unit =
                s.privacyUnit() == PrivacyUnit.DEVICE
                        ? "device (at most " + s.contributionBound() + " records per window)"
                        : "record";
        return "stream "
                + s.id()
                + ": d="
                + s.dimension()
                + ", domain "
                + Arrays.toString(s.lower())
                + ".."
                + Arrays.toString(s.upper())
                + ", k="
                + s.k()
                + ", tumbling event-time windows of "
                + s.window()
                + ", summaries "
                + s.summaries().stream().map(Summary::wireName).collect(Collectors.joining(","))
                + ", "
                + s.releaseBudget()
                + " per release, cap "
                + s.cap()
                + " per "
                + s.budgetPeriod()
                + accountingText(s)
                + ", privacy unit "
                + unit;
    }

    /** " (zcdp at delta 1.0E-9, lifetime cap 100.0)" or "" for pure without a lifetime cap. */
    private static String accountingText(StreamSpec s) {
        var a = s.accounting();
        if (a == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        if (a.mode() == org.dpclust.privacy.Accounting.ZCDP) {
            b.append("zcdp at delta ").append(a.delta());
        }
        if (Double.isFinite(a.lifetimeCap())) {
            b.append(b.length() > 0 ? ", " : "").append("lifetime cap ").append(a.lifetimeCap());
        }
        return b.length() == 0 ? "" : " (" + b + ")";
    }

    /**
     * Logs where the Flink web UI is when the job goes to a remote cluster ({@code flink run}); a
     * local MiniCluster logs its own address when it starts ("Web frontend listening at ...").
     */
    public static void flinkWebUi(Logger log, ReadableConfig flink) {
        if ("remote".equals(flink.get(DeploymentOptions.TARGET))) {
            flink.getOptional(RestOptions.ADDRESS)
                    .ifPresent(
                            host ->
                                    log.info(
                                            "Flink web UI: http://{}:{}",
                                            host,
                                            flink.get(RestOptions.PORT)));
        }
    }
}
