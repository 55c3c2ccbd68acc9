package org.dpclust.window;

import static org.dpclust.window.WindowTestSpecs.ALL;
import static org.dpclust.window.WindowTestSpecs.identity;
import static org.dpclust.window.WindowTestSpecs.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/** The per-window release sequence of the Flink-free core. */
class WindowReleaseTest {
    private static final long W = 10_000;

    private static WindowSummaries window(StreamRuntime rt, long start, int records) {
        WindowSummaries w = WindowSummaries.empty(rt, TestRandoms.SECRET, start);
        for (int i = 0; i < records; i++) {
            double c = i % 2 == 0 ? 0.25 : 0.75;
            w.add(new double[] {c + 0.001 * (i % 7), c - 0.001 * (i % 5)}, identity(i));
        }
        return w;
    }

    private static PrivacyLedger ledger(StreamSpec s) {
        return Ledgers.restore(s, List.of());
    }

    /** The kind of each publication, with the algorithm of centroid releases and budget entries. */
    private static List<String> shape(List<Publication> out) {
        return out.stream()
                .map(
                        p -> {
                            if (p instanceof Publication.Centroids c) {
                                return "centroids " + c.value().getAlgorithm();
                            }
                            if (p instanceof Publication.Sketch) {
                                return "sketch";
                            }
                            BudgetStatus b = ((Publication.Budget) p).value();
                            return b.getKind() + " " + b.getAlgorithm();
                        })
                .toList();
    }

    @Test
    void releasesEachSummaryInTheFixedOrderEachFollowedByItsCharge() {
        StreamSpec s = spec(ALL + "    budget_cap: 10\n");
        StreamRuntime rt = StreamRuntime.of(s);
        WindowRelease.Outcome o =
                new WindowRelease(rt, TestRandoms.SECRET)
                        .release(window(rt, W, 400), ledger(s), null);
        assertEquals(
                List.of(
                        "centroids stats",
                        "CHARGE stats",
                        "sketch",
                        "CHARGE ckm",
                        "centroids dp-hst",
                        "CHARGE dp-hst"),
                shape(o.published()));
        assertEquals(1, o.sketches().size(), "the ckm sketch goes to the decoder");
        assertEquals(W, o.sketches().get(0).windowStart);
        assertEquals(s.k() * s.dimension(), o.centroids().length, "stats centroids kept, k x d");
        assertEquals(3, o.decisions().size());
        assertTrue(o.decisions().stream().allMatch(PrivacyLedger.Decision::accepted));
        assertEquals(3.0, o.decisions().get(2).spent(), 0.0, "three releases on one window");
    }

    @Test
    void aRefusedChargePublishesOnlyTheRefusalAndRunsNoMechanism() {
        StreamSpec s = spec(ALL + "    budget_cap: 2.5\n");
        StreamRuntime rt = StreamRuntime.of(s);
        WindowRelease.Outcome o =
                new WindowRelease(rt, TestRandoms.SECRET)
                        .release(window(rt, 0, 100), ledger(s), null);
        assertEquals(
                List.of(
                        "centroids stats",
                        "CHARGE stats",
                        "sketch",
                        "CHARGE ckm",
                        "REFUSED dp-hst"),
                shape(o.published()));
        BudgetStatus refused = ((Publication.Budget) o.published().get(4)).value();
        assertEquals(BudgetEventKind.REFUSED, refused.getKind());
        assertEquals(2.0, refused.getSpent(), 0.0);
        assertEquals(2.5, refused.getCap(), 0.0);

        StreamSpec statsOnly = spec(ALL + "    budget_cap: 0.5\n");
        WindowRelease.Outcome none =
                new WindowRelease(StreamRuntime.of(statsOnly), TestRandoms.SECRET)
                        .release(
                                window(StreamRuntime.of(statsOnly), 0, 100),
                                ledger(statsOnly),
                                null);
        assertEquals(
                List.of("REFUSED stats", "REFUSED ckm", "REFUSED dp-hst"), shape(none.published()));
        assertTrue(none.sketches().isEmpty());
        assertNull(none.centroids(), "nothing released: the operator keeps its centroids");
    }

    @Test
    void anEmptyWindowIsReleasedAndChargedLikeAnyOther() {
        StreamSpec s = spec(ALL + "    budget_cap: 10\n");
        StreamRuntime rt = StreamRuntime.of(s);
        WindowRelease core = new WindowRelease(rt, TestRandoms.SECRET);
        WindowRelease.Outcome empty = core.release(window(rt, 0, 0), ledger(s), null);
        WindowRelease.Outcome full = core.release(window(rt, 0, 400), ledger(s), null);
        assertEquals(shape(full.published()), shape(empty.published()));
        assertNotNull(empty.centroids());
        Publication.Centroids stats = (Publication.Centroids) empty.published().get(0);
        assertEquals(s.k(), stats.value().getK(), "k centroids from noise alone");
        assertNotEquals(
                full.published().get(0), stats, "the records change the release of the window");
    }

    @Test
    void aReplayedWindowReleasesEqualValuesAndAnotherWindowOtherNoise() {
        StreamSpec s = spec(ALL + "    budget_cap: 10\n");
        StreamRuntime rt = StreamRuntime.of(s);
        WindowRelease core = new WindowRelease(rt, TestRandoms.SECRET);
        WindowRelease.Outcome a = core.release(window(rt, 0, 400), ledger(s), null);
        WindowRelease.Outcome b = core.release(window(rt, 0, 400), ledger(s), null);
        assertEquals(a.published(), b.published(), "same window, same contents: same values");
        WindowRelease.Outcome later = core.release(window(rt, W, 400), ledger(s), null);
        assertNotEquals(
                ((Publication.Centroids) a.published().get(0)).value().getCentroids(),
                ((Publication.Centroids) later.published().get(0)).value().getCentroids(),
                "the window start keys the noise");
    }
}
