package org.dpclust.launch;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.ConfigException;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.ledger.LedgerScan;
import org.dpclust.ledger.LedgerSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dpclust stream}: runs the streaming job (also the {@code flink run} entry point). */
@Command(
        name = "stream",
        mixinStandardHelpOptions = true,
        description = "Run the streaming job: Kafka telemetry -> DP centroids per window -> Kafka.")
public final class StreamCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(StreamCommand.class);

    @Mixin ConfigOption config;

    @Mixin BootstrapServersOption kafka;

    @Mixin SecretFileOption secretFile;

    @Option(
            names = "--start",
            description =
                    "Overrides job.start: the public instant the release schedule starts at"
                            + " (ISO-8601, e.g. 2026-12-01T00:00:00Z).")
    Instant start;

    @Option(
            names = "--create-topics",
            description = "Create missing topics (budget topic compacted) before starting.")
    boolean createTopics;

    @Option(
            names = "--budget-partitions",
            paramLabel = "N",
            description =
                    "Partitions of the budget topic when --create-topics creates it (default 1;"
                            + " one stream's ledger lives on one partition, so many streams"
                            + " spread over N; never change it after the first charge).")
    int budgetPartitions = 1;

    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            description =
                    "When the job runs in this JVM: serve its metrics (records, rejections by"
                            + " reason, releases, budget per stream) in the Prometheus text format"
                            + " at /metrics on PORT (Flink's reporter; listens on every interface)."
                            + " On a cluster, configure the reporter (docs/deploy.md).")
    int metricsPort;

    /**
     * The entry point of target/dpclust-job.jar for {@code flink run}: {@code dpclust stream ARGS},
     * with the CLI's one-line error handling (only this command is loaded: the job jar carries
     * neither JMH nor the report libraries other commands use). It exits the JVM only on failure:
     * in application mode {@code main} runs inside the JobManager, which must shut down through
     * Flink (HA clean-up, the job's final status for the Kubernetes operator), not by an exit(0).
     */
    public static void main(String[] args) {
        StreamCommand command = new StreamCommand();
        int code = UserErrors.install(new CommandLine(command)).execute(args);
        if (code != 0 || command.ranInThisJvm) {
            System.exit(code);
        }
    }

    /** Set when the job ran on a MiniCluster in this JVM (not submitted by {@code flink run}). */
    private boolean ranInThisJvm;

    @Override
    public Integer call() throws Exception {
        if (budgetPartitions < 1 || budgetPartitions > 10_000) {
            throw new ConfigException("--budget-partitions", "must be between 1 and 10000");
        }
        if (metricsPort != 0) {
            PrometheusEndpoint.require("--metrics-port", metricsPort);
        }
        DpclustConfig cfg = config.load(kafka);
        if (start != null) {
            cfg = cfg.withJob(cfg.job().withSchedule(start, cfg.job().end()));
            if (cfg.job().end() != null && !cfg.job().end().isAfter(start)) {
                throw new ConfigException("job.end", "must be after --start (" + start + ")");
            }
        }
        cfg.job().requireStreamingSchedule();
        SecretSource secret = secretFile.source();
        // fails here, at start-up, naming the option; operators load it again
        String weak = StartupLog.secretWarning(secret.load(), secretFile.describe());
        // before anything is logged: an unreachable broker or refused credentials is one line
        BrokerCheck.require(
                kafka.optionName(), cfg.kafka().connection(), kafka.propertiesOptionName());
        StartupLog.configuration(LOG, cfg, secretFile.describe());
        if (weak != null) {
            LOG.warn(weak);
        }
        if (createTopics) {
            TopicAdmin.ensureTopics(cfg, 1, budgetPartitions);
        }
        TopicAdmin.requireLogAppendTime(cfg);
        // the budget topic must be compacted and hold every stream's ledger history intact; the
        // public schedule of a stream without state resumes after its last charged interval
        Map<String, Long> charged =
                LedgerScan.lastChargedEnds(
                        LedgerSettings.of(cfg.kafka()),
                        cfg.streams().stream().map(StreamSpec::id).toList(),
                        StreamingJob.LEDGER_READ_TIMEOUT);
        StreamExecutionEnvironment env = environment();
        StartupLog.flinkWebUi(LOG, env.getConfiguration());
        StreamingJob job = StreamingJob.fromKafka(cfg, secret, charged);
        if (!(env instanceof LocalStreamEnvironment)) {
            job.execute(env); // flink run: the cluster owns the job's life
            return 0;
        }
        return runInThisJvm(job, env, cfg);
    }

    /**
     * The execution environment: the cluster's under {@code flink run}, else a MiniCluster in this
     * JVM, with the Prometheus reporter when {@code --metrics-port} is given (refused on a cluster,
     * whose reporters are the cluster's configuration).
     */
    private StreamExecutionEnvironment environment() {
        if (metricsPort == 0) {
            return StreamExecutionEnvironment.getExecutionEnvironment();
        }
        Configuration flink = new Configuration();
        PrometheusEndpoint.configure(flink, metricsPort);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        if (!(env instanceof LocalStreamEnvironment)) {
            throw new ConfigException(
                    "--metrics-port",
                    "serves the metrics of a job run in this JVM; under flink run the cluster's"
                            + " metric reporters apply (docs/deploy.md)");
        }
        LOG.info("metrics: http://127.0.0.1:{}/metrics (Prometheus text format)", metricsPort);
        return env;
    }

    /**
     * The job on a MiniCluster in this JVM until it ends or SIGTERM/SIGINT stops it cleanly (with a
     * savepoint, so no Kafka transaction is left open): exit 0 after a clean stop, 1 if the job
     * failed.
     */
    private int runInThisJvm(StreamingJob job, StreamExecutionEnvironment env, DpclustConfig cfg)
            throws Exception {
        ranInThisJvm = true;
        CleanStop stop = CleanStop.onSignals(LOG);
        try (BrokerWatch watch =
                BrokerWatch.start(
                        cfg.kafka().connection(), Duration.ofSeconds(5), LOG::warn, LOG::info)) {
            JobClient client = job.executeAsync(env);
            LOG.info(
                    "streaming job {} running in this JVM (a Flink MiniCluster); SIGTERM or Ctrl-C"
                            + " stops it cleanly",
                    client.getJobID());
            // completes when the job ends (a bounded input read to its end, or a failure)
            var result = client.getJobExecutionResult();
            while (!stop.await(Duration.ofSeconds(1))) {
                if (result.isDone()) {
                    try {
                        result.get();
                        return 0;
                    } catch (java.util.concurrent.ExecutionException e) {
                        throw e.getCause() instanceof Exception c ? c : e;
                    }
                }
            }
            LOG.info("stopping ({} received) ...", stop.signal());
            CleanStop.stopJob(client, LOG);
            LOG.info("stopped cleanly");
            return 0;
        } finally {
            stop.restore();
        }
    }
}
