package org.dpclust.window;

import static org.dpclust.window.WindowTestSpecs.ALL;
import static org.dpclust.window.WindowTestSpecs.spec;
import static org.dpclust.window.WindowTestSpecs.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.SketchRelease;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.ledger.InMemoryLedgerClient;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerDecision;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.Zcdp;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * The window core under {@code accounting: zcdp}: every summary draws discrete Gaussian noise
 * calibrated to ρ per release, charges that ρ through the fenced ledger protocol (in memory), and
 * its release carries ρ, the (ε, δ) it implies, and the period's ρ spent and cap.
 */
class WindowReleaseZcdpTest {
    private static final long W = 10_000;
    private static final String ZCDP = "    accounting: zcdp\n    budget_delta: 1.0e-9\n";

    /** The operator's charger on an in-memory fenced ledger. */
    static final class Ledger implements WindowRelease.Charger {
        final StreamSpec s;
        final InMemoryLedgerClient client = new InMemoryLedgerClient("budget", "topic-1");
        final List<Double> rhos = new ArrayList<>();
        LedgerMark mark = LedgerMark.NONE;

        Ledger(StreamSpec s) {
            this.s = s;
        }

        @Override
        public WindowRelease.Charged charge(
                String summary, PrivacyLedger.Interval interval, ReleaseBudget budget, String fp) {
            rhos.add(((ReleaseBudget.Zcdp) budget).rho());
            LedgerDecision d =
                    client.charge(
                            LedgerCharge.stream(s, summary, interval, budget).withFingerprint(fp),
                            mark);
            mark = d.mark();
            return WindowRelease.Charged.of(d);
        }
    }

    @Test
    void everySummaryIsAGaussianReleaseCarryingRhoEpsilonAndDelta() throws Exception {
        StreamSpec s = spec(ALL + ZCDP + "    budget_cap: 10\n    rho_per_release: 0.01\n");
        StreamRuntime rt = StreamRuntime.of(s);
        Ledger ledger = new Ledger(s);
        WindowRelease.Outcome o =
                new WindowRelease(rt, TestRandoms.SECRET).release(window(rt, W, 400), ledger, null);
        assertEquals(List.of(0.01, 0.01, 0.01), ledger.rhos);
        assertEquals(3, o.published().size());
        double epsilon = Zcdp.epsilon(0.01, 1e-9);
        double rhoCap = Zcdp.rhoCap(10, 1e-9);
        CentroidRelease stats = ((Publication.Centroids) o.published().get(0)).value();
        assertEquals(2, stats.getSchemaVersion());
        assertEquals("zcdp", stats.getAccounting());
        assertEquals(0.01, stats.getRho(), 0.0);
        assertEquals(0.01, stats.getRhoSpent(), 1e-15);
        assertEquals(rhoCap, stats.getRhoCap(), 0.0);
        assertEquals(1e-9, stats.getDelta(), 0.0);
        assertEquals(epsilon, stats.getEpsilon(), 0.0);
        assertEquals(Zcdp.epsilon(0.01, 1e-9), stats.getSpent(), 1e-12);
        assertEquals(10.0, stats.getCap(), 0.0);
        assertTrue(stats.getMechanismParams().containsKey("rho_count"));
        assertEquals(
                0.01,
                stats.getMechanismParams().get("rho_count")
                        + stats.getMechanismParams().get("rho_sum"),
                1e-15);
        // count σ² = c²/(2ρ_count), c = 1 for record units
        assertEquals(
                Math.sqrt(1 / (2 * stats.getMechanismParams().get("rho_count"))),
                stats.getMechanismParams().get("count_noise_sd"),
                1e-9);
        SketchRelease sketch = ((Publication.Sketch) o.published().get(1)).value();
        assertEquals(2, sketch.getSchemaVersion());
        assertEquals("zcdp", sketch.getAccounting());
        assertEquals(0.01, sketch.getRho(), 0.0);
        assertEquals(0.02, sketch.getRhoSpent(), 1e-15);
        assertEquals(1e-9, sketch.getDelta(), 0.0);
        assertTrue(sketch.getMechanismParams().containsKey("sum_noise_sd"));
        CentroidRelease decoded = SketchDecoding.release(s, rt.frequencies(), o.sketches().get(0));
        assertEquals(0.02, decoded.getRhoSpent(), 1e-15, "the decoder keeps the sketch's charge");
        assertEquals("zcdp", decoded.getAccounting());
        CentroidRelease hst = ((Publication.Centroids) o.published().get(2)).value();
        assertEquals(0.03, hst.getRhoSpent(), 1e-15);
        assertTrue(hst.getMechanismParams().containsKey("node_noise_sd"));
    }

