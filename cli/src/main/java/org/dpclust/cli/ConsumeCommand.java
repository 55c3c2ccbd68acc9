package org.dpclust.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecordBase;
import org.dpclust.config.KafkaConnection;
import org.dpclust.config.KafkaSettings;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.AvroJson;
import org.dpclust.kafka.TopicReader;
import org.dpclust.launch.BootstrapServersOption;
import org.dpclust.launch.BrokerCheck;
import org.dpclust.launch.BrokerWatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpclust consume}: prints releases, sketches, budget events or dead letters as JSON lines
 * ({@link AvroJson}'s form, {@code read_committed}), whichever wire format each record value is in
 * (docs/wire-format.md).
 */
@Command(
        name = "consume",
        mixinStandardHelpOptions = true,
        description =
                "Print dpclust output topics as JSON lines, as a downstream consumer sees them (read_committed).")
public final class ConsumeCommand implements Callable<Integer> {
    enum Kind {
        releases,
        sketches,
        cells,
        running,
        budget,
        dead_letters
    }

    @Spec CommandSpec spec;

    @Mixin BootstrapServersOption kafka;

    @Option(
            names = "--kind",
            defaultValue = "releases",
            description =
                    "releases | sketches | cells | running | budget | dead_letters (default"
                            + " ${DEFAULT-VALUE}).")
    Kind kind;

    @Option(names = "--topic", description = "Topic (default: the kind's default topic).")
    String topic;

    @Option(
            names = "--follow",
            description = "Keep following new records instead of stopping at the end.")
    boolean follow;

    @Override
    public Integer call() throws Exception {
        String t =
                topic != null
                        ? topic
                        : switch (kind) {
                            case releases -> KafkaSettings.DEFAULT_CENTROIDS;
                            case sketches -> KafkaSettings.DEFAULT_SKETCHES;
                            case cells -> KafkaSettings.DEFAULT_CELLS;
                            case running -> KafkaSettings.DEFAULT_RUNNING;
                            case budget -> KafkaSettings.DEFAULT_BUDGET;
                            case dead_letters -> KafkaSettings.DEFAULT_DLQ;
                        };
        AvroCodec<? extends SpecificRecordBase> codec =
                switch (kind) {
                    case releases, running -> AvroCodec.centroids();
                    case sketches -> AvroCodec.sketches();
                    case cells -> AvroCodec.cells();
                    case budget -> AvroCodec.budget();
                    case dead_letters -> AvroCodec.rejected();
                };
        ObjectMapper json = new ObjectMapper();
        PrintWriter out = spec.commandLine().getOut();
        KafkaConnection connection = kafka.connection();
        BrokerCheck.require("--bootstrap-servers", connection, kafka.propertiesOptionName());
        try (TopicReader reader = new TopicReader(connection, t);
                BrokerWatch watch =
                        follow
                                ? BrokerWatch.start(
                                        connection,
                                        Duration.ofSeconds(5),
                                        line -> System.err.println("consume: " + line),
                                        line -> System.err.println("consume: " + line))
                                : null) {
            do {
                reader.poll(
                        Duration.ofMillis(500),
                        r -> {
                            try {
                                out.println(
                                        json.writeValueAsString(
                                                AvroJson.toMap(codec.decodePublished(r.value()))));
                            } catch (IOException e) {
                                System.err.println(
                                        "skipping undecodable record at "
                                                + r.partition()
                                                + "@"
                                                + r.offset()
                                                + ": "
                                                + e.getMessage());
                            }
                        });
                out.flush();
            } while (follow || !reader.atEnd());
        }
        return 0;
    }
}
