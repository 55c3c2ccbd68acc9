package org.dpclust.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.jobs.KafkaEndpoints;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.kafka.TopicReader;

/**
 * {@code soak}: the streaming job live for a fixed time (default 10 minutes, {@code bench soak
 * --minutes N}; 30 s with {@code --quick}) on a MiniCluster in this JVM, against a KRaft broker in
 * a JVM of its own ({@link SoakBroker}, so that this JVM's heap is the job's and not the broker's
 * growing log): two streams at a fixed rate (1,000 records/s in all) on the log append-time clock,
 * 2 s windows, exactly-once checkpoints every second. Every 30 s (2 s quick) one row: minutes
 * elapsed, windows released so far, heap used after a full GC in this JVM (job, generator, reader)
 * and in the broker's, the number of completed checkpoints with the latest one's state size and the
 * recent mean checkpoint duration from Flink's REST API ({@link CheckpointStats}), and the
 * end-to-end release latency of the releases read in that interval — from the earliest moment the
 * window could close on the append clock (its end + max_lateness) to when a {@code read_committed}
 * consumer read it (mean and max). A job that keeps state per window, or leaks per release, shows
 * as growth down the rows; {@link #flatness} fits each series' slope over the second half. Fixed
 * seeds and a fixed test secret.
 */
public final class SoakBenchmark implements Benchmark {
    /** System property with the soak's length in minutes ({@code bench soak --minutes}). */
    public static final String MINUTES_PROPERTY = "dpclust.soak.minutes";

    private static final long W = 2_000;
    private static final long MAX_LATENESS = 1_000;
    private static final int RATE = 1_000;

    @Override
    public String name() {
        return "soak";
    }

    @Override
    public String description() {
        return "The live streaming job for N minutes (--minutes, default 10): heap after GC, checkpoint"
                + " size and duration, and release latency over time.";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        double minutes =
                quick ? 0.5 : Double.parseDouble(System.getProperty(MINUTES_PROPERTY, "10"));
        long sampleMillis = quick ? 2_000 : 30_000;
        List<Map<String, Object>> rows = new ArrayList<>();
        try (SoakBroker kafka = SoakBroker.start()) {
            long start = Math.floorDiv(System.currentTimeMillis(), W) * W + 2 * W;
            DpclustConfig c = config(kafka, start);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong written = new AtomicLong();
            Thread producer =
                    new Thread(() -> produce(kafka, c, start, stop, written), "soak-producer");
            producer.setDaemon(true);
            producer.start();
            int restPort = freePort();
            Configuration conf = liveCluster(restPort, "32m", "soak-checkpoints");
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(1, conf);
            JobClient job =
                    new StreamingJob(
                                    KafkaEndpoints.source(c),
                                    KafkaEndpoints.sink(c),
                                    c,
                                    PipelineBenchmark.benchSecret(),
                                    Map.of())
                            .executeAsync(env);
            long t0 = System.currentTimeMillis();
            long end = t0 + Math.round(minutes * 60_000);
            long released = 0;
            try (TopicReader releases =
                    new TopicReader(kafka.bootstrapServers(), c.kafka().centroidsTopic())) {
                while (System.currentTimeMillis() < end) {
                    long sampleEnd = Math.min(end, System.currentTimeMillis() + sampleMillis);
                    List<Long> latencies = new ArrayList<>();
                    while (System.currentTimeMillis() < sampleEnd) {
                        releases.poll(
                                Duration.ofMillis(200),
                                r -> latencies.add(latency(r.value(), System.currentTimeMillis())));
                    }
                    if (job.getJobStatus().get().isGloballyTerminalState()) {
                        job.getJobExecutionResult().get(); // throws with the job's failure
                    }
                    released += latencies.size();
                    rows.add(
                            row(
                                    t0,
                                    released,
                                    written.get(),
                                    latencies,
                                    CheckpointStats.fetch(restPort, job.getJobID()),
                                    kafka));
                    System.err.printf("soak: %s%n", rows.get(rows.size() - 1));
                }
            } finally {
                stop.set(true);
                job.cancel();
            }
            producer.join(10_000);
        } catch (Exception e) {
            throw new IllegalStateException("soak failed: " + e.getMessage(), e);
        }
        String report = System.getProperty(REPORT_PROPERTY);
        if (report != null) {
            writeReport(java.nio.file.Path.of(report), rows, minutes);
        }
        return rows;
    }

