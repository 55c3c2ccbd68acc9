package org.dpclust.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaConnection;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.SecretSource;
import org.dpclust.dashboard.DashboardServer;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.jobs.LocalCluster;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.launch.CleanStop;
import org.dpclust.launch.ConfigOption;
import org.dpclust.launch.PrometheusEndpoint;
import org.dpclust.launch.SecretFileOption;
import org.dpclust.launch.StartupLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpclust local}: the whole stack on one machine without Docker. Starts a real Kafka broker
 * (KRaft, in this JVM) on {@code 127.0.0.1:--port}, creates dpclust's topics (the budget topic
 * compacted) and runs until SIGINT (Ctrl-C) or SIGTERM; with flags it also runs the streaming job
 * in a Flink MiniCluster, a synthetic telemetry generator and the dashboard against that broker.
 *
 * <p>On SIGINT or SIGTERM (handled the same way, so that the JVM does not start its shutdown under
 * us) it stops, logging each step: the generator; the job with a savepoint, so that the Kafka
 * transactions of its last checkpoint are committed and the open one is aborted (a plain cancel if
 * the savepoint fails); the dashboard; the broker, which frees the port. It then exits 0 (1 if a
 * step failed or the job failed by itself). A second signal exits at once with 130.
 */
@Command(
        name = "local",
        mixinStandardHelpOptions = true,
        description =
                "Run a Kafka broker (KRaft) on 127.0.0.1 with dpclust's topics until Ctrl-C;"
                        + " optionally also the streaming job (Flink MiniCluster), a telemetry"
                        + " generator and the dashboard against it.")
