package org.dpclust.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.avro.BudgetEventKind;
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
 * {@code fleet}: one live streaming job for a fleet of N streams (a stream set, stats only, d = 2,
 * 10-s windows, max_lateness 2 s, max_out_of_orderness 1 s, parallelism 2, exactly-once checkpoints
 * every 2 s ({@code -Ddpclust.fleet.checkpoint=PT1S}: another interval), a budget topic of 4
 * partitions) on a MiniCluster in this JVM against a KRaft broker in a JVM of its own ({@link
 * SoakBroker}); the schedule ({@code job.start}) begins on a window boundary 20-30 s after the
 * broker is up (quick mode: 0-10 s), and from then on every stream gets one record per second on
 * the log append-time clock. Per N (default 100 and 1,000; {@code
 * -Ddpclust.fleet.streams=100,1000,10000}), for {@code -Ddpclust.fleet.minutes} (default 3):
 *
 * <ul>
 *   <li>{@code startup_s}: from submission to the first completed checkpoint (every task running);
 *   <li>{@code windows}: scheduled stream windows (from {@code job.start}) whose close (end +
 *       max_lateness 2 s + max_out_of_orderness 1 s: the instant docs/event-time.md defines, from
 *       which the job may release) falls after start-up and 10 s before the end; {@code released}
 *       and {@code on_time} (read by a {@code read_committed} consumer within 5 s of the close) as
 *       fractions of them; {@code lag_p50_ms}, {@code lag_p99_ms}: from the close to the read, over
 *       the releases read (-1 if none);
 *   <li>{@code charges_per_s}: CHARGE records on the budget topic per second of the run;
 *   <li>{@code heap_per_stream_kb}: this JVM's heap after GC at the end (job, generator, reader)
 *       minus before the job, over N; {@code threads}: this JVM's live threads minus before; {@code
 *       broker_connections}: established TCP connections from this machine to the broker's port at
 *       the end ({@code /proc/net/tcp}); {@code job}: RUNNING, or why it is not.
 * </ul>
 *
 * Quick mode: 10 streams for 45 s. Fixed seeds and a fixed test secret.
 */
public final class FleetBenchmark implements Benchmark {
    private static final long W = 10_000;
    private static final long LATENESS = 2_000;
    private static final long OUT_OF_ORDERNESS = 1_000;

    /** A window's close: its end + max_lateness + max_out_of_orderness (docs/event-time.md). */
    private static final long CLOSE_AFTER_END = LATENESS + OUT_OF_ORDERNESS;

    private static final long ON_TIME = 5_000;
    private static final int BUDGET_PARTITIONS = 4;

    @Override
    public String name() {
        return "fleet";
    }