    /** System property: a directory to write the soak's report (README.md and a PNG) into. */
    public static final String REPORT_PROPERTY = "dpclust.soak.report";

    /** The series the flatness check covers: row key and label. */
    static final Map<String, String> SERIES =
            Map.of(
                    "heap_after_gc_mb", "job JVM heap after GC (MB)",
                    "broker_heap_after_gc_mb", "broker JVM heap after GC (MB)",
                    "checkpoint_kb", "checkpoint size (KB)",
                    "checkpoint_ms", "checkpoint duration (ms)",
                    "latency_ms_mean", "release latency, mean (ms)");

    private static final List<String> SERIES_ORDER =
            List.of(
                    "heap_after_gc_mb",
                    "broker_heap_after_gc_mb",
                    "checkpoint_kb",
                    "checkpoint_ms",
                    "latency_ms_mean");

    /**
     * A series drifts when its fitted change over the second half exceeds this share of its mean.
     */
    static final double FLAT_DRIFT = 0.10;

    /**
     * The flatness check, one row per series: its value at the start (the second sample, after the
     * job's start-up, which the first sample includes) and at the end (the last sample), end/start,
     * and the least-squares slope over the second half of the run (samples at or after half the
     * last sample's time) per minute and as the fitted change over that half relative to the half's
     * mean ({@code drift_pct}); {@code flat} when that change is within {@value #FLAT_DRIFT} of the
     * mean. Samples without a value (no release read in the interval) are skipped.
     */
    static List<Map<String, Object>> flatness(List<Map<String, Object>> rows) {
        List<Map<String, Object>> out = new ArrayList<>();
        double tEnd = ((Number) rows.get(rows.size() - 1).get("minutes")).doubleValue();
        for (String key : SERIES_ORDER) {
            List<double[]> points = new ArrayList<>();
            for (Map<String, Object> r : rows.subList(Math.min(1, rows.size() - 1), rows.size())) {
                double y = ((Number) r.get(key)).doubleValue();
                if (Double.isFinite(y)) {
                    points.add(new double[] {((Number) r.get("minutes")).doubleValue(), y});
                }
            }
            if (points.isEmpty()) {
                continue;
            }
            double start = points.get(0)[1];
            double end = points.get(points.size() - 1)[1];
            List<double[]> half = points.stream().filter(p -> p[0] >= tEnd / 2).toList();
            double mx = half.stream().mapToDouble(p -> p[0]).average().orElse(Double.NaN);
            double my = half.stream().mapToDouble(p -> p[1]).average().orElse(Double.NaN);
            double sxy = 0;
            double sxx = 0;
            for (double[] p : half) {
                sxy += (p[0] - mx) * (p[1] - my);
                sxx += (p[0] - mx) * (p[0] - mx);
            }
            double slope = half.size() >= 2 && sxx > 0 ? sxy / sxx : Double.NaN;
            double span = half.isEmpty() ? 0 : half.get(half.size() - 1)[0] - half.get(0)[0];
            double drift = my != 0 ? slope * span / Math.abs(my) : Double.NaN;
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("series", SERIES.get(key));
            f.put("start", round(start));
            f.put("end", round(end));
            f.put("end_over_start", start != 0 ? round(end / start) : Double.NaN);
            f.put("slope_per_minute_second_half", round(slope));
            f.put("drift_pct_second_half", round(100 * drift));
            f.put(
                    "verdict",
                    Double.isNaN(drift)
                            ? "too few samples"
                            : Math.abs(drift) <= FLAT_DRIFT ? "flat" : "drifts");
            out.add(f);
        }
        return out;
    }

