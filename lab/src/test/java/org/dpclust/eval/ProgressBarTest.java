package org.dpclust.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Drives the progress bar with a fake clock in both terminal and log modes. */
class ProgressBarTest {

    @Test
    void nonInteractivePrintsAtMostOneLinePerTenPercentPlusFinal() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AtomicLong clock = new AtomicLong();
        ProgressBar bar =
                new ProgressBar(
                        "lloyd",
                        1000,
                        new PrintStream(bytes, true, StandardCharsets.UTF_8),
                        false,
                        clock::get);
        for (int i = 0; i < 1000; i++) {
            bar.step();
        }
        clock.set(2_500_000_000L);
        bar.close();
        bar.close();
        String out = bytes.toString(StandardCharsets.UTF_8);
        String[] lines = out.split("\n");
        assertEquals(10, lines.length, out); // 10 %, 20 %, ..., 90 % and the final line
        assertTrue(lines[0].contains(" 10% 100/1000"), lines[0]);
        assertTrue(lines[9].contains("100% 1000/1000 done in 2.5 s"), lines[9]);
        assertTrue(!out.contains("\r"));
    }

    @Test
    void interactiveRedrawsAtMostFiveTimesPerSecond() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AtomicLong clock = new AtomicLong();
        ProgressBar bar =
                new ProgressBar(
                        "s1",
                        100,
                        new PrintStream(bytes, true, StandardCharsets.UTF_8),
                        true,
                        clock::get);
        // 100 steps over 1 second (10 ms apart) → redraws at 0, 200, 400, 600, 800 ms: 5
        for (int i = 0; i < 100; i++) {
            clock.set(i * 10_000_000L);
            bar.step();
        }
        bar.close();
        String out = bytes.toString(StandardCharsets.UTF_8);
        long redraws = out.chars().filter(c -> c == '\r').count() - 1; // minus the final line's \r
        assertEquals(5, redraws, out);
        assertTrue(
                out.endsWith("done in 1.0 s\n")
                        || out.endsWith("done in 1.0 s" + System.lineSeparator()),
                out);
    }
}