    @Test
    void theMechanismIdsChangeWithTheNoiseFamilyAndRho() {
        StreamSpec pure = spec(ALL + "    budget_cap: 10\n");
        StreamSpec z1 = spec(ALL + ZCDP + "    budget_cap: 10\n    rho_per_release: 0.01\n");
        StreamSpec z2 = spec(ALL + ZCDP + "    budget_cap: 10\n    rho_per_release: 0.02\n");
        assertTrue(Mechanisms.stats(z1).startsWith("cells-dgauss-v1/"));
        assertTrue(Mechanisms.ckm(z1).startsWith("masked-sketch-dgauss-v1/"));
        assertTrue(Mechanisms.hst(z1).startsWith("hst-dgauss-v1/"));
        assertNotEquals(Mechanisms.stats(z1), Mechanisms.stats(z2));
        assertTrue(Mechanisms.stats(pure).startsWith("cells-geometric-v2/"));
    }

    @Test
    void aDeviceStreamSplitsTheDayEvenlyAndIsRefusedPastTheCap() throws Exception {
        // 6 windows of 10 s per minute-long period, c = 5, stats only: ρ per release = ρ_cap/6
        StreamSpec s =
                spec(
                        ZCDP
                                + "    budget_cap: 1\n    budget_period: PT1M\n"
                                + "    privacy_unit: device\n    device_contribution_bound: 5\n");
        double rhoCap = Zcdp.rhoCap(1, 1e-9);
        assertEquals(rhoCap * (1 - 1e-9) / 6, s.rhoPerRelease(), 1e-18);
        StreamRuntime rt = StreamRuntime.of(s);
        WindowRelease core = new WindowRelease(rt, TestRandoms.SECRET);
        Ledger ledger = new Ledger(s);
        for (int w = 0; w < 6; w++) {
            WindowRelease.Outcome o = core.release(window(rt, w * W, 50), ledger, null);
            assertTrue(o.decisions().get(0).accepted(), "window " + w + " of the period");
        }
        // the 7th release in the period: one more ρ would exceed the cap
        StreamSpec twice =
                spec(
                        ZCDP
                                + "    budget_cap: 1\n    budget_period: PT1M\n"
                                + "    privacy_unit: device\n    device_contribution_bound: 5\n"
                                + "    rho_per_release: "
                                + (rhoCap / 3)
                                + "\n");
        Ledger l2 = new Ledger(twice);
        WindowRelease c2 = new WindowRelease(StreamRuntime.of(twice), TestRandoms.SECRET);
        int accepted = 0;
        for (int w = 0; w < 6; w++) {
            WindowRelease.Outcome o = c2.release(window(rt, w * W, 50), l2, null);
            if (o.decisions().get(0).accepted()) {
                accepted++;
            } else {
                assertTrue(o.published().isEmpty());
            }
        }
        assertEquals(3, accepted, "a third of the cap per release: three releases");
        CentroidRelease first =
                ((Publication.Centroids)
                                c2.release(window(rt, 6 * W, 50), new Ledger(twice), null)
                                        .published()
                                        .get(0))
                        .value();
        // device units, c = 5: count σ = c/√(2ρ_count)
        assertEquals(
                5 / Math.sqrt(2 * first.getMechanismParams().get("rho_count")),
                first.getMechanismParams().get("count_noise_sd"),
                1e-6);
        assertFalse(first.getMechanismParams().containsKey("epsilon_count"));
    }

