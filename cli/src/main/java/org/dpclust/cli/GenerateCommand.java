package org.dpclust.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpclust.config.ConfigException;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.InputFormat;
import org.dpclust.config.InputTopic;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.launch.BootstrapServersOption;
import org.dpclust.launch.BrokerCheck;
import org.dpclust.launch.ConfigOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpclust generate}: synthetic telemetry for the configured streams, written to the input
 * topic.
 */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description =
                "Write a drifting Gaussian-mixture telemetry stream (optionally with malformed records) to Kafka.")
public final class GenerateCommand implements Callable<Integer> {
    @Mixin ConfigOption config;

    @Mixin BootstrapServersOption kafka;

    @Option(
            names = "--windows",
            defaultValue = "10",
            description = "Windows per stream (default ${DEFAULT-VALUE}).")
    int windows;

    @Option(
            names = "--records-per-window",
            defaultValue = "20000",
            description = "Records per stream and window (default ${DEFAULT-VALUE}).")
    int recordsPerWindow;

    @Option(
            names = "--malformed-per-window",
            defaultValue = "0",
            description = "Malformed records per stream and window, cycling through every kind.")
    int malformed;

    @Option(
            names = "--devices",
            defaultValue = "500",
            description = "Device pool per stream (default ${DEFAULT-VALUE}).")
    int devices;

    @Option(
            names = "--start",
            defaultValue = "2026-01-01T00:00:00Z",
            description = "Event time of the first window (ISO-8601).")
    Instant start;

    @Option(
            names = "--realtime",
            description =
                    "Write each window's records at the window's wall-clock start, from the next"
                            + " window boundary on (event times match the log append times a live"
                            + " job counts, docs/event-time.md); --start is ignored.")
    boolean realtime;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the (public) synthetic data.")
    long seed;

    @Option(
            names = "--format",
            defaultValue = "avro-single-object",
            description =
                    "Input format to write: avro-single-object (default), json (the default"
                            + " mapping's shape) or avro-registry (TelemetryRecord registered in the"
                            + " input's registry_url), to the first input topic of that format"
                            + " (kafka.inputs), else to kafka.topics.input.")
    String format;

    @Override
    public Integer call() throws Exception {
        DpclustConfig cfg = config.load(kafka);
        InputFormat f = InputFormat.fromOption("--format", format);
        InputTopic in = cfg.inputs().stream().filter(t -> t.format() == f).findFirst().orElse(null);
        if (in == null && f == InputFormat.AVRO_REGISTRY) {
            throw new ConfigException(
                    "--format", "avro-registry needs an input of that format in kafka.inputs");
        }
        String topic = in != null ? in.topic() : cfg.kafka().inputTopic();
        BrokerCheck.require(
                kafka.optionName(), cfg.kafka().connection(), kafka.propertiesOptionName());
        TopicAdmin.ensureTopics(cfg, 1, 1);
        SyntheticTelemetry.Written w;
        try (TelemetryProducer p = new TelemetryProducer(cfg.kafka().connection(), topic, f)) {
            SyntheticTelemetry scenario =
                    new SyntheticTelemetry(
                            cfg.streams(),
                            start.toEpochMilli(),
                            windows,
                            recordsPerWindow,
                            malformed,
                            devices,
                            seed);
            w = realtime ? scenario.writeRealtime(p) : scenario.write(p);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("topic", topic);
        summary.put("format", f.wireName());
        summary.put("records", w.records());
        summary.put("valid", w.valid());
        summary.put("malformed", w.malformedByReason());
        System.out.println(new ObjectMapper().writeValueAsString(summary));
        return 0;
    }
}
