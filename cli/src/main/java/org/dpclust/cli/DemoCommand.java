package org.dpclust.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.eval.ProgressBar;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.AvroJson;
import org.dpclust.jobs.LocalCluster;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.kafka.TopicReader;
import org.dpclust.launch.UserError;
import org.dpclust.quality.ClusteringMetrics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpclust demo}: everything in one process, no servers to install. Starts a real in-process
 * KRaft broker, writes a drifting-mixture telemetry stream for two streams with malformed records
 * mixed in, runs the streaming job in a Flink MiniCluster, and prints each release as a {@code
 * read_committed} consumer sees it, next to the true centres. Exits by itself when every window has
 * been released.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description =
                "Run the whole pipeline in-process (real Kafka broker + Flink MiniCluster) and print DP centroids per window.")
public final class DemoCommand implements Callable<Integer> {
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Option(
            names = "--windows",
            defaultValue = "5",
            description = "Windows per stream (default ${DEFAULT-VALUE}).")
    int windows;

    @Option(
            names = "--records-per-window",
            defaultValue = "20000",
            description = "Records per stream and window (default ${DEFAULT-VALUE}).")
    int recordsPerWindow;

    @Option(
            names = "--malformed-per-window",
            defaultValue = "4",
            description = "Malformed records per stream and window (default ${DEFAULT-VALUE}).")
    int malformedPerWindow;

    @Option(names = "--json", description = "One JSON object per release, then a summary object.")
    boolean json;

