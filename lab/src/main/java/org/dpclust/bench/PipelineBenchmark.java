package org.dpclust.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.flink.util.FileUtils;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.InputFormat;
import org.dpclust.config.InputTopic;
import org.dpclust.config.KafkaConnection;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.StandInRegistry;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.InputDecoders;
import org.dpclust.io.RawRecord;
import org.dpclust.jobs.KafkaEndpoints;
import org.dpclust.jobs.NonPrivateMeanTopology;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.stream.LatenessFilter;
import org.dpclust.stream.SketchDecoder;
import org.dpclust.stream.StreamClusteringFunction;
import org.dpclust.stream.SubStreamKey;
import org.dpclust.window.ValidRecord;

/**
 * End to end, Kafka → Flink → Kafka, exactly-once, on the real in-process broker ({@link
 * EmbeddedKafka}) and a Flink local MiniCluster in this JVM. The input topic is filled before each
 * job starts (the generator does not compete), and every job reads it to its end (bounded source)
 * and finishes.
 *
 * <ul>
 *   <li>{@code pipeline}: 10 streams, d = 10, k = 10, all three summaries (stats, ckm with m = 1000
 *       and r = 100, dp-hst with |U| = 4096) with the default options, at parallelism 1 and 2;
 *   <li>{@code pipeline-stats}, {@code pipeline-ckm} ({@code ckm.warm_start}), {@code
 *       pipeline-dp-hst}: each summary alone; {@code pipeline-fast}: all three with that option
 *       ({@link #VARIANTS}; columns {@code summaries}, {@code hst_snap}, {@code ckm_warm_start});
 *   <li>the same five with device units ({@code pipeline-device}, {@code pipeline-stats-device}, …:
 *       {@code privacy_unit: device}, {@code device_contribution_bound} {@value #DEVICE_BOUND},
 *       pre-aggregated in phase 1 like record units), each with {@code fraction_of_record_units}:
 *       its rate over the record-unit row of the same summaries in this run. The generator cycles
 *       1,000 devices per stream, so at the full size a device sends 100 records per window, of
 *       which {@value #DEVICE_BOUND} count;
 *   <li>{@code pipeline-nonprivate}: the same input, ingestion and sink with a non-private keyed
 *       tumbling window mean in place of the summaries, at the same parallelisms — {@code
 *       fraction_of_nonprivate} on the private rows is the ratio of the two in this run;
 *   <li>{@code pipeline-fast-long} beside {@code pipeline-nonprivate-long}: {@code pipeline-fast}
 *       and the baseline at p = 2 on an input with 6 windows per stream (3 in quick mode) of the
 *       same size instead of 2, so that steady state — every ckm decode after a stream's first
 *       window starts warm — dominates instead of half of the decodes being cold first windows;
 *   <li>{@code pipeline-hot-stream}: one stream carrying all records at parallelism 2, with {@code
 *       salt_buckets} 1 and 4 ({@code subtasks_used}: how many phase-1 subtasks its sub-keys land
 *       on).
 * </ul>
 *
 * Checkpoints (every second, exactly-once) go to a temporary directory, file system checkpoint
 * storage as in a deployment. Timing: from the first record the source deserializes to the job's
 * result (the job finished, its final checkpoint committed the output transactions); deployment is
 * excluded. The broker runs on the same cores as the job. Rows: benchmark, parallelism, streams,
 * salt_buckets, records, late_records (must be 0), seconds, records_per_second, stream_windows,
 * release_seconds and decode_seconds (private rows: windows released, the time the keyed operator
 * spent releasing them — ledger, noise, HST search — and the time the ckm decoder spent on CL-OMPR,
 * each summed over subtasks; at the end of a bounded input all of them fall after the last record),
 * fraction_of_nonprivate, cores, jvm. Fixed public seeds and a fixed test secret.
 */
public final class PipelineBenchmark implements Benchmark {
    private static final long START = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final AtomicLong FIRST_RECORD = new AtomicLong();

