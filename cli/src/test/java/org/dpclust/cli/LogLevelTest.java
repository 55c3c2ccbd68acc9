package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

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
            assertEquals(0, quiet().execute("help", "--log-level", "ERROR"));
            assertFalse(LoggerFactory.getLogger(LocalCommand.class).isWarnEnabled());
        } finally {
            org.apache.logging.log4j.core.config.Configurator.setLevel(
                    LogLevel.DPCLUST_LOGGERS, before);
        }
    }

    @Test
    void anUnknownLevelIsAUsageError() {
        StringWriter err = new StringWriter();
        CommandLine cl = quiet().setErr(new PrintWriter(err));
        assertEquals(2, cl.execute("--log-level", "loud", "help"));
        assertTrue(
                err.toString().contains("Invalid value for option '--log-level'"), err.toString());
    }

    /** The command line with its usage output discarded. */
    private static CommandLine quiet() {
        return DpclustCommand.commandLine()
                .setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(new StringWriter()));
    }
}
