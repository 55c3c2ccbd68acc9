package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.window.Rejections;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dpclust metrics as Prometheus sees them: a MiniCluster with Flink's Prometheus reporter (the
 * one the image ships in {@code plugins/metrics-prometheus/}) on a free port, the streaming job on
 * the in-process broker, {@code GET /metrics} over HTTP. Input with known counts of every kind
 * (clamped, each rejection reason, late), written in real time (1 s windows, each at its wall-clock
 * start: the job's clock is the log append time), and a budget cap that refuses one window; asserts
 * the scraped values, then that every metric the Grafana dashboard in {@code deploy/grafana/}
 * queries is one this scrape served.
 */
class MetricsScrapeIT {
    private static final long W = 1_000;

    /**
     * The schedule's start and the first data window: a window boundary a little ahead, moved to
     * the next day when the test's windows would straddle a (daily) budget period.
     */
    private static long START; // set by the test when it starts writing

    private static long start() {
        long day = Duration.ofDays(1).toMillis();
        long s = (System.currentTimeMillis() / W + 2) * W;
        return s / day == (s + 8 * W) / day ? s : (s / day + 1) * day;
    }

    private static final int PROM_PORT = freePort();
    private static final String PREFIX = "flink_taskmanager_job_task_operator_dpclust_";

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(clusterConfig())
                            .build());

    private static EmbeddedKafka kafka;

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * StreamingJobIT's MiniCluster with the Prometheus reporter as flink-conf/config.yaml has it.
     */
    private static Configuration clusterConfig() {
        Configuration c = StreamingRuns.clusterConfig();
        c.addAll(
                Configuration.fromMap(
                        Map.of(
                                "metrics.reporters", "prom",
                                "metrics.reporter.prom.factory.class",
                                        "org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
                                "metrics.reporter.prom.port", Integer.toString(PROM_PORT),
                                // label values as configured (b-3d, not b_3d): the kit sets it too
                                "metrics.reporter.prom.filterLabelValueCharacters", "false")));
        return c;
    }

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    /** One sample of the Prometheus text format: name, labels, value. */
    record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LINE =
            Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

    static List<Sample> scrape() throws IOException, InterruptedException {
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + PROM_PORT
                                                                + "/metrics"))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode(), "GET /metrics");
        List<Sample> samples = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.strip());
            assertTrue(m.matches(), "a Prometheus sample line: " + line);
            Map<String, String> labels = new TreeMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return samples;
    }

    /** Sum of the samples of {@code PREFIX + metric} whose labels pass {@code labels}. */
    static double sum(List<Sample> s, String metric, Predicate<Map<String, String>> labels) {
        return s.stream()
                .filter(x -> x.name().equals(PREFIX + metric) && labels.test(x.labels()))
                .mapToDouble(Sample::value)
                .sum();
    }

    static double sum(List<Sample> s, String metric) {
        return sum(s, metric, l -> true);
    }

    static double stream(List<Sample> s, String metric, String stream) {
        return sum(s, "stream_" + metric, l -> stream.equals(l.get("stream")));
    }

    private static DpclustConfig config() {
        DpclustConfig c =
                ConfigLoader.parse(
                        """
                        kafka:
                          bootstrap_servers: "%s"
                          topics: {input: prom.in, centroids: prom.centroids, sketches: prom.sketches, budget: prom.budget, dlq: prom.dlq}
                          group_id: prom
                          transactional_id_prefix: prom
                          transaction_timeout: PT2M
                          starting_offsets: earliest
                        job: {checkpoint_interval: PT0.3S, max_out_of_orderness: PT1S, release_clock: records, idle_timeout: PT2S, bounded_input: false, parallelism: 1,
                              max_lateness: PT2S, max_future: PT2S, start: "%s"}
                        streams:
                          - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 2, window: PT1S,
                             epsilon_per_release: 1.0, budget_cap: 2.5, privacy_unit: device,
                             device_contribution_bound: 100, public_seed: 1}
                          - {id: b-3d, dimension: 3, lower: [-1, -1, -1], upper: [1, 1, 1], k: 2, window: PT1S,
                             epsilon_per_release: 1.0, budget_cap: 100, public_seed: 2}
                        """
                                .formatted(kafka.bootstrapServers(), Instant.ofEpochMilli(START)));
        TopicAdmin.ensureTopics(c.kafka(), 1);
        return c;
    }

    @Test
    void theDpclustMetricsAreServedToPrometheus() throws Exception {
        START = start();
        DpclustConfig c = config();
        // 4 windows x 2 streams x 100 records, each window written at its wall-clock start; every
        // 10th out of bounds (clamped). Malformed, in window 0: 1 undecodable, 2 wrong dimension,
        // 3 non-finite, 4 of an unknown stream. Then one tick record appended 3.5 s after window
        // 3's start (event time = its append time, window 6): it moves the append-time watermark
        // (max append − 1 s − 1 ms) past the close times (end + 2 s − 1) of windows 0-2, not 3.
        int perWindow = 100;
        long valid = 0;
        long clamped = 0;
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            sleepUntil(START);
            p.sendRaw("a", "not avro".getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 2; i++) {
                p.send("a", "bad", START + 1, new double[] {0.5, 0.5, 0.5});
            }
            for (int i = 0; i < 3; i++) {
                p.send("b-3d", "bad", START + 1, new double[] {0.5, Double.NaN, 0.5});
            }
            for (int i = 0; i < 4; i++) {
                p.send("nope", "bad", START + 1, new double[] {0.5, 0.5});
            }
            for (int w = 0; w < 4; w++) {
                sleepUntil(START + w * W);
                for (int r = 0; r < perWindow; r++) {
                    long t = START + w * W + r * (W / perWindow);
                    boolean out = r % 10 == 0;
                    double x = out ? 7.0 : (r % 7) / 7.0;
                    p.send("a", "d" + (r % 5), t, new double[] {x, 1 - x / 8});
                    p.send("b-3d", "d" + (r % 5), t, new double[] {-x / 8, x, 0});
                    valid += 2;
                    clamped += out ? 2 : 0;
                }
                p.flush();
            }
            sleepUntil(START + 6 * W + W / 2);
            p.send("b-3d", "tick", System.currentTimeMillis(), new double[] {0, 0, 0});
            valid++;
        }
        long records = valid + 1 + 2 + 3 + 4;

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration restart = new Configuration();
        restart.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(restart);
        JobClient job = StreamingJob.fromKafka(c, TestRandoms.secretSource()).executeAsync(env);
        try {
            // windows 0-2 close (window 3 stays open). a (device units: spent adds up
            // over windows) releases windows 0 and 1 and is refused window 2 (cap 2.5); b (record
            // units: disjoint windows compose in parallel, spent stays 1) releases all three
            List<Sample> s =
                    awaitScrape(m -> sum(m, "releases") >= 5 && sum(m, "refused_releases") >= 1);
            try (TelemetryProducer p =
                    new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
                // window 0, now more than max_lateness before its append time
                p.send("a", "late", START + W / 2, new double[] {0.5, 0.5});
            }
            s = awaitScrape(m -> sum(m, "rejected_late") >= 1);
            report(s);

            assertEquals(records + 1, sum(s, "records_in"), "records_in");
            assertEquals(clamped, sum(s, "records_clamped"), "records_clamped");
            assertEquals(1, sum(s, "rejected_" + Rejections.UNDECODABLE));
            assertEquals(2, sum(s, "rejected_" + Rejections.WRONG_DIMENSION));
            assertEquals(3, sum(s, "rejected_" + Rejections.NON_FINITE));
            assertEquals(4, sum(s, "rejected_" + Rejections.UNKNOWN_STREAM));
            assertEquals(1, sum(s, "rejected_" + Rejections.LATE));
            assertEquals(5, sum(s, "releases"), "2 of a, 3 of b");
            assertEquals(1, sum(s, "refused_releases"), "window 2 of a");
            assertEquals(2, stream(s, "releases", "a"));
            assertEquals(1, stream(s, "refused_releases", "a"));
            assertEquals(3, stream(s, "releases", "b-3d"));
            assertEquals(0, stream(s, "refused_releases", "b-3d"));
            assertEquals(2.0, stream(s, "spent", "a"), 1e-12, "spent before the refused charge");
            assertEquals(0.5, stream(s, "remaining", "a"), 1e-12);
            assertEquals(1.0, stream(s, "spent", "b-3d"), 1e-12);
            assertEquals(99.0, stream(s, "remaining", "b-3d"), 1e-12);
            for (String id : List.of("a", "b-3d")) {
                assertEquals(
                        START + 4 * W + 2_000 - 1,
                        stream(s, "next_release_ms", id),
                        0.0,
                        "stream " + id + ": window 3 is released next, at end + max_lateness − 1");
            }
            assertDashboardQueriesOnlyScrapedMetrics(s);
        } finally {
            job.cancel().get();
        }
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private static List<Sample> awaitScrape(Predicate<List<Sample>> done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (true) {
            List<Sample> s = scrape();
            if (done.test(s)) {
                return s;
            }
            if (System.nanoTime() > deadline) {
                report(s);
                throw new AssertionError("metrics did not reach the expected values (printed)");
            }
            Thread.sleep(200);
        }
    }

    /** Prints the scraped dpclust samples (name, stream label, value), summed over operators. */
    private static void report(List<Sample> s) {
        Map<String, Double> totals = new TreeMap<>();
        for (Sample x : s) {
            if (x.name().startsWith(PREFIX)) {
                String stream = x.labels().get("stream");
                totals.merge(
                        x.name() + (stream == null ? "" : "{stream=" + stream + "}"),
                        x.value(),
                        Double::sum);
            }
        }
        totals.forEach((k, v) -> System.out.println("scraped " + k + " " + v));
    }

    private static final Pattern METRIC_IN_EXPR = Pattern.compile("\\b(flink_[a-zA-Z0-9_]+)");

    /** Every metric name a panel of deploy/grafana/dpclust-dashboard.json queries was served. */
    static void assertDashboardQueriesOnlyScrapedMetrics(List<Sample> s) throws IOException {
        JsonNode dash =
                new ObjectMapper()
                        .readTree(Path.of("deploy/grafana/dpclust-dashboard.json").toFile());
        Set<String> served = new TreeSet<>();
        s.forEach(x -> served.add(x.name()));
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dash.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                Matcher m = METRIC_IN_EXPR.matcher(target.path("expr").asText());
                while (m.find()) {
                    queried.add(m.group(1));
                }
            }
        }
        assertTrue(queried.size() >= 10, "the dashboard queries the dpclust metrics: " + queried);
        Set<String> unknown = new TreeSet<>(queried);
        unknown.removeAll(served);
        assertEquals(Set.of(), unknown, "dashboard metrics that /metrics does not serve");
    }
}
