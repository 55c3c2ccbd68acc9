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
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.EmbeddedKafka;
import org.dpclust.io.TelemetryProducer;
import org.dpclust.io.TopicAdmin;
import org.dpclust.io.TopicReader;
import org.dpclust.jobs.KafkaEndpoints;
import org.dpclust.jobs.StreamingJob;

/**
 * {@code soak}: the streaming job live for a fixed time (default 10 minutes, {@code bench soak
 * --minutes N}; 15 s with {@code --quick}) on the in-process broker and a MiniCluster in this JVM:
 * two streams at a fixed rate (1,000 records/s in all) on the log append-time clock, 2 s windows,
 * exactly-once checkpoints every second. Every 30 s (2 s quick) one row: minutes elapsed, windows
 * released so far, heap used after a full GC (this JVM: broker, job and generator), the latest
 * retained checkpoint's number and size on disk (its duration is not measured here), and the
 * end-to-end release latency of the releases read in that interval — from the earliest moment the
 * window could close on the append clock (its end + max_lateness) to when a {@code read_committed}
 * consumer read it (mean and max). A job that keeps state per window, or leaks per release, shows
 * as growth down the rows. Fixed seeds and a fixed test secret.
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
                quick ? 0.25 : Double.parseDouble(System.getProperty(MINUTES_PROPERTY, "10"));
        long sampleMillis = quick ? 2_000 : 30_000;
        List<Map<String, Object>> rows = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            long start = Math.floorDiv(System.currentTimeMillis(), W) * W + 2 * W;
            DpclustConfig c = config(kafka, start);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong written = new AtomicLong();
            Thread producer =
                    new Thread(() -> produce(kafka, c, start, stop, written), "soak-producer");
            producer.setDaemon(true);
            producer.start();
            Configuration conf = new Configuration();
            conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("32m"));
            conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("32m"));
            conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("32m"));
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            java.nio.file.Path checkpoints =
                    java.nio.file.Files.createTempDirectory("soak-checkpoints");
            conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
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
                    rows.add(row(t0, released, written.get(), latencies, checkpoints));
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

    /** The rows as a Markdown report with one plot of the four series over time. */
    static void writeReport(
            java.nio.file.Path dir, List<Map<String, Object>> rows, double minutes) {
        List<String> columns = new ArrayList<>(rows.get(0).keySet());
        List<List<Object>> cells = new ArrayList<>();
        rows.forEach(r -> cells.add(new ArrayList<>(r.values())));
        double[] t = rows.stream().mapToDouble(r -> (double) r.get("minutes")).toArray();
        Map<String, double[][]> memory = new LinkedHashMap<>();
        memory.put("heap after GC (MB)", new double[][] {t, column(rows, "heap_after_gc_mb")});
        memory.put("checkpoint size (KB)", new double[][] {t, column(rows, "checkpoint_kb")});
        Map<String, double[][]> latency = new LinkedHashMap<>();
        latency.put("mean", new double[][] {t, column(rows, "latency_ms_mean")});
        latency.put("max", new double[][] {t, column(rows, "latency_ms_max")});
        new org.dpclust.eval.ReportWriter(dir, "Soak: the live streaming job over time")
                .recordCommand(
                        "java -Xmx1g -D"
                                + REPORT_PROPERTY
                                + "=docs/results/soak -jar target/dpclust.jar bench soak --minutes "
                                + minutes
                                + " --json")
                .recordNote(
                        "In-process KRaft broker, Flink MiniCluster (parallelism 1, exactly-once"
                                + " checkpoints every 1 s, hashmap state on local disk) and the"
                                + " generator in one"
                                + " JVM; 2 streams, 1,000 records/s in all, 2 s windows on the log"
                                + " append-time clock, max_lateness 1 s. Heap is this JVM's after a"
                                + " full GC; checkpoint size is the latest retained checkpoint's"
                                + " bytes on disk (its duration is not measured); latency runs from"
                                + " a window's"
                                + " earliest close (end + max_lateness) to its read by a"
                                + " read_committed consumer.")
                .addLinePlot(
                        "soak-memory.png",
                        "Heap after GC and checkpoint size over time",
                        "minutes",
                        "MB (heap) / KB (checkpoint)",
                        memory,
                        false)
                .addLinePlot(
                        "soak-latency.png",
                        "Release latency over time (per 30 s sample)",
                        "minutes",
                        "ms after the window's earliest close",
                        latency,
                        false)
                .addTable("Samples", columns, cells)
                .write();
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
            java.nio.file.Path checkpoints) {
        long[] latest = latestCheckpoint(checkpoints);
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "soak");
        row.put("minutes", round((System.currentTimeMillis() - t0) / 60_000.0));
        row.put("records_written", written);
        row.put("releases", released);
        row.put("heap_after_gc_mb", round(heap / 1048576.0));
        row.put("checkpoints", latest[0]);
        row.put("checkpoint_kb", round(latest[1] / 1024.0));
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
     * The latest retained checkpoint under the job's checkpoint directory ({@code
     * <dir>/<job>/chk-N}): {N, its size in bytes on disk}; {-1, 0} before the first.
     */
    private static long[] latestCheckpoint(java.nio.file.Path dir) {
        long[] best = {-1, 0};
        try (var files = java.nio.file.Files.walk(dir, 2)) {
            for (java.nio.file.Path chk : files.toList()) {
                String n = chk.getFileName().toString();
                if (n.startsWith("chk-") && java.nio.file.Files.isDirectory(chk)) {
                    long id = Long.parseLong(n.substring(4));
                    if (id > best[0]) {
                        try (var content = java.nio.file.Files.walk(chk)) {
                            long size =
                                    content.filter(java.nio.file.Files::isRegularFile)
                                            .mapToLong(f -> f.toFile().length())
                                            .sum();
                            best = new long[] {id, size};
                        }
                    }
                }
            }
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            // a checkpoint removed while it was read: keep what was found
        }
        return best;
    }

    private static double round(double x) {
        return Math.round(x * 100) / 100.0;
    }

    /** Two 2-d streams, 2 s windows, live on the append clock from {@code start}. */
    private static DpclustConfig config(EmbeddedKafka kafka, long start) {
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
                          idle_timeout: PT5S
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
            EmbeddedKafka kafka, DpclustConfig c, long start, AtomicBoolean stop, AtomicLong n) {
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
