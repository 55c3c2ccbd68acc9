package org.dpclust.window;

import static org.dpclust.window.WindowTestSpecs.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.config.StreamSpec;
import org.dpclust.ledger.InMemoryLedgerClient;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/** What is charged is what is noised: the charger's budget, and a decision's {@code pays}. */
class WindowReleaseChargedTest {
    private static final long W = 10_000;
    private static final String ZCDP =
            "    accounting: zcdp\n    budget_delta: 1.0e-9\n    rho_per_release: 0.01\n";

    @Test
    void everySummaryIsChargedTheStreamsReleaseBudget() throws Exception {
        for (StreamSpec s :
                List.of(
                        spec(WindowTestSpecs.ALL + "    budget_cap: 10\n"),
                        spec(WindowTestSpecs.ALL + ZCDP + "    budget_cap: 10\n"))) {
            List<ReleaseBudget> charged = new ArrayList<>();
            StreamRuntime rt = StreamRuntime.of(s);
            InMemoryLedgerClient client = new InMemoryLedgerClient("budget", "topic-1");
            new WindowRelease(rt, TestRandoms.SECRET)
                    .release(
                            WindowTestSpecs.window(rt, W, 50),
                            (summary, interval, budget, fp) -> {
                                charged.add(budget);
                                return WindowRelease.Charged.of(
                                        client.charge(
                                                LedgerCharge.stream(s, summary, interval, budget)
                                                        .withFingerprint(fp),
                                                LedgerMark.NONE));
                            },
                            null);
            assertEquals(List.of(s.releaseBudget(), s.releaseBudget(), s.releaseBudget()), charged);
        }
    }

    /** A charger whose accepted decision is for another ε than asked: the release fails. */
    @Test
    void aReleaseOnADecisionForAnotherAmountFails() {
        StreamSpec s = spec("    budget_cap: 10\n");
        StreamRuntime rt = StreamRuntime.of(s);
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () ->
                                new WindowRelease(rt, TestRandoms.SECRET)
                                        .release(
                                                WindowTestSpecs.window(rt, W, 50),
                                                (summary, interval, budget, fp) ->
                                                        WindowRelease.Charged.pure(
                                                                new PrivacyLedger(
                                                                                10,
                                                                                86_400_000L,
                                                                                false)
                                                                        .charge(interval, 0.5)),
                                                null));
        assertTrue(e.getMessage().contains("not for epsilon 1.0"), e.getMessage());
    }

    @Test
    void aDecisionPaysOnlyTheBudgetItCharged() {
        StreamSpec pure = spec("    budget_cap: 10\n");
        StreamSpec zcdp = spec(ZCDP + "    budget_cap: 10\n");
        PrivacyLedger.Interval i = new PrivacyLedger.Interval(W, 2 * W);
        InMemoryLedgerClient client = new InMemoryLedgerClient("budget", "topic-1");
        WindowRelease.Charged p =
                WindowRelease.Charged.of(
                        client.charge(
                                LedgerCharge.stream(pure, "stats", i, pure.releaseBudget()),
                                LedgerMark.NONE));
        assertTrue(p.decision().accepted());
        assertTrue(p.pays(new ReleaseBudget.Pure(1.0)));
        assertFalse(p.pays(new ReleaseBudget.Pure(Math.nextUp(1.0))));
        assertFalse(p.pays(new ReleaseBudget.Zcdp(0.5)), "ε = 1 is ρ = 1/2, but not a ρ charge");
        WindowRelease.Charged z =
                WindowRelease.Charged.of(
                        new InMemoryLedgerClient("budget", "topic-1")
                                .charge(
                                        LedgerCharge.stream(zcdp, "stats", i, zcdp.releaseBudget()),
                                        LedgerMark.NONE));
        assertTrue(z.decision().accepted());
        assertTrue(z.pays(new ReleaseBudget.Zcdp(0.01)));
        assertFalse(z.pays(new ReleaseBudget.Zcdp(0.02)));
        assertFalse(z.pays(new ReleaseBudget.Pure(z.decision().epsilon())));
    }
}
