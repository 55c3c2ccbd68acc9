package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.TopicFormats;
import org.dpclust.config.WireFormat;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.quality.ClusteringMetrics;
import org.dpclust.stream.LatenessFilter;
import org.dpclust.stream.RecordValidator;
import org.dpclust.stream.StreamClusteringFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The streaming job end to end on a real Kafka broker (in-process KRaft) and a Flink MiniCluster,
 * reading everything back as a {@code read_committed} consumer would. Every test uses its own
 * topics.
 */
class StreamingJobIT {
    private static final long START = StreamingRuns.START;
    private static final long W = StreamingRuns.W;

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(StreamingRuns.clusterConfig())
                            .build());

    private static EmbeddedKafka kafka;

    private static StreamingRuns runs;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
        runs = new StreamingRuns(kafka);
    }

    private static JobExecutionResult runBounded(
            DpclustConfig c, KafkaRecordDeserializationSchema<RawRecord> deser, String restart)
            throws Exception {
        return runs.runBounded(c, deser, restart);
    }

    private static List<ConsumerRecord<byte[], byte[]>> committed(String topic) {
        return runs.committed(topic);
    }

    private static List<CentroidRelease> releases(DpclustConfig c) throws IOException {
        return runs.releases(c);
    }

    private static List<BudgetStatus> budget(DpclustConfig c) throws IOException {
        return runs.budget(c);
    }

    private static Map<String, byte[]> byWindow(DpclustConfig c) throws IOException {
        return runs.byWindow(c);
    }

    private static StreamExecutionEnvironment env(String restart) {
        return StreamingRuns.env(restart);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private static DpclustConfig config(String name, String streamExtra, boolean bounded) {
        return config(name, streamExtra, bounded, 1);
    }

    private static DpclustConfig config(
            String name, String streamExtra, boolean bounded, int parallelism) {
        return config(name, streamExtra, bounded, parallelism, 4);
    }

    /**
     * The two test streams; the schedule runs from START for {@code windows} windows (the data's
     * event times are minutes before their append times: max_lateness PT1H counts them all).
     */
    private static DpclustConfig config(
            String name, String streamExtra, boolean bounded, int parallelism, int windows) {
        DpclustConfig c =
                ConfigLoader.parse(configYaml(name, streamExtra, bounded, parallelism, windows));
        TopicAdmin.ensureTopics(c.kafka(), 2);
        return c;
    }

    private static String configYaml(
            String name, String streamExtra, boolean bounded, int parallelism, int windows) {
        return """
                kafka:
                  bootstrap_servers: "%s"
                  topics: {input: %s.in, centroids: %s.centroids, sketches: %s.sketches, running: %s.running, budget: %s.budget, dlq: %s.dlq}
                  group_id: %s
                  transactional_id_prefix: %s
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                job:
                  checkpoint_interval: PT0.3S
                  max_out_of_orderness: PT1S
                  bounded_input: %s
                  parallelism: %d
                  max_lateness: PT1H
                  start: "%s"
                  end: "%s"
                streams:
                  - id: a
                    dimension: 2
                    lower: [0, 0]
                    upper: [1, 1]
                    k: 3
                    window: PT10S
                    epsilon_per_release: 1.0
                    budget_cap: 100
                    public_seed: 1
                %s
                  - id: b
                    dimension: 3
                    lower: [-1, -1, -1]
                    upper: [1, 1, 1]
                    k: 2
                    window: PT10S
                    epsilon_per_release: 1.0
                    budget_cap: 100
                    public_seed: 2
                %s
                """
                .formatted(
                        kafka.bootstrapServers(),
                        name,
                        name,
                        name,
                        name,
                        name,
                        name,
                        name,
                        name,
                        bounded,
                        parallelism,
                        Instant.ofEpochMilli(START),
                        Instant.ofEpochMilli(START + windows * W),
                        streamExtra,
                        streamExtra);
    }

    private static SyntheticTelemetry.Written write(
            DpclustConfig c,
            String topic,
            int fromWindow,
            int windows,
            int perWindow,
            int malformed) {
        try (TelemetryProducer p = new TelemetryProducer(kafka.bootstrapServers(), topic)) {
            return new SyntheticTelemetry(
                            c.streams(),
                            START + fromWindow * W,
                            windows,
                            perWindow,
                            malformed,
                            50,
                            7)
                    .write(p);
        }
    }

    @Test
    void releasesEachWindowOnceAndAccountsForEveryRecord() throws Exception {
        DpclustConfig c = config("e2e", "", true);
        SyntheticTelemetry.Written w = write(c, c.kafka().inputTopic(), 0, 4, 3000, 8);
        JobExecutionResult result = runBounded(c, new RawRecordDeserializer(), "none");

        List<CentroidRelease> rel = releases(c);
        Set<String> seen = new HashSet<>();
        for (CentroidRelease r : rel) {
            assertTrue(
                    seen.add(r.getStreamId() + "@" + r.getWindowStart()),
                    "each (stream, window) exactly once");
            assertEquals("dp", r.getGuarantee());
            int window = (int) ((r.getWindowStart().toEpochMilli() - START) / W);
            double[][] truth = w.trueCenters().get(r.getStreamId()).get(window);
            double[][] dp =
                    r.getCentroids().stream()
                            .map(x -> x.stream().mapToDouble(Double::doubleValue).toArray())
                            .toArray(double[][]::new);
            double width = r.getStreamId().equals("a") ? 1 : 2;
            assertTrue(
                    org.dpclust.quality.ClusteringMetrics.meanMatchedDistance(truth, dp) / width
                            < 0.05,
                    "release " + r.getStreamId() + "@" + window + " is near the true centres");
        }
        assertEquals(8, rel.size(), "4 windows x 2 streams");

        Map<String, Long> reasons = new TreeMap<>();
        for (var r : committed(c.kafka().dlqTopic())) {
            RejectedRecord rej = AvroCodec.rejected().decode(r.value());
            reasons.merge(rej.getReason(), 1L, Long::sum);
        }
        assertEquals(
                w.malformedByReason(),
                reasons,
                "every malformed record is a dead letter with its reason");

        long in = result.<Long>getAccumulatorResult(RecordValidator.ACC_RECORDS_IN);
        long windowed = result.<Long>getAccumulatorResult(StreamClusteringFunction.ACC_WINDOWED);
        long invalid = result.<Long>getAccumulatorResult(RecordValidator.ACC_REJECTED);
        long late = result.<Long>getAccumulatorResult(LatenessFilter.ACC_LATE);
        assertEquals(w.records(), in, "records in");
        assertEquals(
                in,
                windowed + invalid + late,
                "records in = records in windows + records rejected");
        assertEquals(w.valid(), windowed);
        assertEquals(
                8, budget(c).stream().filter(b -> b.getKind() == BudgetEventKind.CHARGE).count());
    }

    @Test
    void theSketchSummaryPublishesDpSketchesAndDecodedCentroids() throws Exception {
        DpclustConfig c = config("ckm", "    summaries: [stats, ckm]\n", true, 1, 3);
        SyntheticTelemetry.Written w = write(c, c.kafka().inputTopic(), 0, 3, 4000, 0);
        runBounded(c, new RawRecordDeserializer(), "none");
        List<org.dpclust.avro.SketchRelease> sketches = new ArrayList<>();
        for (var r : committed(c.kafka().sketchesTopic())) {
            sketches.add(AvroCodec.sketches().decode(r.value()));
        }
        assertEquals(6, sketches.size(), "one DP sketch per stream and window");
        for (org.dpclust.avro.SketchRelease sk : sketches) {
            assertEquals("dp", sk.getGuarantee());
            assertEquals(2 * sk.getM(), sk.getSketch().size());
        }
        List<CentroidRelease> ckm =
                releases(c).stream().filter(r -> r.getAlgorithm().equals("ckm")).toList();
        assertEquals(6, ckm.size());
        for (CentroidRelease r : ckm) {
            int window = (int) ((r.getWindowStart().toEpochMilli() - START) / W);
            double[][] truth = w.trueCenters().get(r.getStreamId()).get(window);
            double[][] dp =
                    r.getCentroids().stream()
                            .map(x -> x.stream().mapToDouble(Double::doubleValue).toArray())
                            .toArray(double[][]::new);
            double width = r.getStreamId().equals("a") ? 1 : 2;
            double err =
                    org.dpclust.quality.ClusteringMetrics.meanMatchedDistance(truth, dp) / width;
            assertTrue(
                    err < 0.1,
                    "ckm release " + r.getStreamId() + "@" + window + " matched error " + err);
            assertEquals(2.0, r.getSpent(), 0.0, "stats and ckm on the same window");
        }
    }

    @Test
    void theCapStopsReleasesAndPublishesBudgetStatus() throws Exception {
        DpclustConfig c =
                config(
                        "cap",
                        "    privacy_unit: device\n    device_contribution_bound: 2\n    budget_cap: 2.5\n"
                                .replace("budget_cap: 2.5\n", ""),
                        true);
        c = ConfigLoader.parse(capYaml(c));
        write(c, c.kafka().inputTopic(), 0, 4, 1000, 0);
        runBounded(c, new RawRecordDeserializer(), "none");
        assertEquals(4, releases(c).size(), "2 per stream");
        List<BudgetStatus> refused =
                budget(c).stream().filter(b -> b.getKind() == BudgetEventKind.REFUSED).toList();
        assertEquals(4, refused.size(), "windows 2 and 3 of each stream are refused");
        for (BudgetStatus b : refused) {
            assertEquals(2.0, b.getSpent(), 0.0);
            assertEquals(2.5, b.getCap(), 0.0);
        }
    }

    /**
     * The same configuration with cap 2.5 on every stream (budget_cap is declared before the
     * extras).
     */
    private static String capYaml(DpclustConfig c) {
        return capYaml(c, 4);
    }

    private static String capYaml(DpclustConfig c, int windows) {
        return """
                kafka:
                  bootstrap_servers: "%s"
                  topics: {input: cap.in, centroids: cap.centroids, sketches: cap.sketches, budget: cap.budget, dlq: cap.dlq}
                  group_id: cap
                  transactional_id_prefix: cap
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                job: {checkpoint_interval: PT0.3S, max_out_of_orderness: PT1S, idle_timeout: PT2S, bounded_input: true, parallelism: 1,
                      max_lateness: PT1H, start: "%s", end: "%s"}
                streams:
                  - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT10S, epsilon_per_release: 1.0,
                     budget_cap: 2.5, privacy_unit: device, device_contribution_bound: 2, public_seed: 1}
                  - {id: b, dimension: 3, lower: [-1, -1, -1], upper: [1, 1, 1], k: 2, window: PT10S,
                     epsilon_per_release: 1.0, budget_cap: 2.5, privacy_unit: device, device_contribution_bound: 2, public_seed: 2}
                """
                .formatted(
                        c.kafka().bootstrapServers(),
                        Instant.ofEpochMilli(START),
                        Instant.ofEpochMilli(START + windows * W));
    }

    @Test
    void aRestartWithoutStateReloadsTheSpendFromTheBudgetTopic() throws Exception {
        DpclustConfig c =
                ConfigLoader.parse(
                        capYaml(config("cap", "", true), 2)
                                .replace("cap.", "restart.")
                                .replace("group_id: cap", "group_id: restart")
                                .replace(
                                        "transactional_id_prefix: cap",
                                        "transactional_id_prefix: restart")
                                .replace("budget_cap: 2.5", "budget_cap: 3.0"));
        TopicAdmin.ensureTopics(c.kafka(), 1);
        write(c, c.kafka().inputTopic(), 0, 2, 1000, 0);
        runBounded(c, new RawRecordDeserializer(), "none");
        assertEquals(4, releases(c).size());
        // a new job, no state: it only knows what the budget topic says (2.0 spent per stream)
        DpclustConfig next =
                ConfigLoader.parse(
                        capYaml(c, 5)
                                .replace("cap.in", "restart.in2")
                                .replace("cap.", "restart.")
                                .replace("group_id: cap", "group_id: restart2")
                                .replace(
                                        "transactional_id_prefix: cap",
                                        "transactional_id_prefix: restart2")
                                .replace("budget_cap: 2.5", "budget_cap: 3.0"));
        TopicAdmin.ensureTopics(next.kafka(), 1);
        write(next, next.kafka().inputTopic(), 2, 3, 1000, 0);
        runBounded(next, new RawRecordDeserializer(), "none");
        List<CentroidRelease> after = releases(next).subList(4, releases(next).size());
        assertEquals(
                2,
                after.size(),
                "the schedule resumes after the ledger's last window (2) and only window 2 of"
                        + " each stream fits under the cap");
        for (CentroidRelease r : after) {
            assertEquals(START + 2 * W, r.getWindowStart().toEpochMilli());
            assertEquals(3.0, r.getSpent(), 0.0, "spend continues from the budget topic");
        }
        assertEquals(
                4,
                budget(next).stream().filter(b -> b.getKind() == BudgetEventKind.REFUSED).count());
    }

    /**
     * Fails the source once, mid-window, after some checkpoints; throttled so that checkpoints
     * happen first.
     */
    static final class FailOnce implements KafkaRecordDeserializationSchema<RawRecord> {
        static final AtomicBoolean FAILED = new AtomicBoolean();
        static final AtomicLong SEEN = new AtomicLong();
        private final long failAt;
        private final RawRecordDeserializer inner = new RawRecordDeserializer();

        FailOnce(long failAt) {
            this.failAt = failAt;
        }

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<RawRecord> out)
                throws IOException {
            if (SEEN.incrementAndGet() >= failAt && FAILED.compareAndSet(false, true)) {
                throw new IOException("injected task failure at record " + SEEN.get());
            }
            LockSupport.parkNanos(150_000);
            inner.deserialize(r, out);
        }

        @Override
        public TypeInformation<RawRecord> getProducedType() {
            return inner.getProducedType();
        }
    }

    /**
     * In either wire format of the centroids and running topics (docs/wire-format.md); both streams
     * also publish running releases over their last two windows, restored from keyed state after
     * the failure.
     */
    @ParameterizedTest
    @EnumSource(WireFormat.class)
    void aTaskFailureMidWindowGivesByteIdenticalReleases(WireFormat format) throws Exception {
        String f = format == WireFormat.AVRO ? "" : "-" + format.wireName();
        String running = "    running: {windows: 2}\n";
        DpclustConfig undisturbed =
                config("calm" + f, running, true).withFormats(TopicFormats.all(format));
        DpclustConfig disturbed =
                config("storm" + f, running, true).withFormats(TopicFormats.all(format));
        write(undisturbed, undisturbed.kafka().inputTopic(), 0, 4, 2500, 0);
        write(disturbed, disturbed.kafka().inputTopic(), 0, 4, 2500, 0);
        runBounded(undisturbed, new RawRecordDeserializer(), "none");
        FailOnce.FAILED.set(false);
        FailOnce.SEEN.set(0);
        // 20,000 records in event-time order: record 12,345 is in the middle of window 2
        runBounded(disturbed, new FailOnce(12_345), "fixed-delay");
        assertTrue(FailOnce.FAILED.get(), "the failure was injected");
        assertSameReleases(undisturbed, disturbed, 8);
        Map<String, byte[]> storm = runs.byWindow(disturbed.kafka().runningTopic());
        assertSameBytes(runs.byWindow(undisturbed.kafka().runningTopic()), storm, 8);
        for (Map<String, byte[]> topic : List.of(byWindow(disturbed), storm)) {
            assertTrue(
                    topic.values().stream()
                            .allMatch(b -> (b[0] == '{') == (format == WireFormat.JSON)),
                    "the releases are in the " + format.wireName() + " format");
        }
    }

    /**
     * Both jobs released the same (stream, window, algorithm)s, byte for byte, and {@code count} of
     * them.
     */
    private static void assertSameReleases(DpclustConfig expected, DpclustConfig actual, int count)
            throws IOException {
        assertSameBytes(byWindow(expected), byWindow(actual), count);
    }

    /** The same keys, {@code count} of them, with the same bytes. */
    private static void assertSameBytes(Map<String, byte[]> a, Map<String, byte[]> b, int count) {
        assertEquals(count, a.size());
        assertEquals(a.keySet(), b.keySet());
        for (String window : a.keySet()) {
            assertArrayEquals(
                    a.get(window), b.get(window), "release " + window + " is byte-identical");
        }
    }

    @Test
    void saltedAtParallelismTwoWithATaskFailureGivesTheReleasesOfTheUnsaltedJob() throws Exception {
        DpclustConfig unsalted =
                config(
                        "unsalted",
                        "    summaries: [stats, dp-hst]\n    hst: {universe: 256}\n",
                        true);
        DpclustConfig salted =
                config(
                        "salted",
                        "    summaries: [stats, dp-hst]\n    hst: {universe: 256}\n"
                                + "    salt_buckets: 4\n",
                        true,
                        2);
        write(unsalted, unsalted.kafka().inputTopic(), 0, 4, 2500, 0);
        write(salted, salted.kafka().inputTopic(), 0, 4, 2500, 0);
        runBounded(unsalted, new RawRecordDeserializer(), "none");
        FailOnce.FAILED.set(false);
        FailOnce.SEEN.set(0);
        runBounded(salted, new FailOnce(12_345), "fixed-delay");
        assertTrue(FailOnce.FAILED.get(), "the failure was injected");
        assertSameReleases(unsalted, salted, 16); // 2 streams x 4 windows x 2 summaries
    }

    /**
     * Live (unbounded): windows are released as the log's append-time clock passes their end +
     * max_lateness, from the configured start on (no record decides when a stream starts); a record
     * whose event time is more than max_lateness before its own append time is a dead letter with
     * reason {@code late}, whatever the watermark.
     */
    @Test
    void aLiveJobReleasesOnTheAppendTimeClockAndDeadLettersALateRecord() throws Exception {
        long liveStart = Math.floorDiv(System.currentTimeMillis(), W) * W;
        DpclustConfig c =
                ConfigLoader.parse(
                        configYaml("live", "", false, 1, 4)
                                .replace("max_lateness: PT1H", "max_lateness: PT2S")
                                .replace(
                                        Instant.ofEpochMilli(START).toString(),
                                        Instant.ofEpochMilli(liveStart).toString())
                                .replace(
                                        Instant.ofEpochMilli(START + 4 * W).toString(),
                                        Instant.ofEpochMilli(liveStart + 100 * W).toString()));
        TopicAdmin.ensureTopics(c.kafka(), 2);
        JobClient job =
                new StreamingJob(
                                KafkaEndpoints.source(c),
                                KafkaEndpoints.sink(c),
                                c,
                                TestRandoms.secretSource(),
                                Map.of())
                        .executeAsync(env("none"));
        long lateEventTime = 0;
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (releases(c).size() < 4) { // windows 0 and 1 of both streams
                assertTrue(
                        System.nanoTime() < deadline, "windows 0 and 1 were not released in time");
                for (int i = 0; i < 5; i++) { // records on time: event time = now
                    p.send("a", "d" + i, System.currentTimeMillis(), new double[] {0.5, 0.5});
                    p.send("b", "d" + i, System.currentTimeMillis(), new double[] {0, 0, 0});
                }
                p.flush();
                Thread.sleep(200);
            }
            lateEventTime = System.currentTimeMillis() - Duration.ofMinutes(61).toMillis();
            p.send("a", "late-device", lateEventTime, new double[] {0.5, 0.5});
            p.flush();
            List<RejectedRecord> dl = runs.deadLetters(c);
            while (dl.isEmpty()) {
                assertTrue(
                        System.nanoTime() < deadline,
                        "the late record did not reach the dead-letter topic");
                Thread.sleep(200);
                dl = runs.deadLetters(c);
            }
            assertEquals(1, dl.size());
            assertEquals("late", dl.get(0).getReason());
            assertEquals(lateEventTime, dl.get(0).getEventTime().toEpochMilli());
        } finally {
            job.cancel().get();
        }
        for (String stream : List.of("a", "b")) {
            List<Long> windows =
                    releases(c).stream()
                            .filter(r -> r.getStreamId().equals(stream))
                            .map(r -> r.getWindowStart().toEpochMilli())
                            .toList();
            for (int i = 0; i < windows.size(); i++) {
                assertEquals(
                        liveStart + i * W,
                        windows.get(i),
                        stream + ": consecutive windows from the configured start");
            }
        }
    }

    private static final int RUNNING_WINDOWS = 16;
    private static final int RUNNING_SPAN = 6;

    /**
     * A fixed event-time start, so that the noise keys (which include window starts) and hence the
     * releases are the same on every run; the lateness allowance of that run counts its records.
     */
    private static final long RUNNING_START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    /**
     * Running releases end to end: a record-unit stream at ε = 0.3 per window, 400 records a window
     * from the generator's slowly drifting 3-component mixture, {@code running: {windows: 6}}, at a
     * fixed event-time start (fixed noise). The job publishes a running release on the running
     * topic next to each window release, charging nothing more; from the 6th window on, the running
     * releases' median matched error to each window's true centres is at most 3/4 of the window
     * releases' (0.041 against 0.081: one window's noise is √6 times smaller relative to six
     * windows' signal, against a drift bias of about 0.02 box widths).
     */
    @Test
    void runningReleasesArePublishedNextToTheWindowsAndAreCloserToTheTruth() throws Exception {
        DpclustConfig c =
                ConfigLoader.parse(
                        runs.boundedYaml(
                                        "run",
                                        RUNNING_START,
                                        RUNNING_START + RUNNING_WINDOWS * W,
                                        """
                                  - {id: r, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT10S,
                                     epsilon_per_release: 0.3, budget_cap: 100, public_seed: 4,
                                     stats: {cells: 32}, running: {windows: %d}}
                                """
                                                .formatted(RUNNING_SPAN))
                                .replace("max_lateness: PT1H", "max_lateness: P3650D"));
        TopicAdmin.ensureTopics(c.kafka(), 1);
        SyntheticTelemetry.Written written;
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            written =
                    new SyntheticTelemetry(
                                    c.streams(), RUNNING_START, RUNNING_WINDOWS, 400, 0, 400, 5)
                            .write(p);
        }
        runs.runBounded(c, new RawRecordDeserializer(), "none");

        List<CentroidRelease> windows = runs.releases(c);
        List<CentroidRelease> running = new ArrayList<>();
        for (var r : runs.committed(c.kafka().runningTopic())) {
            running.add(AvroCodec.centroids().decode(r.value()));
        }
        assertEquals(RUNNING_WINDOWS, windows.size());
        assertEquals(
                RUNNING_WINDOWS, running.size(), "a running release next to each window release");
        List<double[][]> truth = written.trueCenters().get("r");
        double[] own = new double[RUNNING_WINDOWS - RUNNING_SPAN + 1];
        double[] run = new double[RUNNING_WINDOWS - RUNNING_SPAN + 1];
        for (int i = 0; i < RUNNING_WINDOWS; i++) {
            CentroidRelease r = running.get(i);
            assertEquals(
                    RUNNING_START + (i + 1) * W, r.getWindowEnd().toEpochMilli(), "window order");
            assertEquals(Math.min(i + 1, RUNNING_SPAN), r.getWindowsCovered());
            assertEquals("running", r.getMode());
            assertEquals(0.0, r.getEpsilon(), 0.0, "post-processing: no charge");
            assertEquals(windows.get(i).getSpent(), r.getSpent(), 0.0);
            if (i >= RUNNING_SPAN - 1) {
                own[i - RUNNING_SPAN + 1] = matchedError(truth.get(i), windows.get(i));
                run[i - RUNNING_SPAN + 1] = matchedError(truth.get(i), r);
            }
        }
        java.util.Arrays.sort(own);
        java.util.Arrays.sort(run);
        double ownMedian = own[own.length / 2];
        double runMedian = run[run.length / 2];
        System.out.printf(
                "StreamingJobIT running releases: median matched error, windows %d..%d: window releases %.4f,"
                        + " running (last %d) %.4f%n",
                RUNNING_SPAN - 1, RUNNING_WINDOWS - 1, ownMedian, RUNNING_SPAN, runMedian);
        assertTrue(
                runMedian <= 0.75 * ownMedian,
                "running " + runMedian + " at most 3/4 of the per-window " + ownMedian);
    }

    private static double matchedError(double[][] truth, CentroidRelease r) {
        double[][] found =
                r.getCentroids().stream()
                        .map(x -> x.stream().mapToDouble(Double::doubleValue).toArray())
                        .toArray(double[][]::new);
        return ClusteringMetrics.meanMatchedDistance(truth, found);
    }
}
