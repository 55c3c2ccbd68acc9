package org.dpclust.launch;

import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaConnection;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The shared {@code --bootstrap-servers} option (a picocli mixin): the Kafka bootstrap servers.
 * With a configuration it overrides {@code kafka.bootstrap_servers} ({@link #applyTo}); commands
 * without one need it ({@link #require}, an error naming the option when missing). It carries
 * {@code --kafka-properties FILE} ({@link KafkaPropertiesOption}), so every command that talks to
 * Kafka takes client properties too: {@link #applyTo} adds them to the configuration's, {@link
 * #connection()} gives them to commands without a configuration.
 */
public final class BootstrapServersOption {
    @Mixin KafkaPropertiesOption properties;

    @Option(
            names = "--bootstrap-servers",
            description =
                    "Kafka bootstrap servers, host:port[,host:port...] (overrides the"
                            + " kafka.bootstrap_servers of a configuration file).")
    String bootstrapServers;

    /** {@code config} with the override applied, or unchanged when the option was not given. */
    public DpclustConfig applyTo(DpclustConfig config) {
        KafkaConnection k = config.kafka().connection();
        if (bootstrapServers != null) {
            k = k.withBootstrapServers(bootstrapServers);
        }
        return config.withKafka(config.kafka().withConnection(properties.applyTo(k)));
    }

    /**
     * The connection of a command without a configuration: {@code --bootstrap-servers} (required)
     * and the properties of {@code --kafka-properties}.
     */
    public KafkaConnection connection() {
        return properties.applyTo(KafkaConnection.plaintext(require()));
    }

    /**
     * Where the client properties in use come from, for messages: {@code --kafka-properties FILE}
     * and/or {@code kafka.properties}.
     */
    public String propertiesOptionName() {
        return properties.file != null
                ? properties.optionName() + " / kafka.properties"
                : "kafka.properties";
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
