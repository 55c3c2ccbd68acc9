package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code dpclust evaluate} without {@code --out} never writes over a committed report. */
class EvaluateCommandTest {
    @Test
    void theDefaultReportDirectoryIsNotTheCommittedOne() {
        Path out = EvaluateCommand.defaultOut("stats");
        assertEquals(Path.of("evaluate-out", "stats"), out);
        assertFalse(out.startsWith(Path.of("docs")), out.toString());
    }
}
