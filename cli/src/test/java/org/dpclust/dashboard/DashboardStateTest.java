package org.dpclust.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.junit.jupiter.api.Test;

class DashboardStateTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static CentroidRelease release(String stream, int window, double x) {
        return CentroidRelease.newBuilder()
                .setStreamId(stream)
                .setWindowStart(T0.plusSeconds(10L * window))
                .setWindowEnd(T0.plusSeconds(10L * window + 10))
                .setAlgorithm("stats")
                .setMode("stream")
                .setK(1)
                .setCentroids(List.of(List.of(x, 1.0, 2.0)))
                .setWeights(List.of(5.0))
                .setEpsilon(1.0)
                .setSpent(window + 1.0)
                .setCap(10.0)
                .setBudgetPeriodStart(T0)
                .setBudgetPeriodEnd(T0.plusSeconds(86_400))
                .setNeighbouring("add-remove")
                .setPrivacyUnit("record")
                .setGuarantee("dp")
                .setDomainLower(List.of(0.0, 0.0, 0.0))
                .setDomainUpper(List.of(10.0, 10.0, 10.0))
                .build();
    }

    private static BudgetStatus charge(String stream, int window, double total) {
        return BudgetStatus.newBuilder()
                .setStreamId(stream)
                .setKind(BudgetEventKind.CHARGE)
                .setSource("stream")
                .setAlgorithm("stats")
                .setWindowStart(T0.plusSeconds(10L * window))
                .setWindowEnd(T0.plusSeconds(10L * window + 10))
                .setEpsilon(1.0)
                .setWindowTotal(total)
                .setSpent(total)
                .setCap(10.0)
                .setPeriodStart(T0)
                .setPeriodEnd(T0.plusSeconds(86_400))
                .setPrivacyUnit("record")
                .build();
    }

    @Test
    @SuppressWarnings("unchecked")
    void keepsReleasesInWindowOrderOnePerWindowAndTheLatestBudgetEventPerKey() {
        DashboardState state = new DashboardState();
        state.add(release("b", 10, 3.0));
        state.add(release("b", 2, 1.0));
        state.add(release("b", 2, 1.0)); // a replayed window: same release again
        state.add(release("a", 0, 4.0));
        state.add(charge("b", 2, 1.0));
        state.add(
                charge(
                        "b", 2,
                        2.0)); // the latest total per ledger key wins, as on the compacted topic
        state.skipped();

        Map<String, Object> snap = state.snapshot();
        assertEquals(7L, snap.get("records_read"));
        assertEquals(1L, snap.get("undecodable"));
        List<Map<String, Object>> streams = (List<Map<String, Object>>) snap.get("streams");
        assertEquals(List.of("a", "b"), streams.stream().map(s -> s.get("stream_id")).toList());
        Map<String, Object> b = streams.get(1);
        assertEquals(3, b.get("dimension"));
        List<Map<String, Object>> rel = (List<Map<String, Object>>) b.get("releases");
        assertEquals(
                List.of("2026-01-01T00:00:20Z", "2026-01-01T00:01:40Z"),
                rel.stream().map(r -> r.get("window_start")).toList(),
                "numeric window order, not string order of keys");
        assertEquals(List.of(List.of(1.0, 1.0, 2.0)), rel.get(0).get("centroids"));
        List<Map<String, Object>> events = (List<Map<String, Object>>) b.get("budget_events");
        assertEquals(1, events.size());
        assertEquals(2.0, events.get(0).get("spent"));
        assertEquals("CHARGE", events.get(0).get("kind"));
        assertEquals(3, state.releaseCount());
    }

    private static CentroidRelease release(
            String stream, int window, List<List<Double>> centroids, List<Double> weights) {
        CentroidRelease r = release(stream, window, 0.0);
        r.setK(centroids.size());
        r.setCentroids(centroids);
        r.setWeights(weights);
        return r;
    }

    @Test
    @SuppressWarnings("unchecked")
    void coloursFollowEachClusterAcrossReleasesNotTheCentroidIndex() {
        DashboardState state = new DashboardState();
        List<Double> a = List.of(1.0, 1.0, 1.0), b = List.of(9.0, 9.0, 9.0);
        List<Double> a2 = List.of(1.5, 1.0, 1.0), b2 = List.of(8.5, 9.0, 9.0);
        state.add(release("s", 0, List.of(a, b), List.of(3.0, 4.0)));
        state.add(release("s", 2, List.of(a2, b2), List.of(3.0, 4.0)));
        state.add(release("s", 1, List.of(b2, a2), List.of(4.0, 0.0))); // arrives late, swapped
        Map<String, Object> s =
                ((List<Map<String, Object>>) state.snapshot().get("streams")).get(0);
        List<Map<String, Object>> rel = (List<Map<String, Object>>) s.get("releases");
        List<List<Integer>> colours =
                rel.stream().map(r -> (List<Integer>) r.get("colours")).toList();
        int colourOfA = colours.get(0).get(0), colourOfB = colours.get(0).get(1);
        assertNotEquals(colourOfA, colourOfB);
        assertEquals(List.of(colourOfB, colourOfA), colours.get(1), "window 1 lists b first");
        assertEquals(List.of(colourOfA, colourOfB), colours.get(2));
        // the stored releases are not changed by a snapshot: a second one is the same
        assertEquals(
                rel,
                ((List<Map<String, Object>>) state.snapshot().get("streams"))
                        .get(0)
                        .get("releases"));
    }

    /**
     * Dead letters are counted per stream and reason, apart from the published records (they are
     * not records read from the published topics), and marked as followed only when they are.
     */
    @Test
    void countsRejectedRecordsPerStreamAndReason() {
        DashboardState state = new DashboardState();
        assertEquals(false, ((Map<?, ?>) state.snapshot().get("rejected")).get("followed"));
        state.followingRejections();
        state.rejected("b", "late");
        state.rejected("a", "late");
        state.rejected("b", "late");
        state.rejected(null, "undecodable");
        state.rejected("b", "out_of_bounds");
        Map<?, ?> rej = (Map<?, ?>) state.snapshot().get("rejected");
        assertEquals(true, rej.get("followed"));
        assertEquals(5L, rej.get("records"));
        assertEquals(
                List.of(
                        Map.of(
                                "stream_id",
                                DashboardState.NO_STREAM,
                                "reasons",
                                Map.of("undecodable", 1L)),
                        Map.of("stream_id", "a", "reasons", Map.of("late", 1L)),
                        Map.of(
                                "stream_id",
                                "b",
                                "reasons",
                                Map.of("late", 2L, "out_of_bounds", 1L))),
                rej.get("by_stream"));
        assertEquals(0L, state.snapshot().get("records_read"));
    }

    /**
     * Memory stays bounded: of 300 windows the latest {@link DashboardState#MAX_PER_STREAM}
     * releases and budget events are kept, each release still coloured (k = 1: slot 0 throughout).
     */
    @Test
    @SuppressWarnings("unchecked")
    void keepsTheLatestReleasesAndEventsOfAStream() {
        DashboardState state = new DashboardState();
        for (int w = 0; w < 300; w++) {
            state.add(release("s", w, 1.0 + w % 7));
            state.add(charge("s", w, 1.0));
        }
        Map<String, Object> stream =
                ((List<Map<String, Object>>) state.snapshot().get("streams")).get(0);
        List<Map<String, Object>> rel = (List<Map<String, Object>>) stream.get("releases");
        assertEquals(DashboardState.MAX_PER_STREAM, rel.size());
        assertEquals(
                T0.plusSeconds(10L * (300 - DashboardState.MAX_PER_STREAM)).toString(),
                String.valueOf(rel.get(0).get("window_start")));
        assertEquals(DashboardState.MAX_PER_STREAM, ((List<?>) stream.get("budget_events")).size());
        rel.forEach(r -> assertEquals(List.of(0), r.get("colours")));
        // a release older than every kept one is dropped at once
        state.add(release("s", 0, 3.0));
        assertEquals(
                DashboardState.MAX_PER_STREAM,
                ((List<?>)
                                ((List<Map<String, Object>>) state.snapshot().get("streams"))
                                        .get(0)
                                        .get("releases"))
                        .size());
    }
}
