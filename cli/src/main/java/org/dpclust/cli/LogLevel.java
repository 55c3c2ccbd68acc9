package org.dpclust.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * The levels of the global {@code --log-level} option. Applying one sets the level of dpclust's own
 * loggers ({@code org.dpclust.*}) only; libraries keep the level of the bundled log4j2
 * configuration (WARN).
 */
public enum LogLevel {
    ERROR,
    WARN,
    INFO,
    DEBUG,
    TRACE;

    /** The logger hierarchy this option controls. */
    public static final String DPCLUST_LOGGERS = "org.dpclust";

    void apply() {
        Configurator.setLevel(DPCLUST_LOGGERS, Level.valueOf(name()));
    }
}