    /** The rows as a Markdown report: three plots over time, the flatness check, the samples. */
    static void writeReport(
            java.nio.file.Path dir, List<Map<String, Object>> rows, double minutes) {
        List<String> columns = new ArrayList<>(rows.get(0).keySet());
        List<List<Object>> cells = new ArrayList<>();
        rows.forEach(r -> cells.add(new ArrayList<>(r.values())));
        List<Map<String, Object>> flat = flatness(rows);
        List<List<Object>> flatCells = new ArrayList<>();
        flat.forEach(r -> flatCells.add(new ArrayList<>(r.values())));
        new org.dpclust.eval.ReportWriter(dir, "Soak: the live streaming job over time")
                .recordCommand(
                        "java -Xmx1g -D"
                                + REPORT_PROPERTY
                                + "=docs/results/soak -jar target/dpclust.jar bench soak --minutes "
                                + minutes
                                + " --json")
                .recordNote(
                        "KRaft broker (io/EmbeddedKafka) in a JVM of its own (-Xmx384m), so that"
                                + " this JVM's heap is the job's: Flink MiniCluster (parallelism"
                                + " 1, exactly-once checkpoints every 1 s, hashmap state on local"
                                + " disk), the generator and the release reader; 2 streams, 1,000"
                                + " records/s in all, 2 s windows on the log append-time clock,"
                                + " max_lateness 1 s. Heap is each JVM's used heap after a full"
                                + " GC. Checkpoint figures come from Flink's REST API (GET"
                                + " /jobs/:jobid/checkpoints): the latest completed checkpoint's"
                                + " state_size and the mean end_to_end_duration of the completed"
                                + " checkpoints in its history (the last 10). Latency runs from a"
                                + " window's earliest close (end + max_lateness) to its read by a"
                                + " read_committed consumer.")
                .recordNote(
                        "Flatness: start is the second sample (the first includes the job's"
                                + " start-up), end the last; the slope is a least-squares fit over"
                                + " the second half of the run, and drift_pct is the fitted change"
                                + " over that half relative to its mean; a series is flat when"
                                + " |drift| <= "
                                + Math.round(100 * FLAT_DRIFT)
                                + " %.")
                .addTable(
                        "Flatness check",
                        flat.isEmpty() ? List.of("series") : new ArrayList<>(flat.get(0).keySet()),
                        flatCells)
                .addLinePlot(
                        "soak-memory.png",
                        "Heap after GC over time: the job's JVM and the broker's",
                        "minutes",
                        "MB",
                        plot(rows, "heap_after_gc_mb", "broker_heap_after_gc_mb"),
                        false)
                .addLinePlot(
                        "soak-checkpoints.png",
                        "Checkpoint size and duration over time",
                        "minutes",
                        "KB (size) / ms (duration)",
                        plot(rows, "checkpoint_kb", "checkpoint_ms"),
                        false)
                .addLinePlot(
                        "soak-latency.png",
                        "Release latency over time (per sample)",
                        "minutes",
                        "ms after the window's earliest close",
                        plot(rows, "latency_ms_mean", "latency_ms_max"),
                        false)
                .addTable("Samples", columns, cells)
                .write();
    }

    private static Map<String, double[][]> plot(List<Map<String, Object>> rows, String... keys) {
        double[] t = column(rows, "minutes");
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (String k : keys) {
            series.put(
                    SERIES.getOrDefault(k, "release latency, max (ms)"),
                    new double[][] {t, column(rows, k)});
        }
        return series;
    }

    private static double[] column(List<Map<String, Object>> rows, String key) {
        return rows.stream().mapToDouble(r -> ((Number) r.get(key)).doubleValue()).toArray();
    }

    private static long latency(byte[] value, long now) {
        try {
            CentroidRelease r = AvroCodec.centroids().decode(value);
            long close = r.getWindowEnd().toEpochMilli() + MAX_LATENESS;
            return now - close;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("undecodable release", e);
        }
    }

