package org.dpclust.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.junit.jupiter.api.Test;

class DashboardPageTest {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    private static CentroidRelease release(String stream, int window, double x, double weight) {
        return CentroidRelease.newBuilder()
                .setStreamId(stream)
                .setWindowStart(T0.plusSeconds(60L * window))
                .setWindowEnd(T0.plusSeconds(60L * window + 60))
                .setAlgorithm("stats")
                .setMode("stream")
                .setK(2)
                .setCentroids(List.of(List.of(x, 0.25), List.of(7.0, 7.5)))
                .setWeights(List.of(12.5, weight))
                .setEpsilon(0.5)
                .setSpent(0.5 * (window + 1))
                .setCap(10.0)
                .setBudgetPeriodStart(T0)
                .setBudgetPeriodEnd(T0.plusSeconds(86_400))
                .setNeighbouring("add-remove")
                .setPrivacyUnit("record")
                .setGuarantee("dp")
                .setDomainLower(List.of(0.0, 0.0))
                .setDomainUpper(List.of(10.0, 10.0))
                .build();
    }

    private static String row(String html, Instant windowStart) {
        int at = html.indexOf("<tr><td>" + windowStart + "</td>");
        assertTrue(at >= 0, windowStart + " listed:\n" + html);
        return html.substring(at, html.indexOf("</tr>", at));
    }

    @Test
    void beforeAnyReleaseItSaysSo() {
        DashboardState state = new DashboardState();
        assertTrue(DashboardPage.fallback(state.snapshot()).contains("no releases yet"));
        state.add(
                BudgetStatus.newBuilder()
                        .setStreamId("only-budget")
                        .setKind(BudgetEventKind.REFUSED)
                        .setSource("stream")
                        .setAlgorithm("stats")
                        .setWindowStart(T0)
                        .setWindowEnd(T0.plusSeconds(60))
                        .setEpsilon(1.0)
                        .setWindowTotal(0.0)
                        .setSpent(10.0)
                        .setCap(10.0)
                        .setPeriodStart(T0)
                        .setPeriodEnd(T0.plusSeconds(86_400))
                        .setPrivacyUnit("record")
                        .build());
        String html = DashboardPage.fallback(state.snapshot());
        assertTrue(html.contains("only-budget"), html);
        assertTrue(html.contains("no releases yet (1 budget events)"), html);
    }

    @Test
    void listsTheLatestReleasesNewestFirstWithExactCentroidsAndMarksNoMass() {
        DashboardState state = new DashboardState();
        int windows = DashboardPage.LATEST + 2;
        for (int w = 0; w < windows; w++) {
            state.add(release("s", w, 1.0 / (w + 3), w == windows - 1 ? 0.0 : 4.0));
        }
        String html = DashboardPage.fallback(state.snapshot());
        assertFalse(html.contains("no releases yet"), html);
        Instant newest = T0.plusSeconds(60L * (windows - 1));
        String latest = row(html, newest);
        assertTrue(latest.contains(newest.plusSeconds(60).toString()), "window end: " + latest);
        assertTrue(latest.contains(Double.toString(1.0 / (windows + 2))), "exact value: " + latest);
        assertTrue(latest.contains("(7.0, 7.5) (0.0) no mass"), latest);
        assertEquals(1, html.split("no mass<", -1).length - 1, "only the zero-weight centroid");
        // newest first, and only the latest LATEST windows
        int previous = -1;
        for (int w = windows - 1; w >= windows - DashboardPage.LATEST; w--) {
            int at = html.indexOf("<tr><td>" + T0.plusSeconds(60L * w) + "</td>");
            assertTrue(at > previous, "window " + w + " after the newer ones");
            previous = at;
        }
        assertFalse(html.contains("<tr><td>" + T0 + "</td>"), "window 0 is beyond the latest");
    }

    @Test
    void escapesRecordTextAndFillsOnlyTheMarker() {
        DashboardState state = new DashboardState();
        state.add(release("<b>&\"x'", 0, 2.0, 1.0));
        String page =
                DashboardPage.fill(
                        "<div id=\"streams\">"
                                + DashboardPage.PLACEHOLDER
                                + "</div>"
                                + DashboardPage.REJECTED_PLACEHOLDER,
                        state.snapshot());
        assertTrue(page.contains("&lt;b&gt;&amp;&quot;x&#39;"), page);
        assertFalse(page.contains("<b>"), page);
        assertFalse(page.contains(DashboardPage.PLACEHOLDER), page);
        assertTrue(page.startsWith("<div id=\"streams\"><div class=\"fallback\">"), page);
        assertThrows(
                IllegalArgumentException.class,
                () -> DashboardPage.fill("<html></html>", state.snapshot()));
        assertThrows(
                IllegalArgumentException.class,
                () -> DashboardPage.fill(DashboardPage.PLACEHOLDER, state.snapshot()));
    }

    /**
     * Rejected records are listed per stream and reason, marked operator-side and never published,
     * only when the dashboard follows the dead-letter topic; stream ids and reasons are escaped.
     */
    @Test
    void rejectedRecordsAreListedAsOperatorSideCounts() {
        DashboardState published = new DashboardState();
        published.rejected("sensors", "late");
        assertEquals("", DashboardPage.rejections(published.snapshot()), "not followed: nothing");

        DashboardState state = new DashboardState().followingRejections();
        assertTrue(
                DashboardPage.rejections(state.snapshot()).contains("none rejected so far"),
                DashboardPage.rejections(state.snapshot()));
        state.rejected("sensors", "late");
        state.rejected("sensors", "late");
        state.rejected("sensors", "out_of_bounds");
        state.rejected("", "undecodable");
        state.rejected("<i>", "late");
        String html = DashboardPage.rejections(state.snapshot());
        assertTrue(html.contains("Operator-side, never published"), html);
        assertTrue(html.contains("5 records so far"), html);
        assertTrue(html.contains("<tr><td>sensors</td><td>late</td><td>2</td></tr>"), html);
        assertTrue(
                html.contains("<tr><td>sensors</td><td>out_of_bounds</td><td>1</td></tr>"), html);
        assertTrue(
                html.contains(
                        "<tr><td>"
                                + DashboardPage.esc(DashboardState.NO_STREAM)
                                + "</td><td>undecodable</td><td>1</td></tr>"),
                html);
        assertTrue(html.contains("<tr><td>&lt;i&gt;</td><td>late</td><td>1</td></tr>"), html);
        assertFalse(html.contains("<i>"), html);
    }
}
