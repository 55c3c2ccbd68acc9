package org.dpclust.cli;

import org.dpclust.config.DpclustConfig;
import picocli.CommandLine.Option;

/**
 * The shared {@code --bootstrap-servers} option (a picocli mixin): the Kafka bootstrap servers.
 * With a configuration it overrides {@code kafka.bootstrap_servers} ({@link #applyTo}); commands
 * without one need it ({@link #require}, an error naming the option when missing).
 */
public final class BootstrapServersOption {
    @Option(
            names = "--bootstrap-servers",
            description =
                    "Kafka bootstrap servers (overrides kafka.bootstrap_servers of --config).")
    String bootstrapServers;

    /** {@code config} with the override applied, or unchanged when the option was not given. */
    public DpclustConfig applyTo(DpclustConfig config) {
        return bootstrapServers == null
                ? config
                : config.withKafka(config.kafka().withBootstrapServers(bootstrapServers));
    }

    /**
     * The option that names the servers in use, for messages: {@code --bootstrap-servers} when it
     * was given, else {@code kafka.bootstrap_servers} of the configuration.
     */
    public String optionName() {
        return bootstrapServers != null ? "--bootstrap-servers" : "kafka.bootstrap_servers";
    }

    /** The servers given; an error naming {@code --bootstrap-servers} when none were. */
    public String require() {
        if (bootstrapServers == null) {
            throw new IllegalArgumentException(
                    "--bootstrap-servers: required (the Kafka bootstrap servers, host:port)");
        }
        return bootstrapServers;
    }
}