    @Option(
            names = "--timeout",
            defaultValue = "PT5M",
            description = "Give up after this long (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Override
    public Integer call() throws Exception {
        // validated before anything starts (the broker takes seconds)
        UserError.require(windows >= 1, "--windows", "must be at least 1, was " + windows);
        UserError.require(
                recordsPerWindow >= 1,
                "--records-per-window",
                "must be at least 1, was " + recordsPerWindow);
        UserError.require(
                malformedPerWindow >= 0,
                "--malformed-per-window",
                "must be 0 or more, was " + malformedPerWindow);
        UserError.require(
                timeout.compareTo(Duration.ZERO) > 0,
                "--timeout",
                "must be positive, was " + timeout);
        PrintStream out = System.out;
        ObjectMapper mapper = new ObjectMapper();
        DpclustConfig base = demoConfig();
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key); // a fresh secret per demo run
        SecretSource secret = SecretSource.temporaryFile(key);
        long deadline = System.nanoTime() + timeout.toNanos();
        System.err.println("dpclust demo: starting an in-process Kafka broker (KRaft) ...");
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            DpclustConfig cfg =
                    scheduled(
                            base.withKafka(
                                    base.kafka().withBootstrapServers(kafka.bootstrapServers())),
                            windows);
            TopicAdmin.ensureTopics(cfg.kafka(), 2);
            SyntheticTelemetry scenario =
                    new SyntheticTelemetry(
                            cfg.streams(),
                            START.toEpochMilli(),
                            windows,
                            recordsPerWindow,
                            malformedPerWindow,
                            500,
                            2026);
            System.err.printf(
                    "dpclust demo: writing %d windows x %d records for %d streams to %s ...%n",
                    windows, recordsPerWindow, cfg.streams().size(), cfg.kafka().inputTopic());
            SyntheticTelemetry.Written written;
            try (TelemetryProducer producer =
                    new TelemetryProducer(kafka.bootstrapServers(), cfg.kafka().inputTopic())) {
                written = scenario.write(producer);
            }
            System.err.println(
                    "dpclust demo: running the streaming job in a Flink MiniCluster ...");
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(1, LocalCluster.config());
            JobClient job = StreamingJob.fromKafka(cfg, secret).executeAsync(env);

            int expected = windows * cfg.streams().size();
            AvroCodec<CentroidRelease> codec = AvroCodec.centroids();
            List<CentroidRelease> releases = new ArrayList<>();
            try (TopicReader reader =
                            new TopicReader(
                                    kafka.bootstrapServers(), cfg.kafka().centroidsTopic());
                    ProgressBar progress = new ProgressBar("windows released", expected)) {
                while (releases.size() < expected) {
                    if (System.nanoTime() > deadline) {
                        System.err.println(
                                "dpclust demo: timed out after "
                                        + releases.size()
                                        + " of "
                                        + expected
                                        + " releases");
                        job.cancel();
                        return 1;
                    }
                    if (job.getJobStatus().get().isGloballyTerminalState() && reader.atEnd()) {
                        break;
                    }
                    reader.poll(
                            Duration.ofMillis(300),
                            r -> {
                                try {
                                    CentroidRelease rel = codec.decodePublished(r.value());
                                    releases.add(rel);
                                    progress.step();
                                    print(out, mapper, cfg, rel, written);
                                } catch (IOException e) {
                                    throw new IllegalStateException(
                                            "undecodable release: " + e.getMessage(), e);
                                }
                            });
                }
            }
            job.getJobExecutionResult().get();
            Map<String, Long> rejected = new TreeMap<>();
            AvroCodec<RejectedRecord> dlq = AvroCodec.rejected();
            try (TopicReader reader =
                    new TopicReader(kafka.bootstrapServers(), cfg.kafka().dlqTopic())) {
                for (var r : reader.readToEnd(Duration.ofSeconds(30))) {
                    rejected.merge(dlq.decodePublished(r.value()).getReason(), 1L, Long::sum);
                }
            }
            long rejectedTotal = rejected.values().stream().mapToLong(Long::longValue).sum();
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("records_in", written.records());
            summary.put("records_valid", written.valid());
            summary.put("malformed_injected", written.malformed());
            summary.put("rejected", rejected);
            summary.put("rejected_total", rejectedTotal);
            summary.put("releases", releases.size());
            summary.put("streams", cfg.streams().size());
            summary.put("windows", windows);
            if (json) {
                out.println(mapper.writeValueAsString(summary));
            } else {
                out.printf(
                        "%nsummary: %d records in (%d valid, %d malformed injected), %d rejected %s, %d releases%n",
                        written.records(),
                        written.valid(),
                        written.malformed(),
                        rejectedTotal,
                        rejected,
                        releases.size());
            }
            return releases.size() == expected && rejectedTotal == written.malformed() ? 0 : 1;
        }
    }

    private void print(
            PrintStream out,
            ObjectMapper mapper,
            DpclustConfig cfg,
            CentroidRelease r,
            SyntheticTelemetry.Written written) {
        StreamSpec s = cfg.stream(r.getStreamId()).orElseThrow();
        int w =
                (int)
                        ((r.getWindowStart().toEpochMilli() - START.toEpochMilli())
                                / s.windowMillis());
        double[][] truth = written.trueCenters().get(s.id()).get(w);
        double[][] dp =
                r.getCentroids().stream()
                        .map(c -> c.stream().mapToDouble(Double::doubleValue).toArray())
                        .toArray(double[][]::new);
        double width = new DomainBounds(s.lower(), s.upper()).maxWidth();
        double matched = ClusteringMetrics.meanMatchedDistance(truth, dp) / width;
        if (json) {
            Map<String, Object> m = AvroJson.toMap(r);
            m.put("true_centers", truth);
            m.put("matched_error", matched);
            try {
                out.println(mapper.writeValueAsString(m));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return;
        }
        out.printf(
                "%s  window %d [%s, %s)  %s  spent %.2f / %.2f  matched error %.4f of the domain width%n",
                s.id(),
                w,
                r.getWindowStart(),
                r.getWindowEnd(),
                r.getGuarantee(),
                r.getSpent(),
                r.getCap(),
                matched);
        for (double[] t : truth) {
            double[] nearest = dp[0];
            for (double[] c : dp) {
                if (dist(t, c) < dist(t, nearest)) {
                    nearest = c;
                }
            }
            out.printf(
                    "    true %-28s  dp %-28s  distance %.3f%n",
                    fmt(t), fmt(nearest), dist(t, nearest));
        }
    }

    private static double dist(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return Math.sqrt(s);
    }

    private static String fmt(double[] v) {
        StringBuilder sb = new StringBuilder("(");
        for (int j = 0; j < v.length; j++) {
            sb.append(j > 0 ? ", " : "").append(String.format("%.2f", v[j]));
        }
        return sb.append(')').toString();
    }

    /**
     * The demo's release schedule: {@code windows} windows (of the longest stream window) from
     * {@link #START}, the event time of the synthetic data's first window.
     */
    static DpclustConfig scheduled(DpclustConfig c, int windows) {
        long longest = c.streams().stream().mapToLong(s -> s.windowMillis()).max().orElseThrow();
        return c.withJob(c.job().withSchedule(START, START.plusMillis(longest * windows)));
    }

    static DpclustConfig demoConfig() throws IOException {
        try (InputStream in = DemoCommand.class.getResourceAsStream("/demo-config.yaml")) {
            return ConfigLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
