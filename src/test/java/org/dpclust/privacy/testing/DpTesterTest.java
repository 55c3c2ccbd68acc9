package org.dpclust.privacy.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.dpclust.privacy.PrivacyRandom;
import org.junit.jupiter.api.Test;

/** The harness itself: identical distributions pass, disjoint ones fail, voting counts. */
class DpTesterTest {
    private final DpTester.Options o = DpTester.Options.defaults().withSamples(5_000);

    @Test
    void identicalDistributionsPassAndDisjointFail() {
        var rng = TestRandoms.stream("dptester");
        DpTester.Verdict same = DpTester.testScalar(rng::nextDouble, rng::nextDouble, 0.1, o);
        assertTrue(same.passed(), same.details());
        DpTester.Verdict disjoint =
                DpTester.testScalar(rng::nextDouble, () -> 2 + rng.nextDouble(), 1.0, o);
        assertFalse(disjoint.passed(), disjoint.details());
        assertTrue(disjoint.worstViolation() > 0.04, disjoint.details());
    }

    @Test
    void discreteDetectsAPointMass() {
        var rng = TestRandoms.stream("dptester-discrete");
        DpTester.Verdict v =
                DpTester.testDiscrete(() -> 0, () -> rng.nextBoolean() ? 0 : 1, 0.5, o);
        // p_D(0) = 1 vs e^0.5 * 0.5 = 0.82: violation ~0.18.
        assertFalse(v.passed(), v.details());
    }

    @Test
    void projectionUsesTheDifferenceDirection() {
        var rng = TestRandoms.stream("dptester-projected");
        // Differ only in coordinate 1; projecting onto coordinate 0 would see nothing.
        DpTester.Verdict v =
                DpTester.testProjected(
                        () -> new double[] {rng.nextDouble(), rng.nextDouble()},
                        () -> new double[] {rng.nextDouble(), 5 + rng.nextDouble()},
                        new double[] {0, 5},
                        1.0,
                        o);
        assertFalse(v.passed(), v.details());
    }

    @Test
    void voteCountsMajority() {
        AtomicInteger i = new AtomicInteger();
        var r =
                DpTester.vote(
                        o.withRepetitions(5),
                        () -> new DpTester.Verdict(i.getAndIncrement() < 3, 0, "x"));
        assertEquals(3, r.passes());
        assertTrue(r.passedByMajority());
        AtomicInteger j = new AtomicInteger();
        assertFalse(
                DpTester.passesByMajority(
                        o.withRepetitions(4),
                        () -> new DpTester.Verdict(j.getAndIncrement() < 2, 0, "x")));
    }

    /** Laplace on 0 vs 1 (sensitivity 1) with the noise divided by {@code factor}. */
    private static DpTester.Statistic laplace(double factor) {
        return (neighbour, eps, rng) ->
                org.dpclust.privacy.LaplaceMechanism.addNoise(
                        neighbour ? 1.0 : 0.0, 1.0, factor * eps, rng);
    }

    @Test
    void theSharedCheckDemandsPowerAndCalibration() {
        DpTester.Options small = o.withSamples(20_000).withRepetitions(3);
        // a calibrated Laplace pair passes and its halved control fails
        DpTester.Control ok =
                DpTester.assertCalibratedPassesAndHalvedFails(
                        "dptester-laplace", 1.0, 1.0, small, false, laplace(1));
        assertTrue(ok.calibrated().passedByMajority(), ok.calibrated().summary());
        assertEquals(0, ok.halved().passes(), ok.halved().summary());
        // a statistic that ignores the output cannot see halved noise: no power, rejected
        AssertionError noPower =
                assertThrows(
                        AssertionError.class,
                        () ->
                                DpTester.assertCalibratedPassesAndHalvedFails(
                                        "dptester-blind",
                                        1.0,
                                        1.0,
                                        small,
                                        true,
                                        (neighbour, eps, rng) -> 0));
        assertTrue(noPower.getMessage().contains("no power"), noPower.getMessage());
        // a mechanism with a quarter of the noise fails even when run "calibrated"
        AssertionError leaky =
                assertThrows(
                        AssertionError.class,
                        () ->
                                DpTester.assertCalibratedPassesAndHalvedFails(
                                        "dptester-leaky", 1.0, 1.0, small, false, laplace(4)));
        assertTrue(leaky.getMessage().contains("calibrated"), leaky.getMessage());
    }

