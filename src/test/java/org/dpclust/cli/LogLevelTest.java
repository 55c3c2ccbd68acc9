package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LogLevelTest {
    @Test
    void theGlobalOptionSetsDpclustsLevelAndLeavesLibrariesAlone() {
        Level before = LogManager.getLogger(LogLevel.DPCLUST_LOGGERS).getLevel();
        Level kafka = LogManager.getLogger("org.apache.kafka.clients.Metadata").getLevel();
        try {
            assertEquals(
                    0,
                    DpclustCommand.commandLine().execute("--log-level", "debug", "help", "local"));
            assertTrue(LoggerFactory.getLogger(LocalCommand.class).isDebugEnabled());
            assertEquals(
                    kafka, LogManager.getLogger("org.apache.kafka.clients.Metadata").getLevel());
            assertEquals(0, DpclustCommand.commandLine().execute("help", "--log-level", "ERROR"));
            assertFalse(LoggerFactory.getLogger(LocalCommand.class).isWarnEnabled());
        } finally {
            org.apache.logging.log4j.core.config.Configurator.setLevel(
                    LogLevel.DPCLUST_LOGGERS, before);
        }
    }

    @Test
    void anUnknownLevelIsAUsageError() {
        assertEquals(2, DpclustCommand.commandLine().execute("--log-level", "loud", "help"));
    }
}
