package org.dpclust.config;

/**
 * Invalid dpclust configuration. The message always starts with the option's path, e.g. {@code
 * streams[0].k}.
 */
public final class ConfigException extends IllegalArgumentException {
    private final String option;

    public ConfigException(String option, String problem) {
        super(option + ": " + problem);
        this.option = option;
    }

    /** Path of the offending option, e.g. {@code streams[1].upper[0]}. */
    public String option() {
        return option;
    }
}
