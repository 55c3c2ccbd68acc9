package org.dpclust.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InputReportTest {
    @Test
    void nothingBeforeAPeriodHasPassedThenTotalsAndAWarnNamingTheFix() {
        InputReport r = new InputReport("inclusion[0]", 60_000);
        assertTrue(r.due(1_000).isEmpty(), "the period starts");
        for (int i = 0; i < 20; i++) {
            r.rejected("a", Rejections.BEFORE_START);
        }
        r.passed("a");
        for (int i = 0; i < 30; i++) {
            r.passed("b");
        }
        r.rejected("b", Rejections.LATE);
        assertTrue(r.due(60_999).isEmpty(), "not yet a period");
        List<InputReport.Line> lines = r.due(61_000);
        assertEquals(3, lines.size(), lines.toString());
        assertEquals(
                new InputReport.Line(
                        false,
                        "inclusion[0], last 60 s: 31 passed, 21 rejected {before_start=20, late=1}"),
                lines.get(0));
        assertTrue(lines.get(1).warn());
        assertTrue(
                lines.get(1)
                        .text()
                        .startsWith(
                                "stream a: 20 of 21 records rejected {before_start=20} in the last"
                                        + " 60 s, mostly before_start: their windows are before"
                                        + " job.start"),
                lines.get(1).text());
        assertEquals(
                new InputReport.Line(false, "stream b: 1 of 31 records rejected {late=1}"),
                lines.get(2));
        assertTrue(r.due(62_000).isEmpty(), "counts start over");
        assertTrue(r.due(200_000).isEmpty(), "nothing counted: no report");
    }

    @Test
    void aFleetsReportStaysShortWithWarningsFirst() {
        InputReport r = new InputReport("validate-clamp[1]", 1_000);
        r.due(0);
        for (int s = 0; s < 50; s++) {
            r.passed("s" + s);
            r.rejected("s" + s, Rejections.NON_FINITE);
        }
        for (int i = 0; i < 12; i++) {
            r.rejected(null, Rejections.UNDECODABLE);
        }
        List<InputReport.Line> lines = r.due(1_000);
        assertEquals(1 + InputReport.MAX_STREAM_LINES + 1, lines.size());
        assertTrue(lines.get(1).warn());
        assertTrue(
                lines.get(1).text().startsWith("stream (undecodable): 12 of 12"),
                lines.get(1).text());
        assertFalse(lines.get(2).warn(), "one record of fifty: not mostly rejected");
        assertEquals("... and 41 more streams", lines.get(lines.size() - 1).text());
    }
}