    /** Discrete Gaussian around 0 or {@code shift} at sensitivity {@code shift} and ρ. */
    private static double gaussian(boolean neighbour, long shift, double rho, PrivacyRandom rng) {
        return org.dpclust.privacy.GaussianMechanism.addNoise(
                neighbour ? shift : 0, shift, rho, rng);
    }

    @Test
    void rhoEstimateRecombinesPartsWithTheirTrueScales() {
        var rng = TestRandoms.stream("dptester-rho");
        DpTester.RhoEstimator one = new DpTester.RhoEstimator();
        DpTester.RhoEstimator two = new DpTester.RhoEstimator();
        for (int i = 0; i < 20_000; i++) {
            for (boolean n : new boolean[] {false, true}) {
                one.add(n, new double[] {gaussian(n, 100, 0.5, rng)});
                // parts of ρ 0.2 and 0.3, the second scaled arbitrarily: ρ̂ still sees 0.5
                two.add(
                        n,
                        new double[] {gaussian(n, 100, 0.2, rng), 7 * gaussian(n, 40, 0.3, rng)});
            }
        }
        for (DpTester.RhoEstimate e : new DpTester.RhoEstimate[] {one.estimate(), two.estimate()}) {
            assertEquals(20_000, e.samples());
            assertEquals(DpTester.rhoStandardError(e.rho(), 20_000), e.standardError(), 1e-12);
            assertEquals(0.5, e.rho(), 4 * e.standardError(), e.toString());
        }
        // a constant part is dropped; a repeated part is refused
        DpTester.RhoEstimator constant = new DpTester.RhoEstimator();
        DpTester.RhoEstimator repeated = new DpTester.RhoEstimator();
        for (int i = 0; i < 1_000; i++) {
            for (boolean n : new boolean[] {false, true}) {
                double x = gaussian(n, 100, 0.5, rng);
                constant.add(n, new double[] {x, 3});
                repeated.add(n, new double[] {x, 2 * x});
            }
        }
        assertTrue(Math.abs(constant.estimate().rho() - 0.5) < 0.2);
        assertThrows(IllegalArgumentException.class, repeated::estimate);
    }

    @Test
    void theZcdpCheckDemandsPowerAtOneAndAHalfRho() {
        DpTester.Options small = o.withSamples(10_000).withRepetitions(3);
        DpTester.ZcdpControl ok =
                DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                        "dptester-zcdp",
                        small,
                        (n, rho, rng) -> new double[] {gaussian(n, 100, rho, rng)});
        assertEquals(30_000, ok.calibrated().samples());
        assertTrue(ok.calibrated().rho() <= ok.threshold() && ok.leaky().rho() > ok.threshold());
        // σ/√1.5 passes the hockey-stick test but not ρ̂
        AssertionError leaky =
                assertThrows(
                        AssertionError.class,
                        () ->
                                DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                                        "dptester-zcdp-leaky",
                                        small,
                                        (n, rho, rng) ->
                                                new double[] {gaussian(n, 100, 1.5 * rho, rng)}));
        assertTrue(leaky.getMessage().contains("calibrated rho-hat"), leaky.getMessage());
        // a statistic that sees halved noise but not 1.5×ρ has no power at 1.5×
        AssertionError blind =
                assertThrows(
                        AssertionError.class,
                        () ->
                                DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                                        "dptester-zcdp-blind",
                                        small,
                                        (n, rho, rng) ->
                                                new double[] {
                                                    gaussian(n, 100, rho > 1 ? rho : 0.5, rng)
                                                }));
        assertTrue(blind.getMessage().contains("no power"), blind.getMessage());
        // too few samples to separate ρ from 1.5ρ: refused before drawing
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        DpTester.assertZcdpCalibratedPassesAndLeakyFails(
                                "dptester-zcdp-small",
                                small.withSamples(500),
                                (n, rho, rng) -> new double[] {gaussian(n, 100, rho, rng)}));
    }

    @Test
    void laplaceLossIsTheLogDensityRatio() {
        double scale = 0.7;
        for (double o : new double[] {-3, 0, 0.4, 1, 2.5}) {
            double pa = Math.exp(-Math.abs(o - 0) / scale);
            double pb = Math.exp(-Math.abs(o - 1) / scale);
            assertEquals(Math.log(pa / pb), DpTester.laplaceLoss(o, 0, 1, scale), 1e-12);
        }
        assertEquals(5.0, DpTester.project(new double[] {3, 4, 9}, new double[] {3, 4, 0}), 1e-12);
    }
}
