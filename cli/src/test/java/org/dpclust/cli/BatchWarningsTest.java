package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch run with settings that are valid but protect next to nothing (a huge {@code --epsilon}, a
 * secret that is evidently not random) runs, and says so at WARN, naming what and why; an ordinary
 * run warns about nothing.
 */
class BatchWarningsTest {
    private static final String CSV = "x,y\n1,1\n2,2\n3,3\n8,8\n9,9\n";

    /** The WARN lines of dpclust's loggers while {@code args} run; the run must succeed. */
    private static List<String> warnings(String... args) {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        LoggerConfig dpclust = ctx.getConfiguration().getLoggerConfig(LogLevel.DPCLUST_LOGGERS);
        StringWriter out = new StringWriter();
        WriterAppender capture =
                WriterAppender.newBuilder()
                        .setName("batch-warnings")
                        .setTarget(out)
                        .setLayout(PatternLayout.newBuilder().withPattern("%p %m%n").build())
                        .build();
        capture.start();
        dpclust.addAppender(capture, Level.WARN, null);
        ctx.updateLoggers();
        try {
            CliRun r = CliRun.of(args);
            assertEquals(0, r.exit(), r.err());
        } finally {
            dpclust.removeAppender("batch-warnings");
            ctx.updateLoggers();
            capture.stop();
        }
        return out.toString().lines().filter(l -> l.startsWith("WARN ")).toList();
    }

    private static String[] batch(Path dir, String epsilon, String secretHex) throws Exception {
        Path csv = Files.writeString(dir.resolve("p.csv"), CSV);
        Path secret = Files.writeString(dir.resolve("secret.hex"), secretHex);
        return new String[] {
            "batch",
            "--algorithm",
            "stats",
            "--input",
            csv.toString(),
            "--k",
            "2",
            "--bounds",
            "0,0;10,10",
            "--epsilon",
            epsilon,
            "--secret-file",
            secret.toString(),
            "--output",
            dir.resolve("out").toString()
        };
    }

    @Test
    void aHugeEpsilonIsWarnedAboutNamingTheOption(@TempDir Path dir) throws Exception {
        List<String> w =
                warnings(batch(dir, "1e300", "00112233445566778899aabbccddeeff0123456789abcdef"));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("WARN --epsilon 1.0E300 is above 10.0"), w.get(0));
    }

    @Test
    void anAllZeroSecretIsWarnedAboutNamingItsSource(@TempDir Path dir) throws Exception {
        List<String> w = warnings(batch(dir, "1", "00".repeat(32)));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("--secret-file " + dir.resolve("secret.hex")), w.get(0));
        assertTrue(w.get(0).contains("evidently not random"), w.get(0));
    }

    @Test
    void anOrdinaryRunWarnsAboutNothing(@TempDir Path dir) throws Exception {
        assertEquals(
                List.of(),
                warnings(batch(dir, "1", "9f3c0e71a48b25d6e0c4b7a193f58d2e6a01c7f4b9d3e852")));
    }
}