    @Test
    void publishCellsAddsTheNoisyCellsTheStatsCentroidsWereComputedFrom() throws Exception {
        String cells = "    stats: {cells: 16, publish_cells: true}\n";
        StreamSpec z = spec(ZCDP + cells + "    budget_cap: 10\n    rho_per_release: 0.01\n");
        StreamRuntime rt = StreamRuntime.of(z);
        WindowRelease core = new WindowRelease(rt, TestRandoms.SECRET);
        WindowRelease.Outcome o = core.release(window(rt, W, 400), new Ledger(z), null);
        assertEquals(2, o.published().size(), "stats centroids, then their cells");
        CentroidRelease stats = ((Publication.Centroids) o.published().get(0)).value();
        org.dpclust.avro.CellsRelease c = ((Publication.Cells) o.published().get(1)).value();
        assertEquals(16, c.getNoisyCounts().size());
        assertEquals(32, c.getNoisySums().size());
        assertEquals("zcdp", c.getAccounting());
        assertEquals(0.01, c.getRho(), 0.0);
        assertEquals(stats.getEpsilon(), c.getEpsilon(), 0.0);
        assertEquals(stats.getMechanismParams(), c.getMechanismParams());
        assertEquals(stats.getMechanismParams().get("count_noise_sd"), c.getCountNoiseSd(), 0.0);
        // the records are about 200 at (0.25, 0.25) and 200 at (0.75, 0.75): the noisy counts
        // add up to about 400 (16 cells of noise sd about 12) and each occupied cell's mean is
        // centre + sum / count
        long total = c.getNoisyCounts().stream().mapToLong(Long::longValue).sum();
        assertTrue(Math.abs(total - 400) < 6 * 4 * c.getCountNoiseSd(), "total " + total);
        for (int i = 0; i < 16; i++) {
            long n = c.getNoisyCounts().get(i);
            if (n >= 1) {
                double mean = 0.5 + c.getNoisySums().get(2 * i) / n;
                assertEquals(
                        Math.max(0, Math.min(1, mean)), c.getNoisyMeans().get(i).get(0), 1e-12);
            }
        }
        // the stats release itself does not change: same centroids with or without the cells
        StreamSpec without = spec(ZCDP + "    budget_cap: 10\n    rho_per_release: 0.01\n");
        WindowRelease.Outcome plain =
                new WindowRelease(StreamRuntime.of(without), TestRandoms.SECRET)
                        .release(
                                window(StreamRuntime.of(without), W, 400),
                                new Ledger(without),
                                null);
        assertEquals(
                stats.getCentroids(),
                ((Publication.Centroids) plain.published().get(0)).value().getCentroids());
        // a pure stream publishes its cells too, with the geometric noise's sd
        StreamSpec pure = spec(cells + "    budget_cap: 10\n");
        WindowRelease.Outcome p =
                new WindowRelease(StreamRuntime.of(pure), TestRandoms.SECRET)
                        .release(
                                window(StreamRuntime.of(pure), W, 400),
                                (summary, interval, budget, fp) ->
                                        WindowRelease.Charged.pure(
                                                new PrivacyLedger(10, 86_400_000L, false)
                                                        .charge(
                                                                interval,
                                                                ((ReleaseBudget.Pure) budget)
                                                                        .epsilon())),
                                null);
        org.dpclust.avro.CellsRelease pc = ((Publication.Cells) p.published().get(1)).value();
        assertEquals("pure", pc.getAccounting());
        assertEquals(
                Math.sqrt(2)
                        * ((Publication.Centroids) p.published().get(0))
                                .value()
                                .getMechanismParams()
                                .get("count_noise_scale"),
                pc.getCountNoiseSd(),
                1e-12);
    }
}
