package org.dpclust.window;

import static org.dpclust.window.WindowTestSpecs.ALL;
import static org.dpclust.window.WindowTestSpecs.spec;
import static org.dpclust.window.WindowTestSpecs.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/** The per-window release sequence of the Flink-free core. */
class WindowReleaseTest {
    private static final long W = 10_000;

    /** A stream's ledger as a {@link WindowRelease.Charger}; keeps every charge it decided. */
    private static final class Ledger implements WindowRelease.Charger {
        final PrivacyLedger ledger;
        final List<String> charges = new ArrayList<>(); // "summary decision" per charge
        final List<String> fingerprints = new ArrayList<>();

        Ledger(StreamSpec s) {
            ledger = new PrivacyLedger(s.cap(), s.budgetPeriodMillis(), false);
        }

        @Override
        public WindowRelease.Charged charge(
                String summary, PrivacyLedger.Interval interval, ReleaseBudget budget, String fp) {
            assertTrue(budget instanceof ReleaseBudget.Pure, "a pure stream charges epsilon");
            PrivacyLedger.Decision d =
                    ledger.charge(interval, ((ReleaseBudget.Pure) budget).epsilon());
            charges.add((d.accepted() ? "CHARGE " : "REFUSED ") + summary);
            fingerprints.add(fp);
            return WindowRelease.Charged.pure(d);
        }
    }

    private static Ledger ledger(StreamSpec s) {
        return new Ledger(s);
    }

    /** The kind of each publication, with the algorithm of centroid releases. */
    private static List<String> shape(List<Publication> out) {
        return out.stream()
                .map(
                        p ->
                                p instanceof Publication.Centroids c
                                        ? "centroids " + c.value().getAlgorithm()
                                        : "sketch")
                .toList();
    }

    @Test
    void releasesEachSummaryInTheFixedOrderEachAfterItsCharge() throws Exception {
        StreamSpec s = spec(ALL + "    budget_cap: 10\n");
        StreamRuntime rt = StreamRuntime.of(s);
        Ledger ledger = ledger(s);
        WindowRelease.Outcome o =
                new WindowRelease(rt, TestRandoms.SECRET).release(window(rt, W, 400), ledger, null);
        assertEquals(
                List.of("centroids stats", "sketch", "centroids dp-hst"), shape(o.published()));
        assertEquals(List.of("CHARGE stats", "CHARGE ckm", "CHARGE dp-hst"), ledger.charges);
        assertEquals(1, o.sketches().size(), "the ckm sketch goes to the decoder");
        assertEquals(W, o.sketches().get(0).windowStart);
        assertEquals(s.k() * s.dimension(), o.centroids().length, "stats centroids kept, k x d");
        assertEquals(3, o.decisions().size());
        assertTrue(o.decisions().stream().allMatch(PrivacyLedger.Decision::accepted));
        assertEquals(3.0, o.decisions().get(2).spent(), 0.0, "three releases on one window");
    }

    @Test
    void aRefusedChargePublishesNothingAndRunsNoMechanism() throws Exception {
        StreamSpec s = spec(ALL + "    budget_cap: 2.5\n");
        StreamRuntime rt = StreamRuntime.of(s);
        Ledger ledger = ledger(s);
        WindowRelease.Outcome o =
                new WindowRelease(rt, TestRandoms.SECRET).release(window(rt, 0, 100), ledger, null);
        assertEquals(List.of("centroids stats", "sketch"), shape(o.published()));
        assertEquals(List.of("CHARGE stats", "CHARGE ckm", "REFUSED dp-hst"), ledger.charges);
        PrivacyLedger.Decision refused = o.decisions().get(2);
        assertFalse(refused.accepted());
        assertEquals(2.0, refused.spent(), 0.0);
        assertEquals(2.5, refused.cap(), 0.0);

        StreamSpec statsOnly = spec(ALL + "    budget_cap: 0.5\n");
        WindowRelease.Outcome none =
                new WindowRelease(StreamRuntime.of(statsOnly), TestRandoms.SECRET)
                        .release(
                                window(StreamRuntime.of(statsOnly), 0, 100),
                                ledger(statsOnly),
                                null);
        assertEquals(List.of(), none.published());
        assertTrue(none.sketches().isEmpty());
        assertNull(none.centroids(), "nothing released: the operator keeps its centroids");
    }

    @Test
    void anEmptyWindowIsReleasedAndChargedLikeAnyOther() throws Exception {
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
    void aReplayedWindowReleasesEqualValuesAndAnotherWindowOtherNoise() throws Exception {
        StreamSpec s = spec(ALL + "    budget_cap: 10\n");
        StreamRuntime rt = StreamRuntime.of(s);
        WindowRelease core = new WindowRelease(rt, TestRandoms.SECRET);
        Ledger first = ledger(s);
        Ledger again = ledger(s);
        Ledger other = ledger(s);
        WindowRelease.Outcome a = core.release(window(rt, 0, 400), first, null);
        WindowRelease.Outcome b = core.release(window(rt, 0, 400), again, null);
        assertEquals(a.published(), b.published(), "same window, same contents: same values");
        assertEquals(
                first.fingerprints,
                again.fingerprints,
                "a replay has the same fingerprints: the ledger returns the recorded decision");
        core.release(window(rt, 0, 399), other, null);
        for (int i = 0; i < 3; i++) {
            assertNotEquals(
                    first.fingerprints.get(i),
                    other.fingerprints.get(i),
                    "other contents, another release: charged again");
        }
        assertEquals(3, new java.util.HashSet<>(first.fingerprints).size(), "one per summary");
        WindowRelease.Outcome later = core.release(window(rt, W, 400), ledger(s), null);
        assertNotEquals(
                ((Publication.Centroids) a.published().get(0)).value().getCentroids(),
                ((Publication.Centroids) later.published().get(0)).value().getCentroids(),
                "the window start keys the noise");
    }
}