    /** Sizes of one run of the benchmark. */
    record Size(
            int streams,
            int windows,
            int perWindow,
            int hotWindows,
            int hotPerWindow,
            int m,
            int r,
            int universe,
            int longWindows) {
        /** The same sizes with {@code windows} windows per stream (the hot stream's too). */
        Size withWindows(int w) {
            return new Size(streams, w, perWindow, w, hotPerWindow, m, r, universe, longWindows);
        }
    }

    /**
     * Full run: 100,000 records per stream and window — the target rate, 100,000 records/s over 10
     * streams, puts 100,000 records in each stream's 10 s window — so the per-window release work
     * (ckm decoding above all) weighs what it would at that rate: 2,000,000 records in all.
     */
    static final Size FULL = new Size(10, 2, 100_000, 2, 100_000, 1000, 100, 4096, 6);

    static final Size QUICK = new Size(10, 1, 100, 1, 200, 100, 10, 256, 3);

    @Override
    public String name() {
        return "pipeline";
    }

    @Override
    public String description() {
        return "End-to-end Kafka -> Flink -> Kafka records/s, exactly-once: all summaries vs a non-private mean "
                + "at parallelism 1 and 2, and one hot stream with salt_buckets 1 vs 4.";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        Size size = quick ? QUICK : FULL;
        List<Map<String, Object>> rows = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String input = "bench.streams.in";
            DpclustConfig fill = config(kafka, input, "fill", size.streams(), size, 1, 1);
            long records = fill(kafka, fill, size.windows(), size.perWindow());
            for (int p : new int[] {1, 2}) {
                // the private rows first: the first job of the JVM also warms up Kafka and Flink,
                // and the non-private baseline should not carry that (as before these rows)
                List<Map<String, Object>> privateRows = new ArrayList<>();
                for (Variant v : VARIANTS) {
                    Map<String, Object> rec = runVariant(kafka, input, size, p, v, records);
                    Map<String, Object> dev =
                            runVariant(kafka, input, size, p, v.withDevices(), records);
                    putRatio(dev, "fraction_of_record_units", rec);
                    privateRows.add(rec);
                    privateRows.add(dev);
                }
                Map<String, Object> plain =
                        run(
                                kafka,
                                config(kafka, input, "plain-p" + p, size.streams(), size, p, 1),
                                "pipeline-nonprivate",
                                true,
                                records,
                                size.windows());
                for (Map<String, Object> priv : privateRows) {
                    putRatio(priv, "fraction_of_nonprivate", plain);
                    rows.add(BenchEnvironment.withMachine(priv));
                }
                rows.add(BenchEnvironment.withMachine(plain));
            }
            // steady state: the same streams with more windows each, so that the first (cold)
            // window of each stream no longer makes half of the ckm decodes
            Size longSize = size.withWindows(size.longWindows());
            String longInput = "bench.long.in";
            long longRecords =
                    fill(
                            kafka,
                            config(kafka, longInput, "long-fill", size.streams(), longSize, 1, 1),
                            longSize.windows(),
                            longSize.perWindow());
            Map<String, Object> fastLong =
                    runVariant(kafka, longInput, longSize, 2, FAST_LONG, longRecords);
            Map<String, Object> plainLong =
                    run(
                            kafka,
                            config(
                                    kafka,
                                    longInput,
                                    "plain-long-p2",
                                    size.streams(),
                                    longSize,
                                    2,
                                    1),
                            "pipeline-nonprivate-long",
                            true,
                            longRecords,
                            longSize.windows());
            putRatio(fastLong, "fraction_of_nonprivate", plainLong);
            rows.add(BenchEnvironment.withMachine(fastLong));
            rows.add(BenchEnvironment.withMachine(plainLong));
            String hotInput = "bench.hot.in";
            DpclustConfig hotFill = config(kafka, hotInput, "hot-fill", 1, size, 1, 1);
            long hotRecords = fill(kafka, hotFill, size.hotWindows(), size.hotPerWindow());
            for (int salt : new int[] {1, 4}) {
                DpclustConfig c = config(kafka, hotInput, "hot-s" + salt, 1, size, 2, salt);
                Map<String, Object> row =
                        run(kafka, c, "pipeline-hot-stream", false, hotRecords, size.hotWindows());
                row.put("subtasks_used", subtasksUsed(c.streams().get(0), 2));
                rows.add(BenchEnvironment.withMachine(row));
            }
            rows.addAll(inputFormatRows(kafka, size, records));
        }
        return rows;
    }

    private static String input(InputFormat f) {
        return f == InputFormat.AVRO_SINGLE_OBJECT
                ? "bench.streams.in"
                : "bench.streams." + f.wireName();
    }

    /**
     * {@code pipeline-input}: the stats-only pipeline at p = 2 on the same records written as
     * dpclust's Avro, as JSON in the default mapping's shape and framed for a (stand-in) registry,
     * in two alternating rounds; each format's row is its better run ({@code
     * runs_records_per_second} lists both), the others' {@code fraction_of_avro} its rate over
     * Avro's.
     */
    private static List<Map<String, Object>> inputFormatRows(
            EmbeddedKafka kafka, Size size, long avroRecords) {
        Variant stats = new Variant("pipeline-input", "[stats]", "pivot", false);
        List<Map<String, Object>> out = new ArrayList<>();
        try (StandInRegistry registry = new StandInRegistry()) {
            Map<InputFormat, Long> records = new java.util.EnumMap<>(InputFormat.class);
            for (InputFormat f : InputFormat.values()) {
                records.put(
                        f,
                        f == InputFormat.AVRO_SINGLE_OBJECT
                                ? avroRecords
                                : fill(
                                        kafka,
                                        config(
                                                kafka,
                                                input(f),
                                                f.wireName() + "-fill",
                                                size.streams(),
                                                size,
                                                1,
                                                1,
                                                stats,
                                                f,
                                                registry.url()),
                                        size.windows(),
                                        size.perWindow()));
            }
            // two rounds, formats alternating, the better run of each kept: one run's rate moves by
            // a third with what else the host does
            Map<InputFormat, Map<String, Object>> best = new java.util.EnumMap<>(InputFormat.class);
            Map<InputFormat, List<Double>> rates = new java.util.EnumMap<>(InputFormat.class);
            for (int round = 0; round < 2; round++) {
                for (InputFormat f : InputFormat.values()) {
                    DpclustConfig c =
                            config(
                                    kafka,
                                    input(f),
                                    "input-" + f.wireName() + "-" + round,
                                    size.streams(),
                                    size,
                                    2,
                                    1,
                                    stats,
                                    f,
                                    registry.url());
                    Map<String, Object> row =
                            run(kafka, c, stats.benchmark(), false, records.get(f), size.windows());
                    double rate = (double) row.get("records_per_second");
                    rates.computeIfAbsent(f, k -> new ArrayList<>()).add(rate);
                    Map<String, Object> kept = best.get(f);
                    if (kept == null || rate > (double) kept.get("records_per_second")) {
                        best.put(f, row);
                    }
                }
            }
            for (InputFormat f : InputFormat.values()) {
                Map<String, Object> row = best.get(f);
                row.put("input_format", f.wireName());
                row.put("runs_records_per_second", rates.get(f));
                if (f != InputFormat.AVRO_SINGLE_OBJECT) {
                    putRatio(row, "fraction_of_avro", best.get(InputFormat.AVRO_SINGLE_OBJECT));
                }
                out.add(BenchEnvironment.withMachine(row));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    /** Records of one device that count per window in the device-unit rows. */
    static final int DEVICE_BOUND = 10;

    private static Map<String, Object> runVariant(
            EmbeddedKafka kafka, String input, Size size, int p, Variant v, long records) {
        Map<String, Object> row =
                run(
                        kafka,
                        config(
                                kafka,
                                input,
                                v.benchmark() + "-p" + p,
                                size.streams(),
                                size,
                                p,
                                1,
                                v),
                        v.benchmark(),
                        false,
                        records,
                        size.windows());
        row.put("summaries", v.summaries());
        row.put("hst_snap", v.summaries().contains("dp-hst") ? v.hstSnap() : "");
        row.put("ckm_warm_start", v.summaries().contains("ckm") && v.warmStart());
        row.put("privacy_unit", v.deviceBound() > 0 ? "device" : "record");
        row.put("contribution_bound", v.deviceBound() > 0 ? v.deviceBound() : 1);
        return row;
    }

    /**
     * One private pipeline row: its summaries and their options.
     *
     * @param benchmark the row's {@code benchmark} column
     * @param summaries the streams' {@code summaries} (YAML list)
     * @param hstSnap {@code hst.snap}
     * @param warmStart {@code ckm.warm_start}
     * @param deviceBound 0: record units; else device units with this contribution bound
     */
    record Variant(
            String benchmark,
            String summaries,
            String hstSnap,
            boolean warmStart,
            int deviceBound) {
        Variant(String benchmark, String summaries, String hstSnap, boolean warmStart) {
            this(benchmark, summaries, hstSnap, warmStart, 0);
        }

        /** The same summaries and options with device units ({@value #DEVICE_BOUND} per window). */
        Variant withDevices() {
            return new Variant(benchmark + "-device", summaries, hstSnap, warmStart, DEVICE_BOUND);
        }

        String unit() {
            return deviceBound > 0
                    ? "privacy_unit: device\n    device_contribution_bound: " + deviceBound
                    : "privacy_unit: record";
        }
    }

    /**
     * {@code pipeline-fast} on the long input ({@code Size.longWindows} windows per stream, p = 2),
     * beside {@code pipeline-nonprivate-long} on the same input.
     */
    static final Variant FAST_LONG =
            new Variant("pipeline-fast-long", "[stats, ckm, dp-hst]", "pivot", true);

    /** All three summaries with the default options: the row every earlier report measured. */
    static final Variant ALL = new Variant("pipeline", "[stats, ckm, dp-hst]", "pivot", false);

    /**
     * The private rows at each parallelism, each beside {@code pipeline-nonprivate} of the same
     * run: all three summaries with the default options, each summary alone (ckm warm-started), and
     * all three with ckm warm-started.
     */
    static final List<Variant> VARIANTS =
            List.of(
                    ALL,
                    new Variant("pipeline-stats", "[stats]", "pivot", false),
                    new Variant("pipeline-ckm", "[ckm]", "pivot", true),
                    new Variant("pipeline-dp-hst", "[dp-hst]", "pivot", false),
                    new Variant("pipeline-fast", "[stats, ckm, dp-hst]", "pivot", true));

    /**
     * {@link #config(EmbeddedKafka, String, String, int, Size, int, int, Variant)} of {@link #ALL}.
     */
    static DpclustConfig config(
            EmbeddedKafka kafka,
            String input,
            String run,
            int streams,
            Size size,
            int parallelism,
            int saltBuckets) {
        return config(kafka, input, run, streams, size, parallelism, saltBuckets, ALL);
    }

    /**
     * The job configuration: {@code streams} streams on [0, 1]^10 with the variant's summaries,
     * options and privacy unit, fresh output topics per run.
     */
    static DpclustConfig config(
            EmbeddedKafka kafka,
            String input,
            String run,
            int streams,
            Size size,
            int parallelism,
            int saltBuckets,
            Variant variant) {
        return config(
                kafka,
                input,
                run,
                streams,
                size,
                parallelism,
                saltBuckets,
                variant,
                InputFormat.AVRO_SINGLE_OBJECT,
                null);
    }

    /** The configuration reading {@code input} in {@code format} (JSON: the default mapping). */
    static DpclustConfig config(
            EmbeddedKafka kafka,
            String input,
            String run,
            int streams,
            Size size,
            int parallelism,
            int saltBuckets,
            Variant variant,
            InputFormat format,
            String registryUrl) {
        StringBuilder yaml =
                new StringBuilder(
                        """
                kafka:
                  bootstrap_servers: "%s"
                  topics: {input: %s, centroids: bench.%s.centroids, sketches: bench.%s.sketches, budget: bench.%s.budget, dlq: bench.%s.dlq}
                  group_id: bench-%s
                  transactional_id_prefix: bench-%s
                  transaction_timeout: PT2M
                  starting_offsets: earliest
                job:
                  checkpoint_interval: PT1S
                  max_out_of_orderness: PT20S
                  idle_timeout: PT2S
                  bounded_input: true
                  parallelism: %d
                  max_lateness: P3650D
                  start: "%s"
                  end: "%s"
                streams:
                """
                                .formatted(
                                        kafka.bootstrapServers(),
                                        input,
                                        run,
                                        run,
                                        run,
                                        run,
                                        run,
                                        run,
                                        parallelism,
                                        // synthetic history replayed in one bounded run: every
                                        // record counts, the end of input releases [start, end)
                                        java.time.Instant.ofEpochMilli(START),
                                        java.time.Instant.ofEpochMilli(
                                                START
                                                        + 10_000L
                                                                * Math.max(
                                                                        size.windows(),
                                                                        size.hotWindows()))));
        String lower = "[" + "0, ".repeat(9) + "0]";
        String upper = "[" + "1, ".repeat(9) + "1]";
        for (int i = 0; i < streams; i++) {
            yaml.append(
                    """
                      - id: s%d
                        dimension: 10
                        lower: %s
                        upper: %s
                        k: 10
                        window: PT10S
                        epsilon_per_release: 1.0
                        budget_cap: 1000000
                        public_seed: %d
                        summaries: %s
                        ckm: {m: %d, r: %d, warm_start: %s}
                        hst: {universe: %d, snap: %s}
                        salt_buckets: %d
                        %s
                    """
                            .formatted(
                                    i,
                                    lower,
                                    upper,
                                    100 + i,
                                    variant.summaries(),
                                    size.m(),
                                    size.r(),
                                    variant.warmStart(),
                                    size.universe(),
                                    variant.hstSnap(),
                                    saltBuckets,
                                    variant.unit()));
        }
        String text = yaml.toString();
        if (format != InputFormat.AVRO_SINGLE_OBJECT) {
            text =
                    text.replace("topics: {input: " + input + ", ", "topics: {")
                            .replace(
                                    "  group_id:",
                                    "  inputs: [{topic: "
                                            + input
                                            + ", format: "
                                            + format.wireName()
                                            + (format == InputFormat.AVRO_REGISTRY
                                                    ? ", registry_url: \"" + registryUrl + "\""
                                                    : "")
                                            + "}]\n  group_id:");
        }
        DpclustConfig c = ConfigLoader.parse(text);
        TopicAdmin.ensureTopics(c, 4, 1);
        return c;
    }

    private static long fill(EmbeddedKafka kafka, DpclustConfig c, int windows, int perWindow) {
        InputTopic in = c.inputs().get(0);
        System.err.printf(
                "pipeline: writing %d records to %s (%s)%n",
                (long) c.streams().size() * windows * perWindow,
                in.topic(),
                in.format().wireName());
        try (TelemetryProducer p =
                new TelemetryProducer(
                        KafkaConnection.plaintext(kafka.bootstrapServers()),
                        in.topic(),
                        in.format(),
                        in.registryUrl())) {
            return new SyntheticTelemetry(c.streams(), START, windows, perWindow, 0, 1000, 7)
                    .write(p)
                    .valid();
        }
    }

    private static Map<String, Object> run(
            EmbeddedKafka kafka,
            DpclustConfig c,
            String benchmark,
            boolean nonPrivate,
            long records,
            int windows) {
        int p = c.job().parallelism();
        System.err.printf(
                "pipeline: %s, parallelism %d, salt_buckets %d ...%n",
                benchmark, p, c.streams().get(0).saltBuckets());
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("32m"));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("64m"));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("64m"));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // checkpoints to files, as in a deployment: the JobManager's in-heap storage refuses a
        // state over 5 MB, which the device-unit rows' reservoirs (up to c = 10 records of each of
        // 1,000 devices per stream and open window, on one subtask at p = 1) exceed
        java.io.File checkpoints;
        try {
            checkpoints = java.nio.file.Files.createTempDirectory("dpclust-bench-ck").toFile();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toURI().toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(p, conf);
        var source = KafkaEndpoints.source(c, new FirstRecordClock(InputDecoders.of(c)));
        var sink = KafkaEndpoints.sink(c);
        FIRST_RECORD.set(0);
        try {
            JobClient job;
            if (nonPrivate) {
                StreamingJob.configure(env, c);
                NonPrivateMeanTopology.build(env, source, sink, c);
                job = env.executeAsync("bench-" + benchmark);
            } else {
                job = new StreamingJob(source, sink, c, benchSecret(), Map.of()).executeAsync(env);
            }
            var result = job.getJobExecutionResult().get(); // throws if the job failed
            long end = System.nanoTime();
            double seconds = (end - FIRST_RECORD.get()) / 1e9;
            Long late = result.getAccumulatorResult(LatenessFilter.ACC_LATE);
            Long releaseNanos =
                    result.getAccumulatorResult(StreamClusteringFunction.ACC_RELEASE_NANOS);
            Long decodeNanos = result.getAccumulatorResult(SketchDecoder.ACC_DECODE_NANOS);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("benchmark", benchmark);
            row.put("parallelism", p);
            row.put("streams", c.streams().size());
            row.put("salt_buckets", c.streams().get(0).saltBuckets());
            row.put("records", records);
            row.put("late_records", late == null ? 0L : late);
            row.put("seconds", round(seconds));
            row.put("records_per_second", (double) Math.round(records / seconds));
            if (releaseNanos != null) {
                row.put("stream_windows", (long) c.streams().size() * windows);
                row.put("release_seconds", round(releaseNanos / 1e9));
                row.put("decode_seconds", round(decodeNanos == null ? 0 : decodeNanos / 1e9));
            }
            System.err.printf(
                    "pipeline: %s p=%d: %.0f records/s%n", benchmark, p, records / seconds);
            return row;
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new IllegalStateException(
                    "pipeline benchmark run " + benchmark + " failed: " + root, e);
        } finally {
            FileUtils.deleteDirectoryQuietly(checkpoints);
        }
    }

    /**
     * Phase-1 subtasks (of {@code parallelism}) the stream's sub-keys land on, at Flink's default
     * max parallelism.
     */
    private static int subtasksUsed(StreamSpec s, int parallelism) {
        SubStreamKey key = new SubStreamKey(List.of(s));
        Set<Integer> used = new TreeSet<>();
        ValidRecord r = new ValidRecord();
        r.streamId = s.id();
        for (int i = 0; i < 1000; i++) {
            r.deviceId = "device-" + i;
            r.eventTime = START + i;
            used.add(
                    KeyGroupRangeAssignment.assignKeyToParallelOperator(
                            key.getKey(r),
                            KeyGroupRangeAssignment.computeDefaultMaxParallelism(parallelism),
                            parallelism));
        }
        return used.size();
    }

    static SecretSource benchSecret() {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (0x5A ^ i); // a fixed benchmark secret (never a deployment secret)
        }
        return SecretSource.temporaryFile(key);
    }

    /** Puts {@code row}'s records/s over {@code base}'s (same run) under {@code column}. */
    private static void putRatio(Map<String, Object> row, String column, Map<String, Object> base) {
        row.put(
                column,
                round(
                        (double) row.get("records_per_second")
                                / (double) base.get("records_per_second")));
    }

    private static double round(double x) {
        return Math.round(x * 1000) / 1000.0;
    }

    /** The job's deserializer, noting when the first record arrives (MiniCluster: same JVM). */
    static final class FirstRecordClock implements KafkaRecordDeserializationSchema<RawRecord> {
        private final RawRecordDeserializer delegate;

        FirstRecordClock(InputDecoders decoders) {
            delegate = new RawRecordDeserializer(decoders);
        }

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<RawRecord> out)
                throws IOException {
            if (FIRST_RECORD.get() == 0) {
                FIRST_RECORD.compareAndSet(0, System.nanoTime());
            }
            delegate.deserialize(r, out);
        }

        @Override
        public TypeInformation<RawRecord> getProducedType() {
            return delegate.getProducedType();
        }
    }
}