    @Override
    public String description() {
        return "N streams in one live job (p = 2, 10-s windows): start-up, windows released on time,"
                + " lag p50/p99, charges/s, heap per stream, threads, broker connections.";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        int[] fleet =
                quick
                        ? new int[] {10}
                        : Arrays.stream(
                                        System.getProperty("dpclust.fleet.streams", "100,1000")
                                                .split(","))
                                .mapToInt(s -> Integer.parseInt(s.trim()))
                                .toArray();
        double minutes =
                quick ? 0.75 : Double.parseDouble(System.getProperty("dpclust.fleet.minutes", "3"));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int n : fleet) {
            rows.add(fleet(n, Math.round(minutes * 60_000), quick ? 1 : 3));
            System.err.printf("fleet: %s%n", rows.get(rows.size() - 1));
        }
        return rows;
    }

    private Map<String, Object> fleet(int n, long runMillis, int leadWindows) {
        try (SoakBroker kafka = SoakBroker.start()) {
            // the schedule starts on a window boundary 20-30 s ahead (quick mode: 0-10 s, its run
            // is 45 s), so windows begin once the job runs (start-up is its own column), and
            // records arrive from the schedule's start
            long start = Math.floorDiv(System.currentTimeMillis(), W) * W + leadWindows * W;
            DpclustConfig c = config(kafka, start, n);
            // the harness's own table of read times, allocated before the baseline: the heap
            // per stream is the job's (and the generator's), not the bookkeeping's
            LagTable lags = new LagTable(n, start, runMillis);
            AvroCodec<CentroidRelease> codec = AvroCodec.centroids();
            long heap0 = heapAfterGc();
            int threads0 = ManagementFactory.getThreadMXBean().getThreadCount();
            AtomicBoolean stop = new AtomicBoolean();
            Thread producer = new Thread(() -> produce(kafka, c, n, start, stop), "fleet-producer");
            producer.setDaemon(true);
            producer.start();
            int restPort = SoakBenchmark.freePort();
            Configuration conf = SoakBenchmark.liveCluster(restPort, "64m", "fleet-checkpoints");
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(2, conf);
            long submitted = System.currentTimeMillis();
            System.err.printf("fleet: %d streams, submitting%n", n);
            JobClient job =
                    new StreamingJob(
                                    KafkaEndpoints.source(c),
                                    KafkaEndpoints.sink(c),
                                    c,
                                    PipelineBenchmark.benchSecret(),
                                    Map.of())
                            .executeAsync(env);
            long end = submitted + runMillis;
            long started = -1;
            String status = "RUNNING";
            try (TopicReader releases =
                    new TopicReader(kafka.bootstrapServers(), c.kafka().centroidsTopic())) {
                long progress = System.currentTimeMillis();
                while (System.currentTimeMillis() < end) {
                    releases.poll(
                            Duration.ofMillis(200),
                            r -> {
                                CentroidRelease rel = decode(codec, r.value());
                                lags.read(
                                        rel.getStreamId(),
                                        rel.getWindowEnd().toEpochMilli(),
                                        System.currentTimeMillis());
                            });
                    if (started < 0
                            && CheckpointStats.fetch(restPort, job.getJobID()).completed() > 0) {
                        started = System.currentTimeMillis();
                    }
                    if (job.getJobStatus().get().isGloballyTerminalState()) {
                        status = "ended: " + failure(job);
                        break;
                    }
                    if (System.currentTimeMillis() - progress > 15_000) {
                        progress = System.currentTimeMillis();
                        System.err.printf(
                                "fleet: %d streams, %d s, %d releases read%n",
                                n, (progress - submitted) / 1000, lags.reads());
                    }
                }
            } finally {
                stop.set(true);
            }
            long heap = heapAfterGc();
            int threads = ManagementFactory.getThreadMXBean().getThreadCount();
            int connections = connections(kafka.bootstrapServers());
            long charges = charges(kafka, c);
            try {
                job.cancel().get();
            } catch (Exception ignored) {
                // already ended
            }
            producer.join(10_000);
            return row(
                    n,
                    submitted,
                    started,
                    start,
                    end,
                    lags,
                    charges,
                    runMillis,
                    heap - heap0,
                    threads - threads0,
                    connections,
                    status);
        } catch (Exception e) {
            throw new IllegalStateException("fleet failed: " + e.getMessage(), e);
        }
    }

    private Map<String, Object> row(
            int n,
            long submitted,
            long started,
            long scheduleStart,
            long end,
            LagTable lags,
            long charges,
            long runMillis,
            long heap,
            int threads,
            int connections,
            String status) {
        // windows the job schedules (from job.start) that close once it runs
        long from = started < 0 ? end : Math.max(started, scheduleStart + W);
        int windows = 0;
        int released = 0;
        int onTime = 0;
        List<Long> measured = new ArrayList<>();
        for (long close = Math.floorDiv(from, W) * W + CLOSE_AFTER_END;
                close <= end - 10_000;
                close += W) {
            if (close < from) {
                continue;
            }
            for (int s = 0; s < n; s++) {
                windows++;
                long lag = lags.lag(s, close - CLOSE_AFTER_END);
                if (lag != LagTable.UNREAD) {
                    released++;
                    measured.add(lag);
                    if (lag <= ON_TIME) {
                        onTime++;
                    }
                }
            }
        }
        measured.sort(Long::compare);
        System.err.printf(
                "fleet: %d streams, lag by window close (s after start: p50 p99 max ms)%n", n);
        for (long close = Math.floorDiv(from, W) * W + CLOSE_AFTER_END;
                close <= end - 10_000;
                close += W) {
            if (close < from) {
                continue;
            }
            List<Long> at = new ArrayList<>();
            for (int s = 0; s < n; s++) {
                long lag = lags.lag(s, close - CLOSE_AFTER_END);
                if (lag != LagTable.UNREAD) {
                    at.add(lag);
                }
            }
            at.sort(Long::compare);
            System.err.printf(
                    "  %4d s: %6d %6d %6d (%d read)%n",
                    (close - scheduleStart) / 1000,
                    percentile(at, 0.5),
                    percentile(at, 0.99),
                    at.isEmpty() ? -1 : at.get(at.size() - 1),
                    at.size());
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", name());
        row.put("streams", n);
        row.put("startup_s", started < 0 ? -1 : round((started - submitted) / 1000.0));
        row.put("windows", windows);
        row.put("released", windows == 0 ? 0 : round((double) released / windows));
        row.put("on_time", windows == 0 ? 0 : round((double) onTime / windows));
        row.put("lag_p50_ms", percentile(measured, 0.50));
        row.put("lag_p99_ms", percentile(measured, 0.99));
        row.put("charges_per_s", round(charges * 1000.0 / runMillis));
        row.put("heap_per_stream_kb", round(heap / 1024.0 / n));
        row.put("threads", threads);
        row.put("broker_connections", connections);
        row.put("job", status);
        return BenchEnvironment.withMachine(row);
    }

    private static long percentile(List<Long> sorted, double q) {
        if (sorted.isEmpty()) {
            return -1;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }

    private static String id(int s) {
        return String.format("s%05d", s);
    }

    private static CentroidRelease decode(AvroCodec<CentroidRelease> codec, byte[] value) {
        try {
            return codec.decode(value);
        } catch (IOException e) {
            throw new IllegalStateException("undecodable release", e);
        }
    }

    private static String failure(JobClient job) {
        try {
            job.getJobExecutionResult().get();
            return "finished";
        } catch (Exception e) {
            Throwable t = e;
            while (t.getCause() != null) {
                t = t.getCause();
            }
            return t.getClass().getSimpleName() + ": " + t.getMessage();
        }
    }

    /** CHARGE records on the budget topic. */
    private static long charges(SoakBroker kafka, DpclustConfig c) {
        long[] n = {0};
        AvroCodec<org.dpclust.avro.BudgetStatus> codec = AvroCodec.budget();
        try (TopicReader r = new TopicReader(kafka.bootstrapServers(), c.kafka().budgetTopic())) {
            r.readToEnd(
                    Duration.ofSeconds(600),
                    rec -> {
                        try {
                            if (codec.decode(rec.value()).getKind() == BudgetEventKind.CHARGE) {
                                n[0]++;
                            }
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    });
        }
        return n[0];
    }

    /** Established TCP connections to the broker's port ({@code /proc/net/tcp}, tcp6). */
    static int connections(String bootstrap) throws IOException {
        int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
        String hex = String.format(":%04X", port);
        int n = 0;
        for (String f : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(f);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p)) {
                String[] cols = line.trim().split("\\s+");
                // sl local_address rem_address st ...: st 01 = ESTABLISHED
                if (cols.length > 3 && cols[2].endsWith(hex) && "01".equals(cols[3])) {
                    n++;
                }
            }
        }
        return n;
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double round(double x) {
        return Math.round(x * 100) / 100.0;
    }

    /** N streams s00000.. as one stream set, live on the append clock from {@code start}. */
    private static DpclustConfig config(SoakBroker kafka, long start, int n) {
        DpclustConfig c =
                ConfigLoader.parse(
                        """
                        kafka:
                          bootstrap_servers: "%s"
                          topics: {input: fleet.in, centroids: fleet.centroids, sketches: fleet.sketches, budget: fleet.budget, dlq: fleet.dlq}
                          group_id: fleet
                          transactional_id_prefix: fleet
                          transaction_timeout: PT5M
                          starting_offsets: earliest
                        job:
                          checkpoint_interval: %s
                          max_out_of_orderness: PT%dS
                          bounded_input: false
                          parallelism: 2
                          max_lateness: PT2S
                          max_future: PT2S
                          start: "%s"
                        streams:
                          - ids: {prefix: s, from: 0, to: %d, digits: 5}
                            dimension: 2
                            lower: [0, 0]
                            upper: [1, 1]
                            k: 2
                            window: PT10S
                            epsilon_per_release: 0.5
                            budget_cap: 1000000
                            summaries: [stats]
                        """
                                .formatted(
                                        kafka.bootstrapServers(),
                                        System.getProperty("dpclust.fleet.checkpoint", "PT2S"),
                                        OUT_OF_ORDERNESS / 1000,
                                        Instant.ofEpochMilli(start),
                                        n - 1));
        TopicAdmin.ensureTopics(c.kafka(), 2, BUDGET_PARTITIONS);
        return c;
    }

    /** One record per stream and second from {@code start}, event time now, until stopped. */
    private static void produce(
            SoakBroker kafka, DpclustConfig c, int n, long start, AtomicBoolean stop) {
        SplittableRandom r = new SplittableRandom(7);
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            long next = start;
            while (!stop.get()) {
                long now = System.currentTimeMillis();
                if (now < next) {
                    Thread.sleep(Math.min(50, next - now));
                    continue;
                }
                for (int s = 0; s < n; s++) {
                    p.send(
                            id(s),
                            "d" + s,
                            System.currentTimeMillis(),
                            new double[] {0.3 + 0.05 * r.nextGaussian(), 0.6});
                }
                next += 1_000;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * When each (stream, window) release was first read, by stream index and window number from the
     * schedule's start: one preallocated array, so that reading 10,000 streams' releases for
     * minutes adds nothing to the heap the row measures.
     */
    static final class LagTable {
        static final long UNREAD = Long.MIN_VALUE;
        private final long start;
        private final int windows;
        private final long[] readAt;
        private int reads;

        LagTable(int streams, long start, long runMillis) {
            this.start = start;
            this.windows = (int) (runMillis / W) + 4;
            this.readAt = new long[streams * windows];
            Arrays.fill(readAt, UNREAD);
        }

        /** Records the first read of stream {@code id}'s window ending at {@code end}. */
        void read(String id, long end, long now) {
            int s = Integer.parseInt(id.substring(1));
            long k = (end - start) / W - 1;
            if (k < 0 || k >= windows || s < 0 || s * windows >= readAt.length) {
                return;
            }
            int i = s * windows + (int) k;
            if (readAt[i] == UNREAD) {
                readAt[i] = now;
                reads++;
            }
        }

        /** Read time minus {@code end} + the close offset, or {@link #UNREAD}. */
        long lag(int s, long end) {
            long k = (end - start) / W - 1;
            if (k < 0 || k >= windows) {
                return UNREAD;
            }
            long at = readAt[s * windows + (int) k];
            return at == UNREAD ? UNREAD : at - (end + CLOSE_AFTER_END);
        }

        int reads() {
            return reads;
        }
    }
}
