package org.dpclust.launch;

import java.nio.file.Path;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import picocli.CommandLine.Option;

/**
 * The shared {@code --config} option (a picocli mixin): the dpclust YAML configuration. Optional at
 * parse time; a command that needs it calls {@link #load} or {@link #require}, which fail with one
 * line naming {@code --config}.
 */
public final class ConfigOption {
    @Option(
            names = "--config",
            description = "dpclust YAML configuration (streams, Kafka topics, job settings).")
    Path config;

    /** Whether {@code --config} was given. */
    public boolean given() {
        return config != null;
    }

    /** The file given, or null. */
    public Path path() {
        return config;
    }

    /** The file given; an error naming {@code --config} when it was not. */
    public Path require() {
        if (config == null) {
            throw new IllegalArgumentException(
                    "--config: required (the dpclust YAML configuration)");
        }
        return config;
    }

    /**
     * Loads the configuration, with {@code kafka}'s override applied; {@code --config} required.
     */
    public DpclustConfig load(BootstrapServersOption kafka) {
        return kafka.applyTo(ConfigLoader.load(require()));
    }
}