    private static Map<String, Object> row(
            long t0,
            long released,
            long written,
            List<Long> latencies,
            CheckpointStats checkpoints,
            SoakBroker broker)
            throws java.io.IOException {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "soak");
        row.put("minutes", round((System.currentTimeMillis() - t0) / 60_000.0));
        row.put("records_written", written);
        row.put("releases", released);
        row.put("heap_after_gc_mb", round(heap / 1048576.0));
        row.put("broker_heap_after_gc_mb", round(broker.heapAfterGc() / 1048576.0));
        row.put("checkpoints", checkpoints.completed());
        row.put("checkpoint_kb", round(checkpoints.stateSizeBytes() / 1024.0));
        row.put("checkpoint_ms", round(checkpoints.durationMillis()));
        row.put(
                "latency_ms_mean",
                latencies.isEmpty()
                        ? Double.NaN
                        : round(latencies.stream().mapToLong(Long::longValue).average().orElse(0)));
        row.put(
                "latency_ms_max",
                latencies.isEmpty()
                        ? -1L
                        : latencies.stream().mapToLong(Long::longValue).max().orElse(0));
        return BenchEnvironment.withMachine(row);
    }

    /**
     * A MiniCluster for a live job in this JVM: small managed memory, {@code network} of network
     * memory, no restarts, its REST API on 127.0.0.1:{@code restPort}, checkpoints in a new
     * temporary directory.
     */
    static Configuration liveCluster(int restPort, String network, String checkpointsPrefix)
            throws java.io.IOException {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("32m"));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse(network));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse(network));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, restPort);
        java.nio.file.Path checkpoints = java.nio.file.Files.createTempDirectory(checkpointsPrefix);
        conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        return conf;
    }

    static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static double round(double x) {
        return Math.round(x * 100) / 100.0;
    }

    /** Two 2-d streams, 2 s windows, live on the append clock from {@code start}. */
    private static DpclustConfig config(SoakBroker kafka, long start) {
        DpclustConfig c =
                ConfigLoader.parse(
                        """
                        kafka:
                          bootstrap_servers: "%s"
                          topics: {input: soak.in, centroids: soak.centroids, sketches: soak.sketches, budget: soak.budget, dlq: soak.dlq}
                          group_id: soak
                          transactional_id_prefix: soak
                          transaction_timeout: PT2M
                          starting_offsets: earliest
                        job:
                          checkpoint_interval: PT1S
                          max_out_of_orderness: PT1S
                          bounded_input: false
                          parallelism: 1
                          max_lateness: PT1S
                          max_future: PT1S
                          start: "%s"
                        streams:
                          - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT2S,
                             epsilon_per_release: 1.0, budget_cap: 1000000, public_seed: 1}
                          - {id: b, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT2S,
                             epsilon_per_release: 1.0, budget_cap: 1000000, public_seed: 2}
                        """
                                .formatted(kafka.bootstrapServers(), Instant.ofEpochMilli(start)));
        TopicAdmin.ensureTopics(c.kafka(), 1);
        return c;
    }

    /** Writes {@value #RATE} records/s, half per stream, event time now, until stopped. */
    private static void produce(
            SoakBroker kafka, DpclustConfig c, long start, AtomicBoolean stop, AtomicLong n) {
        SplittableRandom r = new SplittableRandom(7);
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            long next = Math.max(start, System.currentTimeMillis());
            while (!stop.get()) {
                long now = System.currentTimeMillis();
                if (now < next) {
                    Thread.sleep(Math.min(50, next - now));
                    continue;
                }
                for (int i = 0; i < RATE / 10; i++) { // one tenth of a second's records
                    String s = i % 2 == 0 ? "a" : "b";
                    double cx = (i % 3) / 3.0 + 0.15;
                    p.send(
                            s,
                            "d" + (i % 100),
                            System.currentTimeMillis(),
                            new double[] {
                                cx + 0.03 * r.nextGaussian(), 0.5 + 0.03 * r.nextGaussian()
                            });
                }
                n.addAndGet(RATE / 10);
                next += 100;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