public final class LocalCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(LocalCommand.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "9092",
            description = "Broker port on 127.0.0.1 (default ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description =
                    "Directory for the broker's data, kept across runs (default: a temporary"
                            + " directory deleted on exit).")
    Path dataDir;

    /**
     * Topics and streams; its bootstrap servers are replaced by this broker's. Needed by --with-job
     * and --with-generator (example: flink-conf/dpclust-local.yaml).
     */
    @Mixin ConfigOption config;

    /** The job's secret (default: env DPCLUST_SECRET, else a fresh random secret for this run). */
    @Mixin SecretFileOption secretFile;

    @Option(
            names = "--with-job",
            description = "Also run the streaming job in a Flink MiniCluster (needs --config).")
    boolean withJob;

    @Option(
            names = "--flink-port",
            paramLabel = "PORT",
            defaultValue = "8081",
            description =
                    "Port of the job's Flink web UI on 127.0.0.1; 0 picks a free one (default"
                            + " ${DEFAULT-VALUE}).")
    int flinkPort;

    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            defaultValue = "0",
            description =
                    "Serve the job's metrics (records, rejections by reason, releases, budget per"
                            + " stream) in the Prometheus text format at /metrics on PORT (Flink's"
                            + " reporter listens on every interface; 0 = off, the default).")
    int metricsPort;

    @Option(
            names = "--with-generator",
            description =
                    "Also write synthetic telemetry for the configured streams to the input topic"
                            + " once (needs --config).")
    boolean withGenerator;

    @Option(
            names = "--windows",
            paramLabel = "N",
            defaultValue = "10",
            description = "Generator: windows per stream (default ${DEFAULT-VALUE}).")
    int windows;

    @Option(
            names = "--records-per-window",
            paramLabel = "N",
            defaultValue = "20000",
            description = "Generator: records per stream and window (default ${DEFAULT-VALUE}).")
    int recordsPerWindow;

    @Option(
            names = "--malformed-per-window",
            paramLabel = "N",
            defaultValue = "4",
            description =
                    "Generator: malformed records per stream and window (default"
                            + " ${DEFAULT-VALUE}).")
    int malformedPerWindow;

    @Option(
            names = "--start",
            paramLabel = "TIME",
            description =
                    "Generator: write every window at once with event times from TIME (ISO-8601),"
                            + " for a job whose job.max_lateness covers them; by default each"
                            + " window is written at its wall-clock start (generate --realtime),"
                            + " which a live job counts (docs/event-time.md).")
    Instant start;

    @Option(names = "--with-dashboard", description = "Also serve the dashboard on 127.0.0.1.")
    boolean withDashboard;

    @Option(
            names = "--dashboard-port",
            paramLabel = "PORT",
            defaultValue = "8080",
            description = "Dashboard port; 0 picks a free one (default ${DEFAULT-VALUE}).")
    int dashboardPort;

    private CleanStop stop;

    @Override
    public Integer call() throws Exception {
        validate();
        DpclustConfig cfg = config.given() ? ConfigLoader.load(config.path()) : null;
        stop = CleanStop.onSignals(LOG);
        EmbeddedKafka broker = null;
        DashboardServer dashboard = null;
        JobClient job = null;
        Generator generator = null;
        int exit = 0;
        try {
            LOG.info(
                    "starting a Kafka broker (KRaft) on 127.0.0.1:{}, data in {} ...",
                    port,
                    dataDir == null
                            ? "a temporary directory (deleted on exit)"
                            : dataDir.toAbsolutePath());
            broker = EmbeddedKafka.start(port, dataDir);
            String bootstrap = broker.bootstrapServers();
            // the in-process broker is PLAINTEXT: the configuration's client properties (security,
            // SASL, TLS) are for the real cluster, not for it
            KafkaSettings kafka =
                    (cfg == null ? defaultKafka() : cfg.kafka())
                            .withConnection(KafkaConnection.plaintext(bootstrap));
            TopicAdmin.ensureTopics(kafka, 1);
            LOG.info("Kafka broker ready at {}; {}", bootstrap, StartupLog.topics(kafka));
            if (withDashboard && !stopping()) {
                dashboard =
                        new DashboardServer(
                                        KafkaConnection.plaintext(bootstrap),
                                        kafka.centroidsTopic(),
                                        kafka.budgetTopic(),
                                        kafka.dlqTopic(),
                                        dashboardPort)
                                .start();
                LOG.info("dashboard: {}", dashboard.url());
            }
            if (withJob && !stopping()) {
                job = startJob(cfg.withKafka(kafka));
            }
            if (withGenerator && !stopping()) {
                generator = new Generator(cfg.withKafka(kafka));
                generator.start();
            }
            LOG.info(
                    "running; in another terminal: java -jar target/dpclust.jar consume"
                            + " --bootstrap-servers {} --follow   (Ctrl-C here stops everything)",
                    bootstrap);
            while (!stop.await(Duration.ofSeconds(1))) {
                if (job != null && job.getJobStatus().get().isGloballyTerminalState()) {
                    LOG.error(
                            "the streaming job ended by itself ({}): {}",
                            job.getJobStatus().get(),
                            failure(job));
                    exit = 1;
                    break;
                }
            }
        } finally {
            exit = Math.max(exit, shutDown(generator, job, dashboard, broker));
        }
        return exit;
    }

    private void validate() {
        requirePort("--port", port, false);
        requirePort("--flink-port", flinkPort, true);
        requirePort("--dashboard-port", dashboardPort, true);
        requirePort("--metrics-port", metricsPort, true);
        if (metricsPort > 0 && !withJob) {
            throw new IllegalArgumentException(
                    "--metrics-port serves the job's metrics: add --with-job");
        }
        if ((withJob || withGenerator) && !config.given()) {
            throw new IllegalArgumentException(
                    "--with-job and --with-generator need --config (for example --config"
                            + " flink-conf/dpclust-local.yaml)");
        }
        if (withGenerator && (windows < 1 || recordsPerWindow < 1 || malformedPerWindow < 0)) {
            throw new IllegalArgumentException(
                    "--windows and --records-per-window must be at least 1,"
                            + " --malformed-per-window at least 0");
        }
        requireFree("--port", port);
        if (withJob) {
            requireFree("--flink-port", flinkPort);
        }
        if (withDashboard) {
            requireFree("--dashboard-port", dashboardPort);
        }
        if (metricsPort > 0) {
            PrometheusEndpoint.require("--metrics-port", metricsPort);
        }
    }

    private static void requirePort(String option, int value, boolean zeroAllowed) {
        if (value < (zeroAllowed ? 0 : 1) || value > 65535) {
            throw new IllegalArgumentException(
                    option + " must be in " + (zeroAllowed ? 0 : 1) + "..65535, got " + value);
        }
    }

    /** Fails with one line when 127.0.0.1:port is taken (0 always is free). */
    private static void requireFree(String option, int value) {
        if (value == 0) {
            return;
        }
        try (ServerSocket s = new ServerSocket(value, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    option
                            + " "
                            + value
                            + ": 127.0.0.1:"
                            + value
                            + " is already in use ("
                            + e.getMessage()
                            + "); stop what uses it or pass another "
                            + option);
        }
    }

    private boolean stopping() {
        return stop.requested();
    }

    private JobClient startJob(DpclustConfig cfg) throws Exception {
        DpclustConfig jobCfg = cfg.withJob(cfg.job().withBoundedInput(false));
        if (jobCfg.job().start() == null) {
            // the public schedule starts now, as docker-compose submits with --start = now
            jobCfg = jobCfg.withJob(jobCfg.job().withSchedule(Instant.now(), jobCfg.job().end()));
        }
        jobCfg.job().requireStreamingSchedule();
        LOG.info("release schedule starts at job.start {}", jobCfg.job().start());
        SecretSource secret;
        String secretSource;
        String weak = null;
        if (secretFile.given() || System.getenv(SecretSource.ENV) != null) {
            secret = secretFile.source();
            // fails here, naming the option; the operators load it again
            weak = StartupLog.secretWarning(secret.load(), secretFile.describe());
            secretSource = secretFile.describe();
        } else {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            secret = SecretSource.temporaryFile(key); // owner-only, deleted on exit
            secretSource =
                    "a fresh random one for this run (no --secret-file, no "
                            + SecretSource.ENV
                            + ")";
        }
        StartupLog.configuration(LOG, jobCfg, secretSource);
        if (weak != null) {
            LOG.warn(weak);
        }
        Configuration flink = LocalCluster.config();
        flink.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        flink.set(RestOptions.ADDRESS, "127.0.0.1");
        flink.set(RestOptions.BIND_PORT, Integer.toString(flinkPort));
        if (metricsPort > 0) {
            PrometheusEndpoint.configure(flink, metricsPort);
            LOG.info("metrics: http://127.0.0.1:{}/metrics (Prometheus text format)", metricsPort);
        }
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(1, flink);
        JobClient job = StreamingJob.fromKafka(jobCfg, secret).executeAsync(env);
        LOG.info("streaming job {} running in a Flink MiniCluster", job.getJobID());
        return job;
    }

    /** Stops whatever was started, in reverse order, logging each step; 1 if a step failed. */
    private int shutDown(
            Generator generator, JobClient job, DashboardServer dashboard, EmbeddedKafka broker) {
        LOG.info(
                "stopping ({}) ...",
                stop.signal() != null ? stop.signal() + " received" : "start-up failed");
        int exit = 0;
        if (generator != null) {
            exit |= step("generator stopped", generator::stop);
        }
        if (job != null) {
            exit |= step(null, () -> stopJob(job));
        }
        if (dashboard != null) {
            exit |= step("dashboard stopped", dashboard::close);
        }
        if (broker != null) {
            exit |= step("Kafka broker stopped, 127.0.0.1:" + port + " is free", broker::close);
        }
        LOG.info(exit == 0 ? "stopped cleanly" : "stopped, with errors (see above)");
        return exit;
    }

    private interface Step {
        void run() throws Exception;
    }

    private static int step(String done, Step s) {
        try {
            s.run();
            if (done != null) {
                LOG.info(done);
            }
            return 0;
        } catch (Exception e) {
            LOG.error("while stopping: {}", e.toString());
            return 1;
        }
    }

    private static void stopJob(JobClient job) throws Exception {
        CleanStop.stopJob(job, LOG);
    }

    private static String failure(JobClient job) {
        try {
            job.getJobExecutionResult().get(10, TimeUnit.SECONDS);
            return "no error";
        } catch (Exception e) {
            return rootMessage(e);
        }
    }

    private static String rootMessage(Throwable e) {
        return CleanStop.rootMessage(e);
    }

    private static KafkaSettings defaultKafka() {
        return new KafkaSettings(
                "127.0.0.1:9092",
                KafkaSettings.DEFAULT_INPUT,
                KafkaSettings.DEFAULT_CENTROIDS,
                KafkaSettings.DEFAULT_SKETCHES,
                KafkaSettings.DEFAULT_CELLS,
                KafkaSettings.DEFAULT_RUNNING,
                KafkaSettings.DEFAULT_BUDGET,
                KafkaSettings.DEFAULT_DLQ,
                "dpclust",
                "dpclust",
                Duration.ofMinutes(1),
                "committed",
                java.util.Map.of());
    }

    /**
     * Writes the synthetic telemetry of {@code dpclust generate} once, in a thread; {@link #stop}
     * closes its producer, which ends an unfinished run.
     */
    private final class Generator {
        private final DpclustConfig cfg;
        private final TelemetryProducer producer;
        private final Thread thread;
        private volatile boolean stopping;

        Generator(DpclustConfig cfg) {
            this.cfg = cfg;
            this.producer =
                    new TelemetryProducer(cfg.kafka().connection(), cfg.kafka().inputTopic());
            this.thread = new Thread(this::write, "dpclust-generator");
            thread.setDaemon(true);
        }

        void start() {
            LOG.info(
                    "generator: writing {} windows x {} records (+{} malformed) for {} stream(s)"
                            + " to {}, {}",
                    windows,
                    recordsPerWindow,
                    malformedPerWindow,
                    cfg.streams().size(),
                    cfg.kafka().inputTopic(),
                    start == null
                            ? "each window at its wall-clock start"
                            : "event time from " + start);
            thread.start();
        }

        private void write() {
            try {
                SyntheticTelemetry scenario =
                        new SyntheticTelemetry(
                                cfg.streams(),
                                start == null ? 0 : start.toEpochMilli(),
                                windows,
                                recordsPerWindow,
                                malformedPerWindow,
                                500,
                                1);
                SyntheticTelemetry.Written w =
                        start == null ? scenario.writeRealtime(producer) : scenario.write(producer);
                LOG.info(
                        "generator: wrote {} records ({} valid, malformed {})",
                        w.records(),
                        w.valid(),
                        w.malformedByReason());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                if (!stopping) {
                    LOG.error("generator failed: {}", rootMessage(e));
                }
            }
        }

        void stop() throws InterruptedException {
            stopping = true;
            try {
                producer.close();
            } catch (RuntimeException e) {
                // closed under a running write: what was not yet written is dropped on purpose
            }
            thread.interrupt(); // a real-time write may be sleeping until its next window
            thread.join(STOP_TIMEOUT.toMillis());
        }
    }
}
