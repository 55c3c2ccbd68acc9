package org.dpclust.privacy.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
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
}
